// What processing a file of each kind does. A processor reads the file's bytes and answers its
// outcome and report; it never records them (the service does, for the holder of the claim only).
// A new kind's processor is registered with FileService.register(kind, processor): EDIFACT's
// processors take the place of notAvailableYet that way.
import type { Db } from '../db/types.ts';
import { importFiles, type ImportSummary } from '../bibs/import.ts';
import { DEFAULT_ITEM_MAP } from '../items/from-marc.ts';
import type { FileKind } from './kinds.ts';
import { recognise } from './kinds.ts';
import { firstProblems } from './report-cap.ts';

/** How an account's MARC files load: with the items their item fields describe or not, adding missing codes or not. */
export interface LoadSettings {
  items: boolean;
  createMissing: boolean;
}

export interface FileToProcess {
  id: string;
  account: string;
  name: string;
  kind: FileKind;
  content: Uint8Array;
  settings: LoadSettings;
  /**
   * Aborted when this process no longer holds the file's claim (another process took it over):
   * the processor stops at its next safe point, between transactions, and throws; its outcome is
   * the new holder's to record.
   */
  signal?: AbortSignal;
  /**
   * Renews the claim, and throws once it is lost (aborting `signal`): a processor awaits it at
   * each safe point, so that it stops there as soon as another process holds the file.
   */
  checkpoint?: () => Promise<void>;
}

export interface FileOutcome {
  status: 'loaded' | 'refused' | 'failed';
  report: Record<string, unknown>;
}

export type FileProcessor = (file: FileToProcess) => Promise<FileOutcome>;

/**
 * MARC through the loader `carrel import` uses. It writes in batches of one transaction each and
 * a record matching a bib (001 with 003, or a shared 035) replaces it, so processing a file again
 * after a kill converges for records that carry those; a record with neither would be added again.
 */
export function marcProcessor(db: Db): FileProcessor {
  return async (file) => {
    const summary: ImportSummary = await importFiles(db, [{ name: file.name, open: () => slices(file.content) }], {
      itemMap: file.settings.items ? DEFAULT_ITEM_MAP : null,
      createMissing: file.settings.createMissing,
      // A lost claim stops the load between batches: the new holder loads the file again.
      signal: file.signal,
      checkpoint: file.checkpoint,
    });
    const loaded = summary.created + summary.updated;
    const refused = firstProblems(summary.failed);
    const report = {
      read: summary.read,
      created: summary.created,
      updated: summary.updated,
      items: summary.items,
      holdings: summary.holdings,
      refused: refused.shown.map((p) => ({ position: p.position, reason: p.reason })),
      refusedTotal: refused.total,
      warnings: summary.warningCount,
      unknownCodes: summary.unknownCodes,
    };
    if (loaded === 0)
      return {
        status: 'refused',
        report: { ...report, reason: summary.read ? 'no record could be loaded' : 'no MARC record in the file' },
      };
    return { status: 'loaded', report };
  };
}

/** The bytes in pieces the size `carrel import` reads a file in. */
async function* slices(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.byteLength; at += SLICE) yield bytes.subarray(at, at + SLICE);
}
const SLICE = 256 * 1024;

/** A kind Carrel recognises but cannot process yet: refused, and a retry processes it once it can. */
export function notAvailableYet(kind: FileKind): FileProcessor {
  const type = kind.replace('edifact-', '').toUpperCase();
  return async () => ({ status: 'refused', report: { reason: `EDIFACT ${type} processing is not available yet` } });
}

/** Neither MARC nor EDIFACT: refused, saying what it was not. */
export const refuseUnknown: FileProcessor = async (file) => ({
  status: 'refused',
  report: { reason: recognise(file.content).problem ?? 'not a kind of file Carrel takes' },
});

export function defaultProcessors(db: Db): Map<FileKind, FileProcessor> {
  return new Map<FileKind, FileProcessor>([
    ['marc', marcProcessor(db)],
    // INVOIC and ORDRSP are registered by src/acquisitions/edi-in; until then (a FileService on its own) they wait.
    ['edifact-invoic', notAvailableYet('edifact-invoic')],
    ['edifact-ordrsp', notAvailableYet('edifact-ordrsp')],
    ['edifact-orders', notAvailableYet('edifact-orders')],
    ['unknown', refuseUnknown],
  ]);
}
