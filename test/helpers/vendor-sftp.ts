// A vendor's SFTP server for tests of Carrel as its client: ssh2's Server, one login by password,
// a temporary folder as its root, a host key of its own. Paths are taken inside the root (a way up
// is refused). It may be told to refuse writes, as a full or read-only vendor server would.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ssh2 from 'ssh2';
import { ed25519KeyPair } from '../../src/sftp/key-pair.ts';

const { STATUS_CODE, OPEN_MODE } = ssh2.utils.sftp;

export interface VendorServer {
  port: number;
  root: string;
  /** While true, opening a file for writing is refused. */
  refuseWrites: boolean;
  /** Its host key's public half, one OpenSSH line (as in known_hosts or a .pub file). */
  publicKey: string;
  close(): Promise<void>;
}

/** `port`: listen on this one (a server restarted with a new host key); default any free one. */
export async function startVendorServer(user: string, password: string, folders: string[], port = 0): Promise<VendorServer> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-vendor-sftp-'));
  for (const folder of folders) fs.mkdirSync(path.join(root, folder), { recursive: true });
  const { private: hostKey, public: publicKey } = ed25519KeyPair();
  const within = (raw: string) => {
    const full = path.resolve(root, `.${path.posix.resolve('/', raw)}`);
    return full === root || full.startsWith(`${root}${path.sep}`) ? full : undefined;
  };
  const state: VendorServer = {
    port: 0,
    root,
    refuseWrites: false,
    publicKey,
    close: () => Promise.resolve(),
  };
  const server = new ssh2.Server({ hostKeys: [hostKey] }, (client) => {
    client.on('error', () => undefined);
    client.on('authentication', (ctx) => {
      const ok =
        ctx.method === 'password' &&
        ctx.username === user &&
        crypto.timingSafeEqual(
          crypto.createHash('sha256').update(ctx.password).digest(),
          crypto.createHash('sha256').update(password).digest(),
        );
      if (ok) ctx.accept();
      else ctx.reject(['password']);
    });
    client.on('ready', () => {
      client.on('session', (accept) => {
        const session = accept();
        session.on('sftp', (acceptSftp) => {
          const sftp = acceptSftp();
          const handles = new Map<string, { fd?: number; dir?: string; listed?: boolean }>();
          const handle = (h: { fd?: number; dir?: string }) => {
            const id = crypto.randomBytes(4);
            handles.set(id.toString('hex'), h);
            return id;
          };
          const failed = (reqId: number, error: unknown) =>
            sftp.status(
              reqId,
              (error as NodeJS.ErrnoException).code === 'ENOENT' ? STATUS_CODE.NO_SUCH_FILE : STATUS_CODE.FAILURE,
              String(error),
            );
          const attrsOf = (s: fs.Stats) => ({
            mode: s.mode,
            uid: 0,
            gid: 0,
            size: s.size,
            atime: Math.floor(s.atimeMs / 1000),
            mtime: Math.floor(s.mtimeMs / 1000),
          });
          sftp.on('REALPATH', (reqId, p) =>
            sftp.name(reqId, [{ filename: path.posix.resolve('/', p), longname: '', attrs: {} as ssh2.Attributes }]),
          );
          sftp.on('OPEN', (reqId, p, flags) => {
            const full = within(p);
            if (!full) return sftp.status(reqId, STATUS_CODE.PERMISSION_DENIED);
            const writing = (flags & OPEN_MODE.WRITE) !== 0;
            if (writing && state.refuseWrites) return sftp.status(reqId, STATUS_CODE.PERMISSION_DENIED, 'writes refused');
            try {
              sftp.handle(reqId, handle({ fd: fs.openSync(full, writing ? 'w' : 'r') }));
            } catch (error) {
              failed(reqId, error);
            }
          });
          sftp.on('WRITE', (reqId, h, offset, data) => {
            fs.writeSync(handles.get(h.toString('hex'))!.fd!, data, 0, data.length, offset);
            sftp.status(reqId, STATUS_CODE.OK);
          });
          sftp.on('READ', (reqId, h, offset, length) => {
            const buffer = Buffer.alloc(length);
            const n = fs.readSync(handles.get(h.toString('hex'))!.fd!, buffer, 0, length, offset);
            if (n === 0) return sftp.status(reqId, STATUS_CODE.EOF);
            sftp.data(reqId, buffer.subarray(0, n));
          });
          sftp.on('CLOSE', (reqId, h) => {
            const open = handles.get(h.toString('hex'));
            handles.delete(h.toString('hex'));
            if (open?.fd !== undefined) fs.closeSync(open.fd);
            sftp.status(reqId, STATUS_CODE.OK);
          });
          sftp.on('OPENDIR', (reqId, p) => {
            const full = within(p);
            if (!full || !fs.existsSync(full)) return sftp.status(reqId, STATUS_CODE.NO_SUCH_FILE);
            sftp.handle(reqId, handle({ dir: full }));
          });
          sftp.on('READDIR', (reqId, h) => {
            const open = handles.get(h.toString('hex'));
            if (!open?.dir || open.listed) return sftp.status(reqId, STATUS_CODE.EOF);
            open.listed = true;
            const names = fs.readdirSync(open.dir);
            if (names.length === 0) return sftp.status(reqId, STATUS_CODE.EOF);
            sftp.name(
              reqId,
              names.map((filename) => ({ filename, longname: filename, attrs: attrsOf(fs.statSync(path.join(open.dir!, filename))) })),
            );
          });
          const stat = (reqId: number, p: string) => {
            const full = within(p);
            if (!full) return sftp.status(reqId, STATUS_CODE.PERMISSION_DENIED);
            try {
              sftp.attrs(reqId, attrsOf(fs.statSync(full)));
            } catch (error) {
              failed(reqId, error);
            }
          };
          sftp.on('STAT', stat);
          sftp.on('LSTAT', stat);
          sftp.on('RENAME', (reqId, from, to) => {
            const a = within(from);
            const b = within(to);
            if (!a || !b || fs.existsSync(b)) return sftp.status(reqId, STATUS_CODE.FAILURE);
            fs.renameSync(a, b);
            sftp.status(reqId, STATUS_CODE.OK);
          });
          sftp.on('REMOVE', (reqId, p) => {
            const full = within(p);
            try {
              fs.unlinkSync(full!);
              sftp.status(reqId, STATUS_CODE.OK);
            } catch (error) {
              failed(reqId, error);
            }
          });
        });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  state.port = (server.address() as { port: number }).port;
  state.close = async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    fs.rmSync(root, { recursive: true, force: true });
  };
  return state;
}
