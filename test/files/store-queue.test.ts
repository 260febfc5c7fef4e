// Uploads are stored one at a time per process, with a bounded line of closes waiting.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StoreQueue } from '../../src/files/index.ts';

describe('storing uploads one at a time', () => {
  it('runs one store at a time, lets 4 wait, and refuses more', async () => {
    const queue = new StoreQueue();
    let running = 0;
    let most = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const store = (wait?: Promise<void>) => async () => {
      most = Math.max(most, ++running);
      await wait;
      running--;
    };
    const first = queue.run(store(held));
    const waiting = Array.from({ length: 4 }, () => queue.run(store()));
    assert.ok(first && waiting.every(Boolean));
    assert.equal(queue.run(store()), undefined);
    release();
    await Promise.all([first, ...waiting]);
    assert.equal(most, 1);
    // Once they are done, the line is free again.
    assert.ok(queue.run(store()));
  });
});
