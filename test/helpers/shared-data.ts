// The real MARC records in ../shared/data/marc (read in place, never copied into the project).
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { importFiles } from '../../src/bibs/import.ts';
import type { Db } from '../../src/db/types.ts';

export const MARC_DIR = path.resolve(import.meta.dirname, '../../../shared/data/marc');

export function marcFile(name: string): string {
  return path.join(MARC_DIR, name);
}

/** The file as a stream of small chunks, so record boundaries fall inside chunks. */
export function chunks(name: string, size = 4096): AsyncIterable<Uint8Array> {
  return fs.createReadStream(marcFile(name), { highWaterMark: size }) as Readable & AsyncIterable<Uint8Array>;
}

/** Imports every shared record file into the database (without items), in name order. */
export async function importSharedRecords(db: Db): Promise<void> {
  const names = fs
    .readdirSync(MARC_DIR)
    .filter((name) => /\.(mrc|dat|marc|xml|json)$/.test(name))
    .sort();
  await importFiles(
    db,
    names.map((name) => ({ name, open: () => chunks(name, 64 * 1024) })),
    { itemMap: null },
  );
}
