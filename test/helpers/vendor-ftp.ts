// A vendor's FTP server for tests of Carrel as its client: the commands basic-ftp uses (passive
// mode by EPSV, MLSD listings), one login by password, a temporary folder as its root; it may be
// told to refuse writes. Plain FTP only: enough to show the same rules hold as over SFTP.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface VendorFtpServer {
  port: number;
  root: string;
  refuseWrites: boolean;
  close(): Promise<void>;
}

const stamp = (d: Date) => d.toISOString().replace(/[-:T]/g, '').slice(0, 14);

export async function startVendorFtpServer(user: string, password: string, folders: string[]): Promise<VendorFtpServer> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-vendor-ftp-'));
  for (const folder of folders) fs.mkdirSync(path.join(root, folder), { recursive: true });
  const within = (raw: string) => {
    const full = path.resolve(root, `.${path.posix.resolve('/', raw)}`);
    return full === root || full.startsWith(`${root}${path.sep}`) ? full : undefined;
  };
  const sockets = new Set<net.Socket>();
  const state: VendorFtpServer = { port: 0, root, refuseWrites: false, close: () => Promise.resolve() };
  const server = net.createServer((control) => {
    sockets.add(control);
    control.on('close', () => sockets.delete(control));
    control.on('error', () => undefined);
    const reply = (line: string) => control.write(`${line}\r\n`);
    let named = '';
    let loggedIn = false;
    let data: Promise<net.Socket> | undefined;
    let renameFrom: string | undefined;
    const withData = async (work: (socket: net.Socket) => Promise<void>) => {
      if (!data) return reply('425 use EPSV first');
      const socket = await data;
      data = undefined;
      reply('150 opening data connection');
      await work(socket);
      reply('226 done');
    };
    const handle = async (verb: string, arg: string) => {
      if (verb === 'USER') return ((named = arg), reply('331 password please'));
      if (verb === 'PASS') return named === user && arg === password ? ((loggedIn = true), reply('230 in')) : reply('530 login incorrect');
      if (verb === 'QUIT') return (reply('221 bye'), control.end());
      if (!loggedIn) return reply('530 log in first');
      const full = within(arg);
      switch (verb) {
        case 'FEAT':
          return control.write('211-Features:\r\n MLST type*;size*;modify*;\r\n SIZE\r\n EPSV\r\n211 End\r\n');
        case 'TYPE':
        case 'STRU':
        case 'OPTS':
          return reply('200 ok');
        case 'PWD':
          return reply('257 "/"');
        case 'CWD':
          return reply('250 ok');
        case 'EPSV': {
          const passive = net.createServer();
          data = new Promise((resolve) =>
            passive.once('connection', (socket) => {
              socket.on('error', () => undefined);
              passive.close();
              resolve(socket);
            }),
          );
          await new Promise<void>((resolve) => passive.listen(0, '127.0.0.1', () => resolve()));
          return reply(`229 Entering Extended Passive Mode (|||${(passive.address() as net.AddressInfo).port}|)`);
        }
        case 'MLSD':
          if (!full || !fs.existsSync(full)) return reply('550 no such folder');
          return withData(async (socket) => {
            for (const name of fs.readdirSync(full)) {
              const s = fs.statSync(path.join(full, name));
              socket.write(`type=${s.isFile() ? 'file' : 'dir'};size=${s.size};modify=${stamp(s.mtime)}; ${name}\r\n`);
            }
            await new Promise<void>((resolve) => socket.end(resolve));
          });
        case 'STOR':
          if (state.refuseWrites || !full) return reply('550 writes refused');
          return withData(async (socket) => {
            const chunks: Buffer[] = [];
            for await (const chunk of socket) chunks.push(chunk as Buffer);
            fs.writeFileSync(full, Buffer.concat(chunks));
          });
        case 'RETR':
          if (!full || !fs.existsSync(full)) return reply('550 no such file');
          return withData(async (socket) => new Promise<void>((resolve) => socket.end(fs.readFileSync(full), resolve)));
        case 'SIZE':
          return full && fs.existsSync(full) ? reply(`213 ${fs.statSync(full).size}`) : reply('550 no such file');
        case 'DELE':
          if (!full || !fs.existsSync(full)) return reply('550 no such file');
          fs.unlinkSync(full);
          return reply('250 deleted');
        case 'RNFR':
          return full && fs.existsSync(full) ? ((renameFrom = full), reply('350 go on')) : reply('550 no such file');
        case 'RNTO':
          if (!renameFrom || !full || fs.existsSync(full)) return reply('550 cannot rename');
          fs.renameSync(renameFrom, full);
          renameFrom = undefined;
          return reply('250 renamed');
        default:
          return reply('502 not implemented');
      }
    };
    let buffered = '';
    let queue = Promise.resolve();
    control.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      let end;
      while ((end = buffered.indexOf('\r\n')) >= 0) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const space = line.indexOf(' ');
        const verb = (space < 0 ? line : line.slice(0, space)).toUpperCase();
        const arg = space < 0 ? '' : line.slice(space + 1);
        queue = queue.then(() => handle(verb, arg)).then(() => undefined);
      }
    });
    reply('220 vendor FTP ready');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  state.port = (server.address() as net.AddressInfo).port;
  state.close = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    fs.rmSync(root, { recursive: true, force: true });
  };
  return state;
}
