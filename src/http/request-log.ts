// The request log: a line for each request as it completes, and each request's own logger.
//
// Written here rather than through pino for every request: pino made each request a child logger
// (its bindings serialised) and passed each line through the redaction of secrets (REDACT in
// app.ts), whose wildcard paths walk every line's members; on GET /api that was about a quarter
// of Carrel's own CPU a request. The access line holds no secret (its path is already redacted by
// loggedPath) and has the same members every time, so it is written as JSON directly, in pino's
// form (level, time, the logger's own bindings, the request id, then the fields and msg), into the
// same stream. A request's logger is still a pino child, made only when the request logs
// something else.
import type { FastifyBaseLogger } from 'fastify';
import { pino, type Logger } from 'pino';

const INFO = 30;

/**
 * A child logger made on first use. Fastify asks for one for every request and most requests never
 * use it: their one line is the access line (accessLine).
 */
class LazyChild implements FastifyBaseLogger {
  private made?: FastifyBaseLogger;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: pino.Bindings,
    private readonly options: pino.ChildLoggerOptions,
  ) {}

  private get logger(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }

  get level(): pino.LevelWithSilentOrString {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: pino.LevelWithSilentOrString) {
    this.logger.level = level;
  }

  readonly fatal: pino.LogFn = (...args: Parameters<pino.LogFn>) => this.logger.fatal(...args);
  readonly error: pino.LogFn = (...args: Parameters<pino.LogFn>) => this.logger.error(...args);
  readonly warn: pino.LogFn = (...args: Parameters<pino.LogFn>) => this.logger.warn(...args);
  readonly info: pino.LogFn = (...args: Parameters<pino.LogFn>) => this.logger.info(...args);
  readonly debug: pino.LogFn = (...args: Parameters<pino.LogFn>) => this.logger.debug(...args);
  readonly trace: pino.LogFn = (...args: Parameters<pino.LogFn>) => this.logger.trace(...args);
  readonly silent: pino.LogFn = () => {};

  child(bindings: pino.Bindings, options?: pino.ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }
}

/** Fastify's childLoggerFactory: each request's logger, made when first used. */
export function lazyChildLogger(logger: FastifyBaseLogger, bindings: pino.Bindings, options: pino.ChildLoggerOptions): FastifyBaseLogger {
  return new LazyChild(logger, bindings, options);
}

export interface AccessLine {
  requestId: string;
  method: string;
  url: string;
  statusCode: number;
  responseTimeMs: number;
  heldBack?: number;
}

/**
 * Writes each request's access line into the log's stream as the request's logger would write
 * `log.info({ method, url, statusCode, responseTimeMs, heldBack }, 'request')`; nothing when that
 * logger's level (requestLevel, the root's unless the request changed it) is above info. A route
 * silences its own line that way: the token endpoint, once an address's failures pass their
 * number a minute.
 */
export function accessLogWriter(
  root: FastifyBaseLogger,
  stream: { write(text: string): unknown },
): (line: AccessLine, requestLevel: string) => void {
  const logger = root as unknown as Logger;
  // The root logger's base fields (pid, hostname) as pino writes them, `,"pid":1,"hostname":"h"`:
  // pino keeps them serialised under this symbol, which it exports for such uses.
  const chindings = (logger as unknown as Record<symbol, string | undefined>)[pino.symbols.chindingsSym] ?? '';
  return (line, requestLevel) => {
    if (!((logger.levels.values[requestLevel] ?? Infinity) <= INFO)) return;
    // The strings that come from the client (the method, the path, the request id) escaped as JSON.
    stream.write(
      `{"level":${INFO},"time":${Date.now()}${chindings},"requestId":${JSON.stringify(line.requestId)},"method":${JSON.stringify(line.method)},` +
        `"url":${JSON.stringify(line.url)},"statusCode":${line.statusCode},"responseTimeMs":${line.responseTimeMs}` +
        `${line.heldBack ? `,"heldBack":${line.heldBack}` : ''},"msg":"request"}\n`,
    );
  };
}
