// A passive data connection (PASV, EPSV): the door listens on one port of the configured range, on
// the address the client reached, for one connection. Only a connection from the control
// connection's own address is taken; one from anywhere else is closed and the door listens on, so a
// third party that guesses the port can neither steal a download nor slip in an upload. The
// listener closes once a connection is taken, after timeoutMs without one, or with the session.
import net from 'node:net';
import tls from 'node:tls';

/** Ports tried, from a random one of the range on, before PASV fails as busy. */
const MAX_PORT_TRIES = 50;

/** An address as compared: an IPv4-mapped IPv6 address is its IPv4 one. */
export function plainAddress(address: string | undefined): string {
  const raw = (address ?? '').toLowerCase();
  return raw.startsWith('::ffff:') && net.isIPv4(raw.slice(7)) ? raw.slice(7) : raw;
}

export class PassiveListener {
  private socket: net.Socket | undefined;
  private data: net.Socket | tls.TLSSocket | undefined;
  private secured = false;
  private waiters: ((data: net.Socket | undefined) => void)[] = [];
  private readonly timer: NodeJS.Timeout;
  private closed = false;

  private constructor(
    private readonly server: net.Server,
    readonly port: number,
    private readonly o: {
      client: string;
      timeoutMs: number;
      tls: tls.SecureContext | undefined;
      onStranger: (address: string) => void;
    },
  ) {
    server.on('connection', (socket) => this.arrive(socket));
    server.on('error', () => undefined);
    this.timer = setTimeout(() => this.close(), o.timeoutMs);
  }

  /** A listener on a free port of `ports` at `host`; undefined when none of those tried is free. */
  static async open(o: {
    host: string;
    ports: { min: number; max: number };
    client: string;
    timeoutMs: number;
    tls: tls.SecureContext | undefined;
    onStranger: (address: string) => void;
  }): Promise<PassiveListener | undefined> {
    const span = o.ports.max - o.ports.min + 1;
    const first = Math.floor(Math.random() * span);
    for (let i = 0; i < Math.min(span, MAX_PORT_TRIES); i++) {
      const port = o.ports.min + ((first + i) % span);
      const server = net.createServer({ pauseOnConnect: true });
      const listening = await new Promise<boolean>((resolve) => {
        server.once('error', () => resolve(false));
        server.listen({ host: o.host, port, exclusive: true }, () => resolve(true));
      });
      if (listening) return new PassiveListener(server, port, o);
      server.close();
    }
    return undefined;
  }

  private arrive(socket: net.Socket): void {
    socket.on('error', () => undefined);
    const from = plainAddress(socket.remoteAddress);
    if (this.socket || this.closed || from !== plainAddress(this.o.client)) {
      if (!this.socket && !this.closed) this.o.onStranger(from);
      return void socket.destroy();
    }
    this.socket = socket;
    this.server.close();
    clearTimeout(this.timer);
    socket.setTimeout(this.o.timeoutMs, () => socket.destroy());
    socket.resume();
    // PROT P: TLS starts at once; the transfer waits for its handshake (secure()).
    this.data = this.o.tls ? new tls.TLSSocket(socket, { isServer: true, secureContext: this.o.tls }) : socket;
    this.data.on('error', () => undefined);
    // The handshake may be over before the transfer's command comes (basic-ftp starts it at once).
    this.data.once('secure', () => (this.secured = true));
    for (const waiter of this.waiters.splice(0)) waiter(socket);
  }

  /** The TCP connection once the client has opened it; undefined when it does not within the time-out. */
  connected(): Promise<net.Socket | undefined> {
    if (this.socket || this.closed) return Promise.resolve(this.socket);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** The data stream once usable (its TLS handshake done, under PROT P); undefined when it fails or closes first. */
  secure(): Promise<net.Socket | tls.TLSSocket | undefined> {
    const data = this.data;
    if (!data || data.destroyed) return Promise.resolve(undefined);
    if (!(data instanceof tls.TLSSocket) || this.secured) return Promise.resolve(data);
    return new Promise((resolve) => {
      data.once('secure', () => resolve(data));
      data.once('close', () => resolve(undefined));
    });
  }

  /** Stops listening, and ends the data connection unless it was ended in order (its client then closes it, or its time-out). */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.server.close();
    if (!this.data?.writableFinished) {
      this.data?.destroy();
      this.socket?.destroy();
    }
    for (const waiter of this.waiters.splice(0)) waiter(undefined);
  }
}
