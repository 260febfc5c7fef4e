// Every door of Carrel's (SIP2, SFTP, FTP, the SQL door, the Patron API's own port) starts listening
// the same way: a port it cannot take (in use, not allowed) fails the start with the error, which
// otherwise reaches only the server's 'error' listeners.
import type net from 'node:net';

/** Listens on host:port; answers the port taken (the one given, or the system's choice for 0). */
export async function listen(server: net.Server, port: number, host: string | undefined): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return (server.address() as net.AddressInfo).port;
}
