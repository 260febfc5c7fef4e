// What a received file is, read from its content, never from its name: MARC in any format the
// importer reads (src/marc/read.ts), or an EDIFACT interchange and the type of its first message.
import { detect } from '../edifact/index.ts';
import { detectFormat } from '../marc/read.ts';

export const FILE_KINDS = ['marc', 'edifact-invoic', 'edifact-ordrsp', 'edifact-orders', 'unknown'] as const;
export type FileKind = (typeof FILE_KINDS)[number];

/** How far into a file its kind is looked for: EDIFACT's first UNH comes within the first segments. */
const HEAD = 64 * 1024;

/** The message types Carrel takes, by their UNH name. */
const EDIFACT_TYPES: Record<string, FileKind> = { INVOIC: 'edifact-invoic', ORDRSP: 'edifact-ordrsp', ORDERS: 'edifact-orders' };

export interface Recognised {
  kind: FileKind;
  /** Why it is unknown, for the file's report. */
  problem?: string;
}

/**
 * An EDIFACT interchange (UNA or UNB first, after a byte order mark and white space) and the type
 * of its first message (UNH's second element), read by src/edifact from the file's head.
 */
export function detectEdifact(head: Uint8Array): { edifact: boolean; messageType?: string } {
  const found = detect(head, { maxBytes: HEAD });
  return { edifact: found.edifact, messageType: found.messageTypes[0] };
}

export function recognise(bytes: Uint8Array): Recognised {
  const head = bytes.subarray(0, HEAD);
  const edifact = detectEdifact(head);
  if (edifact.edifact) {
    const kind = edifact.messageType ? EDIFACT_TYPES[edifact.messageType] : undefined;
    if (kind) return { kind };
    return {
      kind: 'unknown',
      problem: edifact.messageType
        ? `an EDIFACT interchange of ${edifact.messageType} messages: Carrel takes INVOIC, ORDRSP and ORDERS`
        : 'an EDIFACT interchange with no message (UNH) in its first 64 KB',
    };
  }
  if (detectFormat(head)) return { kind: 'marc' };
  return { kind: 'unknown', problem: 'neither MARC (ISO 2709, MARCXML, MARC-in-JSON) nor EDIFACT (UNA or UNB first)' };
}
