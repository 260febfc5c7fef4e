// Rules for bibliographic records: every write derives the fields kept beside the MARC, stamps the
// change clock and runs in one transaction, so nothing half-written is ever seen.
import { horizon, stamp } from '../db/change-clock.ts';
import type { Db } from '../db/types.ts';
import { errors } from '../http/errors.ts';
import { fromMarcInJson, toMarcInJson } from '../marc/marc-in-json.ts';
import { MarcError, type MarcRecord } from '../marc/record.ts';
import { deriveBib } from './derive.ts';
import * as repo from './repository.ts';

export interface BibInput {
  marc: MarcRecord;
  suppressed?: boolean;
}

/** Reads a request body: a MARC-in-JSON record, or {marc: <MARC-in-JSON>, suppressed?}. */
export function parseBibBody(body: unknown): BibInput {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw errors.validationFailed('the body must be a MARC-in-JSON record or {"marc": …}');
  const wrapper = body as { marc?: unknown; suppressed?: unknown };
  const marcJson = 'marc' in wrapper ? wrapper.marc : body;
  if (wrapper.suppressed !== undefined && typeof wrapper.suppressed !== 'boolean') throw errors.validationFailed('suppressed must be true or false');
  try {
    const marc = fromMarcInJson(marcJson);
    if (!marc.fields.some((f) => f.tag === '245')) throw new MarcError('a bibliographic record needs a title (245)');
    return { marc, suppressed: wrapper.suppressed };
  } catch (error) {
    if (error instanceof MarcError) throw errors.validationFailed(`marc: ${error.message}`);
    throw error;
  }
}

export class BibService {
  constructor(private readonly db: Db) {}

  async create(input: BibInput): Promise<string> {
    return this.db.transaction(async (tx) => {
      const at = await stamp(tx);
      return repo.insertBib(tx, toMarcInJson(input.marc), deriveBib(input.marc), input.suppressed ?? false, at);
    });
  }

  async replace(id: string, input: BibInput): Promise<void> {
    const found = await this.db.transaction(async (tx) => {
      const at = await stamp(tx);
      return repo.updateBib(tx, id, toMarcInJson(input.marc), deriveBib(input.marc), input.suppressed, at);
    });
    if (!found) throw errors.notFound(`no bib ${id}`);
  }

  async delete(id: string): Promise<void> {
    const found = await this.db.transaction(async (tx) => repo.tombstoneBib(tx, id, await stamp(tx)));
    if (!found) throw errors.notFound(`no bib ${id}`);
  }

  async get(id: string): Promise<repo.BibRow> {
    const row = await repo.getBib(this.db, id);
    if (!row) throw errors.notFound(`no bib ${id}`);
    return row;
  }

  async list(filter: Omit<repo.BibListFilter, 'horizon'>): Promise<repo.BibRow[]> {
    const byDate = filter.createdDate || filter.updatedDate || filter.deletedDate;
    // Date windows are read behind the change clock's horizon: see src/db/change-clock.ts.
    return repo.listBibs(this.db, { ...filter, horizon: byDate ? await horizon(this.db) : undefined });
  }
}
