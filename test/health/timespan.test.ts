import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatTimeSpan } from '../../src/health/timespan.ts';

describe('formatTimeSpan', () => {
  it('prints .NET TimeSpan text with seven fractional digits', () => {
    assert.equal(formatTimeSpan(0n), '00:00:00.0000000');
    assert.equal(formatTimeSpan(4_173_900n), '00:00:00.0041739');
    assert.equal(formatTimeSpan(99n), '00:00:00.0000000'); // below one tick
    assert.equal(formatTimeSpan(1_000_000_000n * 3723n + 500n), '01:02:03.0000005');
    assert.equal(formatTimeSpan(1_000_000_000n * 3600n * 100n), '4.04:00:00.0000000');
  });
});
