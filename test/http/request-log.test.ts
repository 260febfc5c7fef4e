// The access line is written without pino (src/http/request-log.ts): it must be the line pino
// writes for the same call, and a request's own logger, made only when used, must still carry the
// request id.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { accessLogWriter, lazyChildLogger } from '../../src/http/request-log.ts';

function captured(level = 'info') {
  const lines: string[] = [];
  const stream = { write: (text: string) => void lines.push(text) };
  const logger = pino({ level, redact: { paths: ['*.pin'], censor: '[redacted]' } }, stream) as unknown as FastifyBaseLogger;
  return { lines, stream, logger };
}

/** The line with its time set to 0: the two are written moments apart. */
const timeless = (line: string) => line.replace(/"time":\d+/, '"time":0');

describe('the request log', () => {
  for (const heldBack of [0, 7]) {
    it(`writes the access line pino would write${heldBack ? ', with the refusals held back' : ''}`, () => {
      const ours = captured();
      const theirs = captured();
      const fields = { method: 'GET', url: '/v6/bibs/"odd"\\path\u2028', statusCode: 404, responseTimeMs: 0.3 };
      accessLogWriter(ours.logger, ours.stream)({ requestId: 'req-1', ...fields, heldBack }, ours.logger.level);
      theirs.logger.child({ requestId: 'req-1' }).info({ ...fields, ...(heldBack ? { heldBack } : {}) }, 'request');
      assert.equal(ours.lines.length, 1);
      assert.equal(timeless(ours.lines[0]!), timeless(theirs.lines[0]!));
      assert.equal(JSON.parse(ours.lines[0]!).url, fields.url);
    });
  }

  it('writes no access line when the log’s level, or the request’s own, is above info', () => {
    const line = { requestId: 'r', method: 'GET', url: '/api', statusCode: 200, responseTimeMs: 1 };
    const quiet = captured('warn');
    const request = lazyChildLogger(quiet.logger, { requestId: 'r' }, {});
    accessLogWriter(quiet.logger, quiet.stream)(line, request.level);
    assert.deepEqual(quiet.lines, []);
    // The token endpoint silences a failure's line this way once an address has had its lines.
    const log = captured();
    const silenced = lazyChildLogger(log.logger, { requestId: 'r' }, {});
    silenced.level = 'warn';
    const write = accessLogWriter(log.logger, log.stream);
    write(line, silenced.level);
    assert.deepEqual(log.lines, []);
    write(line, lazyChildLogger(log.logger, { requestId: 'r' }, {}).level);
    assert.equal(log.lines.length, 1);
  });

  it('makes a request’s logger only when it logs, with the request id and the redaction of secrets', () => {
    const log = captured();
    let made = 0;
    const counting = new Proxy(log.logger, {
      get: (target, name) =>
        name === 'child'
          ? (...args: Parameters<FastifyBaseLogger['child']>) => (made++, target.child(...args))
          : Reflect.get(target, name, target),
    });
    const child = lazyChildLogger(counting, { requestId: 'req-2' }, {});
    assert.equal(made, 0);
    assert.equal(child.level, 'info');
    child.warn({ patron: { pin: '1234' } }, 'something');
    child.info('again');
    assert.equal(made, 1, 'one child, made once');
    const [first, second] = log.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.equal(first!.requestId, 'req-2');
    assert.deepEqual(first!.patron, { pin: '[redacted]' });
    assert.equal(second!.msg, 'again');
  });
});
