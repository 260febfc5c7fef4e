// Idempotent writes: a write sent with an Idempotency-Key runs once per key (per API key) however
// often it is sent, and every retry gets the first answer. The claim, the write and the answer are
// one transaction, so a retry after a lost answer (a 503, a dropped connection) finds either
// nothing (the write did not happen: it runs now) or the answer (it did: the answer is replayed).
import { openTransaction, type OpenTransaction } from '../db/ambient.ts';
import type { Db } from '../db/types.ts';
import { claim, forgetOld, keepAnswer, keptAnswer, type KeptAnswer } from './repository.ts';

/** How long an answer is kept for retries. */
export const KEEP_HOURS = 24;

export type Start =
  | { kind: 'claimed'; open: OpenTransaction }
  | { kind: 'replay'; answer: KeptAnswer & { statusCode: number } }
  /** Done, but no answer could be kept (one too large or not text): the write must not run again. */
  | { kind: 'doneUnanswered' }
  /** The key was used for another request. */
  | { kind: 'mismatch' };

export interface Answer {
  statusCode: number;
  contentType: string | null;
  body: string | null;
}

export class IdempotencyService {
  constructor(private readonly db: Db) {}

  /** Claims the key and opens the request's transaction, or says what was answered before. */
  async start(keyId: string, key: string, fingerprint: string): Promise<Start> {
    const open = await openTransaction(this.db);
    try {
      if (await claim(open.tx, keyId, key, fingerprint, KEEP_HOURS)) return { kind: 'claimed', open };
      const kept = await keptAnswer(open.tx, keyId, key);
      await open.rollback();
      if (!kept || kept.fingerprint !== fingerprint) return { kind: 'mismatch' };
      if (kept.statusCode === null) return { kind: 'doneUnanswered' };
      return { kind: 'replay', answer: { ...kept, statusCode: kept.statusCode } };
    } catch (error) {
      await open.rollback().catch(() => {});
      throw error;
    }
  }

  /** Keeps the answer (when there is one to keep) and commits the request's transaction. */
  async finish(open: OpenTransaction, keyId: string, key: string, answer: Answer | undefined): Promise<void> {
    try {
      if (answer) await keepAnswer(open.tx, keyId, key, answer);
    } catch (error) {
      await open.rollback().catch(() => {});
      throw error;
    }
    await open.commit();
  }

  async forgetOld(): Promise<number> {
    return forgetOld(this.db, KEEP_HOURS);
  }
}
