// A small library for hold and circulation tests: branches with pickup locations (mn Main, 7
// shelf days; br Branch, 3 days; st Stacks, not a pickup location), bibs with items, patrons.
import { insertBranch, insertLocation } from '../../src/branches/repository.ts';
import type { Queryable } from '../../src/db/types.ts';
import { insertItem } from '../../src/items/repository.ts';

const NOW = new Date('2026-11-02T10:00:00Z');

export async function setUpLibrary(db: Queryable): Promise<void> {
  const main = await insertBranch(db, 'Main', null);
  const branch = await insertBranch(db, 'Riverside', null);
  await insertLocation(db, { code: 'mn', name: 'Main', pickup: true, hold_shelf_days: 7 }, main);
  await insertLocation(db, { code: 'st', name: 'Main stacks', pickup: false, hold_shelf_days: 7 }, main);
  await insertLocation(db, { code: 'br', name: 'Riverside', pickup: true, hold_shelf_days: 3 }, branch);
}

export async function addBib(db: Queryable, title = 'A book', suppressed = false): Promise<string> {
  return (
    await db.query<{ id: string }>(
      'insert into bibs (title, suppressed, created_date, updated_date) values ($1, $2, $3, $3) returning id::text',
      [title, suppressed, NOW],
    )
  )[0]!.id;
}

export async function addItem(db: Queryable, bibId: string, location = 'mn', status = '-', barcode?: string): Promise<string> {
  return insertItem(db, { bibIds: [bibId], location, status, barcode }, NOW);
}

export async function addPatron(db: Queryable, fields: { expires?: string; block?: string } = {}): Promise<string> {
  return (
    await db.query<{ id: string }>(
      `insert into patrons (names, expiration_date, block_code, created_date, updated_date) values ('{"Reader, A"}', $1::date, $2, $3, $3) returning id::text`,
      [fields.expires ?? null, fields.block ?? '-', NOW],
    )
  )[0]!.id;
}

/** Many patrons at once (for the concurrency tests). */
export async function addPatrons(db: Queryable, n: number): Promise<string[]> {
  return (
    await db.query<{ id: string }>(
      `insert into patrons (names, created_date, updated_date) select array['Reader ' || g], $2, $2 from generate_series(1, $1) g returning id::text`,
      [n, NOW],
    )
  ).map((r) => r.id);
}
