// The refusal a service call ends in, as the domain says it (src/shared/errors.ts).
import assert from 'node:assert/strict';
import { DomainError } from '../../src/shared/errors.ts';

/** The DomainError the call fails with; a failure of the test when it succeeds or fails otherwise. */
export async function refusal(call: Promise<unknown>): Promise<DomainError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  assert.fail('it was done');
}
