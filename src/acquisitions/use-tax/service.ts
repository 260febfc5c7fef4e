// Rules for use tax codes: a rate in percent per code, shown exactly as the library set it.
import type { Db, Queryable } from '../../db/types.ts';
import { fail } from '../../shared/errors.ts';
import { parseRate } from '../../shared/money.ts';
import { refuse } from '../refusals.ts';
import * as repo from './repository.ts';

export type { UseTaxRow } from './repository.ts';

const CODE = /^[a-z0-9]{1,3}$/;

export function parseUseTaxCode(field: string, raw: string): string {
  if (!CODE.test(raw)) throw fail.invalidParameter(`${field}: "${raw}" is not a use tax code (1 to 3 lower-case letters or digits)`);
  return raw;
}

export class UseTaxService {
  constructor(private readonly db: Db) {}

  list(): Promise<repo.UseTaxRow[]> {
    return repo.listUseTaxCodes(this.db);
  }

  /**
   * Creates a code or sets its rate; a description given replaces the old one (empty clears it),
   * none keeps it. Invoices take a new rate when they are next written, never once paid.
   */
  async set(code: string, rate: string, description?: string | null): Promise<{ created: boolean; row: repo.UseTaxRow }> {
    parseUseTaxCode('code', code);
    const text = parseRate('rate', rate);
    const desc = description === undefined ? undefined : description?.trim() || null;
    if (desc && desc.length > 200) throw fail.invalidInput('description: at most 200 characters');
    return this.db.transaction(async (tx) => {
      const created = await repo.upsertUseTaxCode(tx, code, text, desc);
      return { created, row: (await repo.lockUseTaxCode(tx, code, 'share'))! };
    });
  }

  /** Removes a code no live invoice carries; 404 when unknown, 409 when in use. */
  async remove(code: string): Promise<void> {
    parseUseTaxCode('code', code);
    await this.db.transaction(async (tx) => {
      if (!(await repo.lockUseTaxCode(tx, code, 'update'))) throw fail.notFound(`no use tax code ${code}`);
      const using = await repo.countInvoicesUsing(tx, code);
      if (using > 0) throw refuse.useTaxCodeInUse(code, using);
      await repo.deleteUseTaxCode(tx, code);
    });
  }

  /** GET /invoices/metadata: [{field: 'useTax', values: [{code, desc: <rate>}]}]. */
  async metadata(): Promise<{ field: 'useTax'; values: { code: string; desc: string }[] }[]> {
    const rows = await repo.listUseTaxCodes(this.db);
    return [{ field: 'useTax', values: rows.map((r) => ({ code: r.code, desc: r.rate })) }];
  }

  /** Locks a code against change until the caller's transaction (an invoice's write) ends; undefined when unknown. */
  lockForInvoice(tx: Queryable, code: string): Promise<repo.UseTaxRow | undefined> {
    return repo.lockUseTaxCode(tx, code, 'share');
  }
}
