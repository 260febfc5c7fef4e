// Instants are printed by hand (src/shared/instant.ts): they must be toISOString's whole seconds.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { instant } from '../../src/shared/instant.ts';

describe('instant', () => {
  it('prints whole seconds in UTC, as toISOString does, for any date', () => {
    const dates = [
      new Date(0),
      new Date('2026-01-09T03:04:05.999Z'),
      new Date('1999-12-31T23:59:59.000Z'),
      new Date('0999-06-01T00:00:00Z'),
      new Date('+012345-01-01T00:00:00Z'),
    ];
    let seed = 7;
    for (let i = 0; i < 5000; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      dates.push(new Date(-6e13 + (seed / 2 ** 31) * 3e14));
    }
    for (const date of dates) assert.equal(instant(date), `${date.toISOString().slice(0, 19)}Z`);
  });

  it('refuses an invalid date as toISOString does', () => {
    assert.throws(() => instant(new Date(Number.NaN)), RangeError);
  });
});
