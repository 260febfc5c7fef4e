// What an import tells the server processes while it runs: they leave search indexing until it
// ends (migration 0023, service_state.import_seen). Said every BEAT_MS and cleared at the end.
import type { Queryable } from '../db/types.ts';
import { markImporting } from './repository.ts';

const BEAT_MS = 5000;

export class ImportSignal {
  private last = 0;

  constructor(private readonly db: Queryable) {}

  /** Says the import runs, at most once every BEAT_MS. */
  async beat(): Promise<void> {
    if (Date.now() - this.last < BEAT_MS) return;
    this.last = Date.now();
    await markImporting(this.db, true);
  }

  async end(): Promise<void> {
    await markImporting(this.db, false);
  }
}
