// The SQL port (CARREL_SQL_PORT) speaks PostgreSQL's wire protocol: psql, Metabase or a script
// connect with a SQL login's URL, authenticate by SCRAM-SHA-256 against the login's role, and run
// statements as that role (session.ts). TLS is not offered: listen on loopback, or put a TLS proxy
// in front. This file keeps the listening server and the limits every connection counts against:
// per client address and in all (the gate, before a byte is read) and per login. What one
// connection goes through, from its start-up packet to its close, is connection.ts.
import net from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { SQL_CONNECTION_LIMITS } from '../../config.ts';
import { ConnectionGate, endSoon, RefusalLog } from '../../shared/connection-gate.ts';
import { WireConnection, type ClientSession, type LoginPlaces, type PortShared } from './connection.ts';
import { backend } from './messages.ts';
import { listen } from '../../shared/listen.ts';

export type { ClientSession } from './connection.ts';

export interface DoorOptions {
  /** A session for a new client: the embedded engine's one, or a connection of its own on PostgreSQL. */
  session(): Promise<ClientSession>;
  host: string;
  port: number;
  rowCap: number;
  statementTimeoutMs: number;
  /** The stored SCRAM verifier of a SQL login, or undefined when there is no such login. */
  verifier(user: string): Promise<string | undefined>;
  /** What the server reports itself as (server_version, TimeZone …). */
  parameters: Record<string, string>;
  log: FastifyBaseLogger;
  /** How long a batch may hold the engine's session between two of its messages. */
  holdMs?: number;
  /** Connections per login, per client address, and in all. */
  perLogin?: number;
  perAddress?: number;
  total?: number;
  /** A client that has not authenticated this long after connecting is closed. */
  loginTimeoutMs?: number;
}

/** Each SQL login's open connections, against its limit. */
class LoginCounts implements LoginPlaces {
  private readonly open = new Map<string, number>();

  constructor(private readonly most: number) {}

  take(user: string): boolean {
    const count = this.open.get(user) ?? 0;
    if (count >= this.most) return false;
    this.open.set(user, count + 1);
    return true;
  }

  give(user: string): number {
    const left = (this.open.get(user) ?? 1) - 1;
    if (left > 0) this.open.set(user, left);
    else this.open.delete(user);
    return left;
  }
}

export interface WireDoor {
  port: number;
  close(): Promise<void>;
}

export async function openWireDoor(o: DoorOptions): Promise<WireDoor> {
  const refusals = new RefusalLog(o.log);
  const shared: PortShared = {
    session: () => o.session(),
    verifier: (user) => o.verifier(user),
    parameters: o.parameters,
    rowCap: o.rowCap,
    statementTimeoutMs: o.statementTimeoutMs,
    holdMs: o.holdMs ?? 5000,
    loginTimeoutMs: o.loginTimeoutMs ?? SQL_CONNECTION_LIMITS.loginTimeoutMs,
    logins: new LoginCounts(o.perLogin ?? 10),
    refusals,
    log: o.log,
  };
  let serial = 0;
  // As PostgreSQL answers past max_connections: a FATAL 53300 before the start-up packet is read.
  const gate = new ConnectionGate(
    {
      maxConnections: o.total ?? SQL_CONNECTION_LIMITS.maxConnections,
      maxConnectionsPerAddress: o.perAddress ?? SQL_CONNECTION_LIMITS.maxConnectionsPerAddress,
    },
    (socket, why, address) => {
      refusals.note(`SQL connection refused: ${why}`, { remote: address });
      const text = why === 'too many' ? 'sorry, too many clients already' : `too many connections from ${address}`;
      endSoon(socket, backend.error('53300', text, 'FATAL'));
    },
  );

  // Each connection admitted is answered by a WireConnection of its own (connection.ts), from start-up to close.
  const server = net.createServer((socket) => {
    new WireConnection(socket, ++serial, shared);
  });

  gate.guard(server);

  const port = await listen(server, o.port, o.host);
  return {
    port,
    async close() {
      gate.destroyAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
