// The HTTP server under the app: connections capped per client address and in all, bounded waits
// for slow clients, and the one error body for what Node refuses before a request reaches Fastify
// (headers too large, a malformed request, a client too slow to send its request), never echoing
// the input.
import http, { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Config } from '../config.ts';
import { ConnectionGate, endSoon, RefusalLog, type Refusal } from '../shared/connection-gate.ts';
import { ApiError } from './errors.ts';

export interface ConnectionLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** Connections at once, in all and per client address (IPv6: per /64), on each port. */
  maxConnections: number;
  maxConnectionsPerAddress: number;
}

export function connectionLimits(config: Config): ConnectionLimits {
  return {
    headersTimeoutMs: config.httpHeadersTimeoutMs,
    requestTimeoutMs: config.httpRequestTimeoutMs,
    keepAliveTimeoutMs: config.httpKeepAliveTimeoutMs,
    maxConnections: config.httpMaxConnections,
    maxConnectionsPerAddress: config.httpMaxConnectionsPerAddress,
  };
}

/** The answer to a connection past a cap, written before anything of its request is read. */
function refusal(why: Refusal, limits: ConnectionLimits): string {
  const answer =
    why === 'too many'
      ? new ApiError(134, 503, 'Too many attempts', `the server has ${limits.maxConnections} connections open: try again shortly`)
      : new ApiError(134, 429, 'Too many attempts', `at most ${limits.maxConnectionsPerAddress} connections at once from one address`);
  return rawAnswer(answer, { 'Retry-After': '1' });
}

function rawAnswer(answer: ApiError, headers: Record<string, string> = {}): string {
  const body = JSON.stringify(answer.body());
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return (
    `HTTP/1.1 ${answer.httpStatus} ${STATUS_CODES[answer.httpStatus]}\r\nConnection: close\r\n${extra.join('')}` +
    `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

/**
 * A server that refuses a connection past its caps (429 from an address over its own, 503 over
 * the total), closes a client whose headers or whole request do not arrive in time (408), and a
 * kept-alive connection idle for keepAliveTimeoutMs. Refusals are logged sampled on log.
 */
export function createHttpServer(
  limits: ConnectionLimits,
  handler: http.RequestListener,
  log?: { warn(fields: object, message: string): void },
): http.Server {
  const server = http.createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      // Node checks the time-outs this often (30 s by default): a tenth of the shorter one, at least 50 ms.
      connectionsCheckingInterval: Math.max(50, Math.floor(limits.headersTimeoutMs / 10)),
    },
    handler,
  );
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  const refusals = log && new RefusalLog(log);
  new ConnectionGate(limits, (socket, why, address) => {
    refusals?.note(`HTTP connection refused: ${why}`, { remote: address });
    endSoon(socket, refusal(why, limits));
  }).guard(server);
  return server;
}

function answerFor(error: Error & { code?: string }, limits: ConnectionLimits): ApiError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError(108, 431, 'Invalid parameter', 'the request headers are too large');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError(108, 408, 'Invalid parameter', `the request did not arrive within ${limits.requestTimeoutMs} ms`);
    default:
      return new ApiError(108, 400, 'Invalid parameter', 'the request could not be read');
  }
}

/** Answers a connection-level error in the error body, then closes the connection. */
export function clientErrorHandler(limits: ConnectionLimits): (error: Error & { code?: string }, socket: Socket) => void {
  return (error, socket) => {
    // A client that went away, or one whose answer has begun, gets nothing more (as Node decides).
    const answering = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || answering?.headersSent) {
      socket.destroy();
      return;
    }
    socket.end(rawAnswer(answerFor(error, limits)));
  };
}
