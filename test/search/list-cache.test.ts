// The process's cache of compressed posting lists (list-cache.ts), with no database: a list is
// answered only at its own version, and the cache holds no more bytes than its bound, the least
// recently read leaving first.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { ListCache } from '../../src/search/list-cache.ts';
import { BlockPostingList, encodePostings } from '../../src/search/posting-blocks.ts';

/** A list of `n` postings, every 3rd bib from `first`. */
function list(n: number, first = 1): BlockPostingList {
  const bibs = Int32Array.from({ length: n }, (_, i) => first + 3 * i);
  return new BlockPostingList(encodePostings(bibs, new Float32Array(n).fill(2)));
}

describe('list cache', () => {
  it('answers a list only at the version it was kept at', () => {
    const cache = new ListCache(1 << 20);
    const v3 = list(10);
    cache.set(1, 3, v3);
    assert.equal(cache.get(1, 3), v3);
    assert.equal(cache.get(2, 3), undefined);
    assert.equal(cache.get(1, 2), undefined, 'an older version asked for');
    assert.equal(cache.get(1, 3), v3, 'kept for readers of its own version');
    assert.equal(cache.get(1, 4), undefined, 'a newer version asked for');
    assert.deepEqual(cache.size, { bytes: 0, lists: 0 }, 'the older list is let go');
    const v5 = list(20);
    cache.set(1, 5, v5);
    cache.set(1, 4, list(30)); // read by a reader that came late: the newer list stays
    assert.equal(cache.get(1, 4), undefined);
    assert.equal(cache.get(1, 5), v5);
    const v6 = list(40);
    cache.set(1, 6, v6);
    assert.equal(cache.get(1, 5), undefined);
    assert.equal(cache.get(1, 6), v6);
    assert.deepEqual(cache.size, { bytes: v6.bytes, lists: 1 });
  });

  it('holds no more bytes than its bound, letting the least recently read go first', () => {
    const [a, b, c, d] = [list(500), list(500, 2), list(500, 3), list(1000)];
    assert.ok(a.bytes === b.bytes && b.bytes === c.bytes && d.bytes > a.bytes, 'three lists of one size, a fourth larger');
    const cache = new ListCache(2 * a.bytes); // two lists fit exactly
    cache.set(1, 0, a);
    cache.set(2, 0, b);
    assert.deepEqual(cache.size, { bytes: 2 * a.bytes, lists: 2 });
    assert.equal(cache.get(1, 0), a); // a is now the more recently read
    cache.set(3, 0, c);
    assert.equal(cache.get(2, 0), undefined, 'b, read least recently, went');
    assert.equal(cache.get(1, 0), a);
    assert.equal(cache.get(3, 0), c);
    assert.deepEqual(cache.size, { bytes: 2 * a.bytes, lists: 2 });
    // One list larger than a kept one takes the place of both, when both must go.
    const roomy = new ListCache(d.bytes + a.bytes - 1);
    roomy.set(1, 0, a);
    roomy.set(2, 0, b);
    roomy.set(4, 0, d);
    assert.deepEqual(roomy.size, { bytes: d.bytes, lists: 1 });
    assert.equal(roomy.get(4, 0), d);
  });

  it('keeps no list larger than its bound, nor the list it replaces', () => {
    const small = list(10);
    const big = list(10_000);
    const cache = new ListCache(big.bytes - 1);
    cache.set(1, 1, small);
    cache.set(1, 2, big);
    assert.equal(cache.get(1, 2), undefined);
    assert.equal(cache.get(1, 1), undefined);
    assert.deepEqual(cache.size, { bytes: 0, lists: 0 });
    const none = new ListCache(0);
    none.set(1, 1, small);
    assert.deepEqual(none.size, { bytes: 0, lists: 0 });
    cache.set(1, 3, small);
    cache.clear();
    assert.deepEqual(cache.size, { bytes: 0, lists: 0 });
    assert.equal(cache.get(1, 3), undefined);
  });

  it('takes its bound from CARREL_SEARCH_LIST_CACHE_MB, 128 MB unless set', () => {
    assert.equal(loadConfig({}).searchListCacheBytes, 128 * 1024 * 1024);
    assert.equal(loadConfig({ CARREL_SEARCH_LIST_CACHE_MB: '2' }).searchListCacheBytes, 2 * 1024 * 1024);
    assert.equal(loadConfig({ CARREL_SEARCH_LIST_CACHE_MB: '0' }).searchListCacheBytes, 0);
    assert.throws(() => loadConfig({ CARREL_SEARCH_LIST_CACHE_MB: '-1' }), /CARREL_SEARCH_LIST_CACHE_MB/);
  });
});
