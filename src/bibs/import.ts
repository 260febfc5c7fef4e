// `carrel import`: MARC files into bibs, in batches of one transaction each. A record that matches
// a live bib (the same 001 with 003, or a shared 035) replaces it; the others are added. A record
// that cannot be read is reported with its position and the rest go on.
import { stamp } from '../db/change-clock.ts';
import type { Db } from '../db/types.ts';
import { toMarcInJson } from '../marc/marc-in-json.ts';
import { readMarc } from '../marc/read.ts';
import type { MarcRecord } from '../marc/record.ts';
import { deriveBib, type DerivedBib } from './derive.ts';
import * as repo from './repository.ts';

export interface ImportFailure {
  file: string;
  position: string;
  reason: string;
}

export interface ImportSummary {
  read: number;
  created: number;
  updated: number;
  failed: ImportFailure[];
}

export interface ImportProgress {
  records: number;
  failed: number;
  bytes: number;
}

const BATCH = 500;

interface Prepared {
  marc: MarcRecord;
  derived: DerivedBib;
}

/** Which prepared records match a live bib, by 001+003 or by 035: their ids, in batch order. */
async function matches(db: Db, batch: Prepared[]): Promise<(string | undefined)[]> {
  const found = await repo.findMatchingBibs(db, {
    controls: batch.filter((p) => p.derived.controlNumber).map((p) => [p.derived.controlNumber!, p.derived.controlSource ?? '']),
    systemNumbers: batch.flatMap((p) => p.derived.systemNumbers),
  });
  const byControl = new Map(found.map((f) => [`${f.control_number}\u0000${f.control_source ?? ''}`, f.id]));
  const bySystem = new Map(found.flatMap((f) => f.system_numbers.map((n) => [n, f.id] as const)));
  return batch.map((p) => {
    const control = p.derived.controlNumber ? byControl.get(`${p.derived.controlNumber}\u0000${p.derived.controlSource ?? ''}`) : undefined;
    return control ?? p.derived.systemNumbers.map((n) => bySystem.get(n)).find((id) => id !== undefined);
  });
}

const OTHER_KINDS: Record<string, string> = {
  u: 'holdings', v: 'holdings', x: 'holdings', y: 'holdings', z: 'authority', q: 'community information',
};

/** Why a record cannot be a bib, or undefined when it can. */
function notBibliographic(record: MarcRecord): string | undefined {
  const kind = OTHER_KINDS[record.leader[6] ?? ''];
  if (kind) return `a ${kind} record (leader/06 "${record.leader[6]}"), not a bibliographic record; ${kind} records are not imported yet`;
  if (record.fields.some((f) => f.tag === '245')) return undefined;
  if (record.fields.some((f) => f.tag === '200')) return 'no title (245); the title is in 200, as in UNIMARC: Carrel takes MARC 21';
  return 'no title (245)';
}

function identityKeys(d: DerivedBib): string[] {
  const keys = d.systemNumbers.map((n) => `035:${n}`);
  if (d.controlNumber) keys.push(`001:${d.controlNumber}\u0000${d.controlSource ?? ''}`);
  return keys;
}

async function writeBatch(db: Db, batch: Prepared[], summary: ImportSummary): Promise<void> {
  const targets = await matches(db, batch);
  await db.transaction(async (tx) => {
    const at = await stamp(tx);
    const fresh: Prepared[] = [];
    // Two records of one batch for the same bib: the later one wins.
    const replacing = new Map<string, Prepared>();
    const freshByKey = new Map<string, number>();
    for (const [i, p] of batch.entries()) {
      const id = targets[i];
      if (id !== undefined) {
        replacing.set(id, p);
        summary.updated++;
        continue;
      }
      const keys = identityKeys(p.derived);
      const earlier = keys.map((k) => freshByKey.get(k)).find((n) => n !== undefined);
      if (earlier !== undefined) {
        fresh[earlier] = p;
        summary.updated++;
      } else {
        fresh.push(p);
        keys.forEach((k) => freshByKey.set(k, fresh.length - 1));
      }
    }
    if (replacing.size) await repo.updateBibs(tx, [...replacing].map(([id, p]) => ({ id, marc: toMarcInJson(p.marc), derived: p.derived })), at);
    if (fresh.length) await repo.insertBibs(tx, fresh.map((p) => ({ marc: toMarcInJson(p.marc), derived: p.derived })), at);
    summary.created += fresh.length;
  });
}

export async function importFiles(
  db: Db,
  files: { name: string; open: () => AsyncIterable<Uint8Array> }[],
  onProgress: (progress: ImportProgress) => void = () => {},
): Promise<ImportSummary> {
  const summary: ImportSummary = { read: 0, created: 0, updated: 0, failed: [] };
  let bytes = 0;
  let writing: Promise<void> = Promise.resolve();
  for (const file of files) {
    let batch: Prepared[] = [];
    const counted = (async function* () {
      for await (const chunk of file.open()) {
        bytes += chunk.length;
        yield chunk;
      }
    })();
    for await (const result of readMarc(counted)) {
      summary.read++;
      if (result.error !== undefined) {
        summary.failed.push({ file: file.name, position: result.position, reason: result.error });
      } else if (notBibliographic(result.record)) {
        summary.failed.push({ file: file.name, position: result.position, reason: notBibliographic(result.record)! });
      } else {
        batch.push({ marc: result.record, derived: deriveBib(result.record) });
      }
      if (batch.length >= BATCH) {
        // Read and derive the next batch while the database writes this one: one batch in flight.
        await writing;
        writing = writeBatch(db, batch, summary);
        writing.catch(() => {}); // handled where it is awaited; this only stops an early "unhandled" crash
        batch = [];
      }
      if (summary.read % 100 === 0) onProgress({ records: summary.read, failed: summary.failed.length, bytes });
    }
    await writing;
    if (batch.length) await writeBatch(db, batch, summary);
  }
  onProgress({ records: summary.read, failed: summary.failed.length, bytes });
  return summary;
}
