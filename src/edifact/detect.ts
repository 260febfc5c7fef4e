// Whether some bytes are an EDIFACT interchange, from the bytes alone (a vendor's file name says
// little: .CEI, .EDI, .txt). Looks for UNA or UNB first, after an optional BOM and white space, and
// lists the message types of the UNH segments it can read.
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_SEGMENTS, type ReadLimits } from './interchange.ts';
import type { EdifactProblem } from './problems.ts';
import { tokenize } from './syntax.ts';

export interface Detection {
  edifact: boolean;
  /** The message types inside, in order of first appearance (ORDERS, ORDRSP, INVOIC …). */
  messageTypes: string[];
  /** Why the listing stopped early, when the bytes start like EDIFACT but do not read to the end. */
  problem?: EdifactProblem;
}

/** How far into the bytes the start is looked for (a BOM and some blank lines). */
const LOOK = 1024;

function startsLikeEdifact(head: string): boolean {
  let i = 0;
  while (i < head.length && (head[i] === ' ' || head[i] === '\t' || head[i] === '\r' || head[i] === '\n')) i++;
  if (head.startsWith('UNA', i)) {
    i += 9;
    while (head[i] === '\r' || head[i] === '\n') i++;
    return head.startsWith('UNB', i);
  }
  const after = head[i + 3];
  return head.startsWith('UNB', i) && after !== undefined && !/[\dA-Z]/i.test(after);
}

/** Says whether `bytes` are EDIFACT and which message types they hold; never throws. */
export function detect(bytes: Uint8Array, limits: ReadLimits = {}): Detection {
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  const buffer = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (!startsLikeEdifact(buffer.subarray(0, LOOK).toString('latin1'))) return { edifact: false, messageTypes: [] };
  const maxBytes = limits.maxBytes ?? DEFAULT_MAX_BYTES;
  if (bytes.byteLength > maxBytes) {
    return {
      edifact: true,
      messageTypes: [],
      problem: { kind: 'limit', text: `the input is ${bytes.byteLength} bytes, more than the ${maxBytes} allowed: not listed` },
    };
  }
  const tokens = tokenize(buffer.toString('latin1').trimStart(), limits.maxSegments ?? DEFAULT_MAX_SEGMENTS);
  const types: string[] = [];
  for (const seg of tokens.segments) {
    const type = seg.tag === 'UNH' ? seg.elements[1]?.[0] : undefined;
    if (type && !types.includes(type)) types.push(type);
  }
  return { edifact: true, messageTypes: types, ...(tokens.problem ? { problem: tokens.problem } : {}) };
}
