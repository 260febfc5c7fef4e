// The server's memory return: when it collects, and that what it runs is V8's full collection.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CollectionPolicy, fullCollection } from '../../src/operations/memory-return.ts';

const MB = 1024 * 1024;

describe('memory return', () => {
  it('collects once memory has grown past a tenth over its settled level, at most every 20 s', () => {
    const policy = new CollectionPolicy(200 * MB, 0);
    assert.equal(policy.due(215 * MB, 60_000), false, 'grown by less than a tenth');
    assert.equal(policy.due(230 * MB, 10_000), false, 'too soon after the last');
    assert.equal(policy.due(230 * MB, 20_000), true);
    policy.collected(230 * MB, 205 * MB, 20_000);
    assert.equal(policy.due(300 * MB, 30_000), false, 'too soon after the last');
    assert.equal(policy.due(215 * MB, 60_000), false, 'the settled level stays the lowest seen');
    assert.equal(policy.due(225 * MB, 60_000), true);
  });

  it('takes memory a collection could not free as in use, and stops collecting for it', () => {
    const policy = new CollectionPolicy(200 * MB, 0);
    policy.collected(300 * MB, 290 * MB, 20_000);
    assert.equal(policy.due(310 * MB, 60_000), false, '290 MB is the settled level now');
    assert.equal(policy.due(320 * MB, 60_000), true);
  });

  it('runs V8’s full collection, which frees what nothing holds', () => {
    const collect = fullCollection();
    collect();
    const before = process.memoryUsage().heapUsed;
    let garbage: number[][] | undefined = Array.from({ length: 200 }, () => Array.from({ length: 10_000 }, (_, i) => i + 0.5));
    assert.ok(process.memoryUsage().heapUsed > before + 10 * MB, `${garbage.length} arrays allocated`);
    garbage = undefined;
    collect();
    assert.ok(process.memoryUsage().heapUsed < before + 2 * MB);
  });
});
