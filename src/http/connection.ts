// The HTTP server under the app: bounded waits for slow clients, and the one error body for what
// Node refuses before a request reaches Fastify (headers too large, a malformed request, a client
// too slow to send its request), never echoing the input.
import http, { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError } from './errors.ts';

export interface ConnectionLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
}

/**
 * A server that closes a client whose headers or whole request do not arrive in time (408), and a
 * kept-alive connection idle for keepAliveTimeoutMs.
 */
export function createHttpServer(limits: ConnectionLimits, handler: http.RequestListener): http.Server {
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
    const answer = answerFor(error, limits);
    const body = JSON.stringify(answer.body());
    socket.end(
      `HTTP/1.1 ${answer.httpStatus} ${STATUS_CODES[answer.httpStatus]}\r\nConnection: close\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  };
}
