// What each TCP door of Carrel's own (the SQL door, SIP2) does with a connection before anything
// else: an 'error' listener first, so that a client's reset never becomes an unhandled error that
// ends the process; a count per client address and in all, past which the connection is refused;
// and every connection kept track of, refused ones included, so that closing the door ends them all.
import net from 'node:net';
import { addressKey } from './client-address.ts';
import { LogSampler } from './log-sample.ts';

export interface GateLimits {
  maxConnections: number;
  maxConnectionsPerAddress: number;
}

export type Refusal = 'too many' | 'too many from its address';

export class ConnectionGate {
  private readonly sockets = new Set<net.Socket>();
  private readonly perAddress = new Map<string, number>();
  private admitted = 0;

  constructor(
    private readonly limits: GateLimits,
    /** What the door does with a connection refused: a last word, then endSoon; or destroy. */
    private readonly refuse: (socket: net.Socket, why: Refusal, address: string) => void,
  ) {}

  /**
   * Puts the gate in front of whatever `server` does with a new connection (its own handler, or
   * a TLS server's handshake): those run only for connections admitted.
   */
  guard(server: net.Server): void {
    const inner = server.listeners('connection') as ((socket: net.Socket) => void)[];
    server.removeAllListeners('connection');
    server.on('connection', (socket: net.Socket) => {
      socket.on('error', () => undefined);
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
      const address = addressKey(socket.remoteAddress);
      const count = this.perAddress.get(address) ?? 0;
      const why: Refusal | undefined =
        this.admitted >= this.limits.maxConnections
          ? 'too many'
          : count >= this.limits.maxConnectionsPerAddress
            ? 'too many from its address'
            : undefined;
      if (why) return this.refuse(socket, why, address);
      this.admitted++;
      this.perAddress.set(address, count + 1);
      socket.once('close', () => {
        this.admitted--;
        const left = (this.perAddress.get(address) ?? 1) - 1;
        if (left > 0) this.perAddress.set(address, left);
        else this.perAddress.delete(address);
      });
      for (const listener of inner) listener.call(server, socket);
    });
  }

  /** Ends every connection now: the door is closing. */
  destroyAll(): void {
    for (const socket of this.sockets) socket.destroy();
  }
}

/**
 * Ends a connection once what was written to it has left, without waiting for the client to close
 * its side: a client that never does would otherwise hold it, and the door's close, for ever.
 */
export function endSoon(socket: net.Socket, last?: Buffer | string, lingerMs = 2000): void {
  if (socket.destroyed) return;
  if (socket.writableFinished) return void socket.destroy();
  // Past lingerMs, a client that reads nothing gets nothing more.
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  socket.once('close', () => clearTimeout(timer));
  socket.once('finish', () => socket.destroy());
  if (socket.writableEnded) return;
  if (last === undefined) socket.end();
  else socket.end(last);
}

/** Until the socket has written what it holds, or closed. */
export function drained(socket: net.Socket): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      socket.off('drain', done);
      socket.off('close', done);
      resolve();
    };
    socket.on('drain', done);
    socket.on('close', done);
  });
}

/**
 * Log lines of connections refused or closed by a door's limits, sampled per kind of line (its
 * text): a flood of connections or messages writes a few lines a minute, and the count of the rest.
 */
export class RefusalLog {
  private readonly sampler: LogSampler;

  constructor(
    private readonly log: { warn(fields: object, message: string): void },
    perMinute = 5,
  ) {
    this.sampler = new LogSampler(perMinute);
  }

  /** `message` is the kind: one of a few fixed texts, never a client's input. */
  note(message: string, fields: object): void {
    const sampled = this.sampler.take(message);
    for (const { key, heldBack } of sampled.summaries) this.log.warn({ heldBack }, `${key}: more not logged in the last minute`);
    if (sampled.write) this.log.warn({ ...fields, ...(sampled.heldBack ? { heldBack: sampled.heldBack } : {}) }, message);
  }
}
