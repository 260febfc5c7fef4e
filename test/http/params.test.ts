import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toApiError } from '../../src/http/error-handler.ts';
import { parseFields } from '../../src/http/params.ts';
import { parseDateFilter, parseIdFilter } from '../../src/shared/filters.ts';

function code(fn: () => unknown): number {
  try {
    fn();
  } catch (error) {
    // As the REST door answers it.
    const answer = toApiError(error);
    assert.ok(answer);
    return answer.code;
  }
  assert.fail('expected an error');
}

describe('parseIdFilter', () => {
  it('reads lists, ranges and open ranges', () => {
    assert.deepEqual(parseIdFilter('id', '1000001,1000007'), { kind: 'list', ids: ['1000001', '1000007'] });
    assert.deepEqual(parseIdFilter('id', '1000001'), { kind: 'list', ids: ['1000001'] });
    assert.deepEqual(parseIdFilter('id', '1000001, 1000001'), { kind: 'list', ids: ['1000001'] });
    assert.deepEqual(parseIdFilter('id', '[1000001,1000050]'), { kind: 'range', from: '1000001', to: '1000050' });
    assert.deepEqual(parseIdFilter('id', '[1000001,]'), { kind: 'range', from: '1000001' });
    assert.deepEqual(parseIdFilter('id', '[,1000050]'), { kind: 'range', to: '1000050' });
    assert.deepEqual(parseIdFilter('id', '007'), { kind: 'list', ids: ['7'] });
  });
  it('refuses what is not an id with the contract codes', () => {
    assert.equal(
      code(() => parseIdFilter('id', 'abc')),
      101,
    );
    assert.equal(
      code(() => parseIdFilter('id', '1000001,b12')),
      101,
    );
    assert.equal(
      code(() => parseIdFilter('id', '1,,2')),
      108,
    );
    assert.equal(
      code(() => parseIdFilter('id', '[1,2')),
      108,
    );
    assert.equal(
      code(() => parseIdFilter('id', '[9,2]')),
      108,
    );
    assert.equal(
      code(() => parseIdFilter('id', '[1,2,3]')),
      108,
    );
  });
});

describe('parseDateFilter', () => {
  it('reads instants, dates and ranges with open ends', () => {
    assert.deepEqual(parseDateFilter('updatedDate', '2026-11-02T10:00:00Z'), { kind: 'at', at: new Date('2026-11-02T10:00:00Z') });
    assert.deepEqual(parseDateFilter('updatedDate', '2026-11-02'), { kind: 'at', at: new Date('2026-11-02T00:00:00Z') });
    assert.deepEqual(parseDateFilter('updatedDate', '2026-11-02T12:00:00+02:00'), { kind: 'at', at: new Date('2026-11-02T10:00:00Z') });
    assert.deepEqual(parseDateFilter('updatedDate', '[2026-11-01T00:00:00Z,2026-11-02T00:00:00Z]'), {
      kind: 'range',
      from: new Date('2026-11-01T00:00:00Z'),
      to: new Date('2026-11-02T00:00:00Z'),
    });
    assert.deepEqual(parseDateFilter('updatedDate', '[2026-11-01T00:00:00Z,]'), { kind: 'range', from: new Date('2026-11-01T00:00:00Z') });
  });
  it('refuses impossible or malformed dates', () => {
    for (const raw of ['yesterday', '2026-02-31', '2026-13-01', '2026-11-02T25:00:00Z', '[2026-11-03,2026-11-01]', '2026-11-02T10:00:00']) {
      assert.equal(
        code(() => parseDateFilter('updatedDate', raw)),
        108,
        raw,
      );
    }
  });
});

describe('parseFields', () => {
  const set = { all: ['id', 'title', 'author', 'varFields'] as const, defaults: ['id', 'title', 'author'] as const };
  it('gives the default set, a chosen set in a stable order, and always the id', () => {
    assert.deepEqual(parseFields(undefined, set), ['id', 'title', 'author']);
    assert.deepEqual(parseFields('author,title', set), ['id', 'title', 'author']);
    assert.deepEqual(parseFields('default,varFields', set), ['id', 'title', 'author', 'varFields']);
    assert.deepEqual(parseFields(',', set), ['id', 'title', 'author']);
    assert.deepEqual(parseFields(' , ,', set), ['id', 'title', 'author']);
    // A name given twice is given once (DCB lists emails twice).
    assert.deepEqual(parseFields('title,title,author', set), ['id', 'title', 'author']);
  });
  it('refuses an unknown field with 108 naming it', () => {
    try {
      parseFields('title,nope', set);
      assert.fail('expected an error');
    } catch (error) {
      const answer = toApiError(error);
      assert.equal(answer?.code, 108);
      assert.match(answer.description ?? '', /nope/);
    }
  });
});
