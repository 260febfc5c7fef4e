// Carrel as the client of a vendor's SFTP server: check the server's host key, log in with a
// password, list a folder, upload under a temporary name and rename, download a file up to a size.
// Every connection and every operation has a time-out; an error of the socket ends the session,
// never the process.
import crypto from 'node:crypto';
import ssh2 from 'ssh2';

export interface RemoteServer {
  protocol: 'sftp' | 'ftp' | 'ftps';
  host: string;
  port: number;
  user: string;
  password: string | undefined;
  /** SFTP: the host key fingerprint expected (SHA256:…); null or absent: any, and the session tells which it saw. */
  hostKey?: string | null;
  /** Who the server is, for messages (the vendor's code). */
  vendor?: string;
}

export interface RemoteFile {
  name: string;
  size: number;
  /** Seconds since 1970, as the server gives it. */
  mtime: number;
}

/** How long logging in, and then each operation, may take. */
export const TIMEOUTS = { connectMs: 20_000, operationMs: 60_000 };

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const READ_CHUNK = 32 * 1024;

export class RemoteError extends Error {}

/** What Carrel does on a vendor's server, whatever the protocol. */
export interface Remote {
  /** SFTP: the fingerprint of the host key the server offered. */
  readonly hostKey?: string;
  /** The regular files of a folder ('' is the login's own folder). */
  list(folder: string): Promise<RemoteFile[]>;
  /** The size of a file, or undefined when there is none by that path. */
  size(path: string): Promise<number | undefined>;
  remove(path: string): Promise<void>;
  /**
   * Uploads to `path`.part then renames it to `path`: a vendor collecting files never takes a
   * half-written one, and the name appears only once the whole file is there.
   */
  put(path: string, content: Uint8Array): Promise<void>;
  /** A file's bytes; refused past maxBytes (read no further than that). */
  get(path: string, maxBytes: number): Promise<Buffer>;
  close(): void;
}

/** The promise, or a RemoteError once `ms` have passed. */
export function timed<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work.catch((error: unknown) => {
      throw error instanceof RemoteError ? error : new RemoteError(`${what}: ${error instanceof Error ? error.message : String(error)}`);
    }),
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new RemoteError(`${what}: no answer within ${ms / 1000} s`)), ms))),
  ]).finally(() => clearTimeout(timer));
}

function within<T>(ms: number, what: string, work: (done: (error: Error | null | undefined, value?: T) => void) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new RemoteError(`${what}: no answer within ${ms / 1000} s`)), ms);
    work((error, value) => {
      clearTimeout(timer);
      if (error) reject(new RemoteError(`${what}: ${error.message}`));
      else resolve(value as T);
    });
  });
}

/** A host key's fingerprint as OpenSSH prints it: SHA256: and the unpadded base64 of the key blob's SHA-256. */
export function fingerprint(keyBlob: Buffer): string {
  return `SHA256:${crypto.createHash('sha256').update(keyBlob).digest('base64').replace(/=$/, '')}`;
}

export class RemoteSession implements Remote {
  private constructor(
    private readonly client: ssh2.Client,
    private readonly sftp: ssh2.SFTPWrapper,
    readonly hostKey: string,
  ) {}

  static async open(server: RemoteServer): Promise<RemoteSession> {
    if (server.password === undefined) throw new RemoteError(`${server.user}@${server.host}: no password is set for this vendor's server`);
    const client = new ssh2.Client();
    // An error after the session opened (the server went away) fails the operation waiting, by its time-out or its own error.
    client.on('error', () => undefined);
    // The key is checked before the password is sent: a server that is not the vendor's learns nothing.
    let offered = '';
    const hostVerifier = (key: Buffer) => {
      offered = fingerprint(key);
      return !server.hostKey || offered === server.hostKey;
    };
    try {
      await within<void>(TIMEOUTS.connectMs + 1000, `connecting to ${server.host}:${server.port}`, (done) => {
        client.once('ready', () => done(null));
        client.once('error', (error) =>
          done(
            server.hostKey && offered && offered !== server.hostKey
              ? new Error(
                  `${server.vendor ? `vendor ${server.vendor}'s ` : ''}server offered host key ${offered}, not the ${server.hostKey} expected: ` +
                    'refused, nothing sent or fetched (if the vendor changed its key, set the new one: carrel vendors edi set … --host-key)',
                )
              : (error as { level?: string }).level === 'client-authentication'
                ? new Error(`the login ${server.user} was refused (wrong user or password)`)
                : error,
          ),
        );
        client.connect({
          host: server.host,
          port: server.port,
          username: server.user,
          password: server.password,
          readyTimeout: TIMEOUTS.connectMs,
          hostVerifier,
          tryKeyboard: false,
          keepaliveInterval: 15_000,
          keepaliveCountMax: 3,
        });
      });
      const sftp = await within<ssh2.SFTPWrapper>(TIMEOUTS.operationMs, 'opening SFTP', (done) => client.sftp(done));
      return new RemoteSession(client, sftp, offered);
    } catch (error) {
      client.end();
      throw error;
    }
  }

  close(): void {
    this.client.end();
  }

  async list(folder: string): Promise<RemoteFile[]> {
    const entries = await within<ssh2.FileEntryWithStats[]>(TIMEOUTS.operationMs, `listing "${folder}"`, (done) =>
      this.sftp.readdir(folder || '.', done),
    );
    return entries
      .filter((e) => (e.attrs.mode & S_IFMT) === S_IFREG)
      .map((e) => ({ name: e.filename, size: e.attrs.size, mtime: e.attrs.mtime }));
  }

  async size(path: string): Promise<number | undefined> {
    try {
      const stats = await within<ssh2.Stats>(TIMEOUTS.operationMs, `looking for ${path}`, (done) => this.sftp.stat(path, done));
      return stats.size;
    } catch {
      return undefined;
    }
  }

  async remove(path: string): Promise<void> {
    await within<void>(TIMEOUTS.operationMs, `removing ${path}`, (done) => this.sftp.unlink(path, done));
  }

  async put(path: string, content: Uint8Array): Promise<void> {
    const part = `${path}.part`;
    await within<void>(TIMEOUTS.operationMs, `uploading ${part}`, (done) => this.sftp.writeFile(part, Buffer.from(content), done));
    await within<void>(TIMEOUTS.operationMs, `renaming ${part} to ${path}`, (done) => this.sftp.rename(part, path, done));
  }

  async get(path: string, maxBytes: number): Promise<Buffer> {
    const handle = await within<Buffer>(TIMEOUTS.operationMs, `opening ${path}`, (done) => this.sftp.open(path, 'r', done));
    const chunks: Buffer[] = [];
    let total = 0;
    try {
      for (;;) {
        const buffer = Buffer.alloc(READ_CHUNK);
        const read = await within<number>(TIMEOUTS.operationMs, `reading ${path}`, (done) =>
          this.sftp.read(handle, buffer, 0, READ_CHUNK, total, (error, bytesRead) => done(error, bytesRead)),
        );
        if (read === 0) break;
        total += read;
        if (total > maxBytes) throw new RemoteError(`${path}: larger than ${maxBytes} bytes, not fetched`);
        chunks.push(buffer.subarray(0, read));
      }
    } finally {
      this.sftp.close(handle, () => undefined);
    }
    return Buffer.concat(chunks);
  }
}

/** A path in a folder of the vendor's server. */
export function remotePath(folder: string, name: string): string {
  let end = folder.length;
  while (end > 0 && folder[end - 1] === '/') end--;
  return end > 0 ? `${folder.slice(0, end)}/${name}` : name;
}
