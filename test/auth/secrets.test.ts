// Key ids are safe on a command line: `carrel keys revoke KEY` must never read one as an option.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { randomKeyId } from '../../src/auth/secrets.ts';

describe('key ids', () => {
  it('never start with "-" or "_", and are 24 characters of base64url', () => {
    // A plain base64url token starts with one of them once in 32: 2000 ids would show it.
    for (let i = 0; i < 2000; i++) assert.match(randomKeyId(18), /^[A-Za-z0-9][A-Za-z0-9_-]{23}$/);
  });
});
