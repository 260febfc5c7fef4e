// Text a client controls is matched in time linear in its length: a request's raw path (logged for
// every request, the Patron API PIN redacted from it) and the MARC text that imports and the
// catalogue tidy. Each function is given an input of a million characters shaped to make a
// backtracking pattern try every start against every end: quadratic, that is hours of work, far
// past the runner's time-out; linear, it is milliseconds. Over a real socket, paths of tens of
// thousands of slashes and percent signs are answered, logged without their PIN, and GET /api
// still answers.
import assert from 'node:assert/strict';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { trimPunctuation } from '../../src/bibs/derive.ts';
import { displayTitle, searchableName, tidy } from '../../src/catalog/describe.ts';
import { loggedPath } from '../../src/http/logged-path.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';

const MILLION = 1_000_000;

/** Writes `request` and reads until the server closes the connection. */
function exchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('linear-time matching of client text', () => {
  it('logs a path of a million slashes, percent signs or segments, redacting a pintest’s PIN', () => {
    assert.equal(loggedPath(`/PATRONAPI${'/'.repeat(MILLION)}`), `/PATRONAPI${'/'.repeat(MILLION)}`);
    assert.equal(loggedPath(`/PATRONAPI/${'/'.repeat(MILLION)}x`), `/PATRONAPI/${'/'.repeat(MILLION)}x`);
    assert.equal(loggedPath(`/PATRONAPI/1/${'%'.repeat(MILLION)}`), `/PATRONAPI/1/${'%'.repeat(MILLION)}`);
    assert.equal(loggedPath(`/PATRONAPI/${'x/'.repeat(MILLION / 2)}`), `/PATRONAPI/${'x/'.repeat(MILLION / 2)}`);
    assert.equal(loggedPath(`/PATRONAPI/1/${'%70'.repeat(MILLION / 3)}`), `/PATRONAPI/1/${'%70'.repeat(MILLION / 3)}`);
    assert.equal(loggedPath(`${'/'.repeat(MILLION)}?${'?'.repeat(MILLION)}`), '/'.repeat(MILLION));
    // A PIN between a million slashes and pintest is still redacted.
    assert.equal(
      loggedPath(`/PATRONAPI/1/${'/'.repeat(MILLION)}secret${'/'.repeat(MILLION)}pintest`),
      `/PATRONAPI/1/${'/'.repeat(MILLION)}[redacted]${'/'.repeat(MILLION)}pintest`,
    );
    assert.equal(loggedPath(`/PATRONAPI/1/${'x/'.repeat(MILLION / 2)}pintest`), `/PATRONAPI/1/${'[redacted]/'.repeat(MILLION / 2)}pintest`);
  });

  it('tidies MARC text of a million spaces and digits', () => {
    const spaced = `a${' '.repeat(MILLION)}b`;
    assert.equal(trimPunctuation(spaced), spaced);
    assert.equal(trimPunctuation(`a${' '.repeat(MILLION)}/${' '.repeat(MILLION)}`), 'a');
    assert.equal(tidy(spaced), spaced);
    assert.equal(tidy(`${spaced}${' '.repeat(MILLION)};`), spaced);
    assert.equal(displayTitle(spaced), spaced);
    assert.equal(displayTitle(`a${' '.repeat(MILLION)}:${' '.repeat(MILLION)}b`), 'a: b');
    assert.equal(searchableName(spaced), spaced);
    assert.equal(searchableName(`a${' 1'.repeat(MILLION / 2)}x`), `a${' 1'.repeat(MILLION / 2)}x`);
    assert.equal(searchableName(`Smith, J.,${' '.repeat(MILLION)}1901-1970`), 'Smith, J.');
  });
});

describe(`long crafted paths over a socket on ${ENGINE}`, () => {
  let t: TestApp;
  let port: number;
  before(async () => {
    t = await createTestApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  after(() => t.close());

  it('answers each, logs it without its PIN, and still answers GET /api', async () => {
    // Within Node's 16 KiB of headers: the longest request line a client can send.
    const n = 16_000;
    const paths = [
      `/PATRONAPI${'/'.repeat(n)}`,
      `/PATRONAPI/1${'/'.repeat(n)}`,
      `/PATRONAPI/${'%'.repeat(n)}`,
      `/PATRONAPI/${'x/'.repeat(n / 2)}`,
      `/${'%25'.repeat(n / 3)}`,
      `/PATRONAPI/1/${'/'.repeat(n)}s3cretpin/pintest`,
    ];
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        exchange(port, `GET ${paths[i % paths.length]} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
      ),
    );
    for (const answer of answers) assert.match(answer, /^HTTP\/1\.1 [2-4]\d\d /, answer.slice(0, 200));
    const api = await exchange(port, 'GET /api HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    assert.match(api, /^HTTP\/1\.1 200 /);
    assert.ok(!t.logText().includes('s3cretpin'), 'the PIN is not logged');
    const logged = t.logs.filter((l) => l.msg === 'request').map((l) => String(l.url));
    assert.ok(logged.includes(`/PATRONAPI/1/${'/'.repeat(n)}[redacted]/pintest`), 'the pintest is logged, redacted');
    assert.ok(logged.includes('/api'));
  });
});
