// Carrel as the client of a vendor's FTP server (FTPS: explicit TLS), through basic-ftp: the same
// operations as over SFTP (sftp-client.ts), each with a time-out. A download is read through a
// sink that stops past the size limit, never into a folder of this machine.
import { Readable, Writable } from 'node:stream';
import { Client } from 'basic-ftp';
import { RemoteError, TIMEOUTS, timed, type Remote, type RemoteFile, type RemoteServer } from './sftp-client.ts';

export class FtpSession implements Remote {
  private constructor(private readonly client: Client) {}

  static async open(server: RemoteServer): Promise<FtpSession> {
    if (server.password === undefined) throw new RemoteError(`${server.user}@${server.host}: no password is set for this vendor's server`);
    // basic-ftp's own time-out ends a connection that stays silent; timed() bounds each whole operation.
    const client = new Client(TIMEOUTS.connectMs);
    try {
      await timed(
        TIMEOUTS.connectMs + 1000,
        `connecting to ${server.host}:${server.port}`,
        client
          .access({
            host: server.host,
            port: server.port,
            user: server.user,
            password: server.password,
            secure: server.protocol === 'ftps',
          })
          .catch((error: unknown) => {
            const code = (error as { code?: number }).code;
            throw code === 530 ? new Error(`the login ${server.user} was refused (wrong user or password)`) : error;
          }),
      );
      return new FtpSession(client);
    } catch (error) {
      client.close();
      throw error;
    }
  }

  close(): void {
    this.client.close();
  }

  async list(folder: string): Promise<RemoteFile[]> {
    const entries = await timed(TIMEOUTS.operationMs, `listing "${folder}"`, this.client.list(folder || undefined));
    return entries
      .filter((e) => e.isFile)
      .map((e) => ({
        name: e.name,
        size: e.size,
        // A server without MLSD gives the date only as LIST text: its hash stands in, so a change still shows.
        mtime: e.modifiedAt ? Math.floor(e.modifiedAt.getTime() / 1000) : textStamp(e.rawModifiedAt),
      }));
  }

  async size(path: string): Promise<number | undefined> {
    try {
      return await timed(TIMEOUTS.operationMs, `looking for ${path}`, this.client.size(path));
    } catch {
      return undefined;
    }
  }

  async remove(path: string): Promise<void> {
    await timed(TIMEOUTS.operationMs, `removing ${path}`, this.client.remove(path));
  }

  async put(path: string, content: Uint8Array): Promise<void> {
    const part = `${path}.part`;
    await timed(TIMEOUTS.operationMs, `uploading ${part}`, this.client.uploadFrom(Readable.from([Buffer.from(content)]), part));
    await timed(TIMEOUTS.operationMs, `renaming ${part} to ${path}`, this.client.rename(part, path));
  }

  async get(path: string, maxBytes: number): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let total = 0;
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        total += chunk.length;
        if (total > maxBytes) return done(new RemoteError(`${path}: larger than ${maxBytes} bytes, not fetched`));
        chunks.push(chunk);
        done();
      },
    });
    await timed(TIMEOUTS.operationMs, `downloading ${path}`, this.client.downloadTo(sink, path));
    return Buffer.concat(chunks);
  }
}

/** A whole number standing for a LIST date text (the same text, the same number). */
function textStamp(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (hash * 31 + text.charCodeAt(i)) | 0;
  return hash;
}
