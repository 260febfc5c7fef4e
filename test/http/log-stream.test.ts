// The server's log (src/http/log-stream.ts): lines are gathered and handed over in batches, so
// none may be lost, reordered or held back for good.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { batchedLog } from '../../src/http/log-stream.ts';
import { eventually } from '../helpers/eventually.ts';

function logFile() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-log-'));
  const file = path.join(dir, 'log');
  const fd = fs.openSync(file, 'w');
  return { read: () => fs.readFileSync(file, 'utf8'), close: () => fs.closeSync(fd), fd };
}

describe('the batched log', () => {
  it('writes every line, in order, many batches of them', async () => {
    const file = logFile();
    const log = batchedLog(file.fd);
    const lines = Array.from({ length: 500 }, (_, i) => `{"n":${i},"text":"${'é'.repeat(i % 40)}"}\n`);
    for (const line of lines) log.write(line);
    // The last lines, fewer than a batch, go out when the batch's time is up.
    await eventually(async () => file.read().length >= lines.join('').length);
    assert.equal(file.read(), lines.join(''));
    file.close();
  });

  it('writes what it holds at once when flushed', () => {
    const file = logFile();
    const log = batchedLog(file.fd);
    // Fewer characters than a batch: nothing has been handed over yet, nor is being written.
    log.write('one\n');
    log.write('two\n');
    log.flushSync();
    assert.equal(file.read(), 'one\ntwo\n');
    file.close();
  });
});
