// An interchange's envelope: UNB … UNZ around messages (UNH … UNT), optionally in groups
// (UNG … UNE). The counts and control references are checked: a message whose UNH/UNT do not agree
// is refused on its own and the others are read; an envelope that does not close or count right is
// a problem for the whole interchange, which the caller should then refuse.
import { describeAt, problemAt, type EdifactProblem, type SegmentAt } from './problems.ts';
import { tokenize, type Delimiters, type Segment } from './syntax.ts';

/** What the caller allows before any work is done. */
export interface ReadLimits {
  /** Largest input in bytes (default 50 MB). */
  maxBytes?: number;
  /** Most segments (default 2,000,000). */
  maxSegments?: number;
}

export const DEFAULT_MAX_BYTES = 50 * 1024 * 1024;
export const DEFAULT_MAX_SEGMENTS = 2_000_000;
/** Past this many problems the rest are summed up in one: a garbage file does not make a huge report. */
const MAX_PROBLEMS = 200;

/** An interchange participant: an identifier and the qualifier saying whose scheme it is (14 GLN/EAN, 31B SAN, 91/92 assigned by supplier/buyer). */
export interface PartyId {
  id: string;
  qualifier: string;
}

export interface InterchangeHeader {
  /** UNOA, UNOB, UNOC (ISO 8859-1, the usual), UNOY (UTF-8) … */
  syntax: string;
  syntaxVersion: string;
  sender: PartyId;
  recipient: PartyId;
  /** Preparation date YYMMDD and time HHMM, as sent. */
  date: string;
  time: string;
  controlReference: string;
  applicationReference?: string;
  /** UNB test indicator 1: the sender says this is a test. */
  test: boolean;
  at: SegmentAt;
}

/** One message, UNH to UNT inclusive, whose counts agreed. */
export interface Message {
  /** 0-based among all the interchange's messages, refused ones included. */
  index: number;
  /** UNH message reference number. */
  reference: string;
  /** ORDERS, ORDRSP, INVOIC … */
  type: string;
  /** D */
  version: string;
  /** 96A */
  release: string;
  /** UN */
  agency: string;
  /** Association assigned code, e.g. EAN008 (EANCOM subset version). */
  association?: string;
  /** The UNG group reference when the message is in a group. */
  group?: string;
  segments: Segment[];
  at: SegmentAt;
}

export interface Interchange {
  delimiters: Delimiters;
  header: InterchangeHeader;
  /** The messages whose UNH/UNT agreed, in file order. */
  messages: Message[];
  /** How many messages were refused (their problems are in the result's problems). */
  refused: number;
}

export interface InterchangeResult {
  /** Null when nothing can be read: a syntax error, a limit, no UNB. */
  interchange: Interchange | null;
  /** False when the envelope itself failed (UNB/UNZ/UNG/UNE): the whole interchange is in doubt. */
  envelopeOk: boolean;
  problems: EdifactProblem[];
}

/** A component of a segment, '' when absent. */
export function component(seg: Segment, element: number, index = 0): string {
  return seg.elements[element]?.[index] ?? '';
}

/** The place of a segment outside any message. */
export function segmentAt(seg: Segment): SegmentAt {
  return { segment: seg.position, tag: seg.tag, line: seg.line };
}

/** The place of a segment inside a message. */
export function messageSegmentAt(message: Message, seg: Segment): SegmentAt {
  return {
    segment: seg.position,
    tag: seg.tag,
    line: seg.line,
    messageSegment: seg.position - message.at.segment + 1,
    messageIndex: message.index,
  };
}

const UTF8 = new Set(['UNOY', 'UNOW']);

/** The text of the input: ISO 8859-1 byte for character, or UTF-8 for UNOY/UNOW; a BOM is dropped. */
function decode(bytes: Uint8Array, utf8: boolean): string | undefined {
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  if (!utf8) return Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('latin1');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return undefined;
  }
}

/** Tokenizes the input, decoding it as its UNB syntax identifier says. */
function segmentsOf(input: Uint8Array | string, maxSegments: number) {
  if (typeof input === 'string') return tokenize(input.startsWith('\ufeff') ? input.slice(1) : input, maxSegments);
  const first = tokenize(decode(input, false)!, maxSegments);
  const unb = first.segments[0];
  if (first.problem || unb?.tag !== 'UNB' || !UTF8.has(component(unb, 0))) return first;
  const text = decode(input, true);
  if (text === undefined) {
    return {
      ...first,
      segments: [],
      problem: {
        kind: 'syntax' as const,
        ...segmentAt(unb),
        text: `UNB says ${component(unb, 0)} (UTF-8) but the bytes are not valid UTF-8`,
      },
    };
  }
  return tokenize(text, maxSegments);
}

function readHeader(unb: Segment, problems: EdifactProblem[]): InterchangeHeader | null {
  const at = segmentAt(unb);
  const header: InterchangeHeader = {
    syntax: component(unb, 0),
    syntaxVersion: component(unb, 0, 1),
    sender: { id: component(unb, 1), qualifier: component(unb, 1, 1) },
    recipient: { id: component(unb, 2), qualifier: component(unb, 2, 1) },
    date: component(unb, 3),
    time: component(unb, 3, 1),
    controlReference: component(unb, 4),
    test: component(unb, 10) === '1',
    at,
  };
  if (component(unb, 6)) header.applicationReference = component(unb, 6);
  const missing = (
    [
      ['syntax identifier', header.syntax],
      ['sender identification', header.sender.id],
      ['recipient identification', header.recipient.id],
      ['preparation date', header.date],
      ['preparation time', header.time],
      ['interchange control reference', header.controlReference],
    ] as const
  ).filter(([, value]) => value === '');
  for (const [name] of missing) problems.push(problemAt('envelope', at, `${describeAt(at)}: UNB has no ${name}`));
  return missing.length ? null : header;
}

const ENVELOPE = new Set(['UNB', 'UNG', 'UNE', 'UNH', 'UNT', 'UNZ']);

/**
 * Reads an interchange: segments, envelope and messages. Refuses, before any work, an input over
 * `limits.maxBytes`. Never throws on any input: every failure is a problem in the result.
 */
export function readInterchange(input: Uint8Array | string, limits: ReadLimits = {}): InterchangeResult {
  const maxBytes = limits.maxBytes ?? DEFAULT_MAX_BYTES;
  const size = typeof input === 'string' ? Buffer.byteLength(input) : input.byteLength;
  const refuse = (problem: EdifactProblem): InterchangeResult => ({ interchange: null, envelopeOk: false, problems: [problem] });
  if (size > maxBytes)
    return refuse({ kind: 'limit', text: `the input is ${size} bytes, more than the ${maxBytes} allowed: refused unread` });
  const tokens = segmentsOf(input, limits.maxSegments ?? DEFAULT_MAX_SEGMENTS);
  if (tokens.problem) return refuse(tokens.problem);
  const segments = tokens.segments;
  const problems: EdifactProblem[] = [];
  let envelopeOk = true;
  const envelope = (at: SegmentAt, text: string) => {
    envelopeOk = false;
    problems.push(problemAt('envelope', at, `${describeAt(at)}: ${text}`));
  };
  const unb = segments[0];
  if (unb === undefined) return refuse({ kind: 'envelope', text: 'the input holds no segments: no UNB interchange header' });
  if (unb.tag !== 'UNB')
    return refuse({ kind: 'envelope', ...segmentAt(unb), text: `the interchange begins with ${unb.tag}, not UNB: no interchange header` });
  const header = readHeader(unb, problems);
  if (header === null) return { interchange: null, envelopeOk: false, problems };

  const messages: Message[] = [];
  let index = 0;
  let refused = 0;
  let groups = 0;
  let ungrouped = 0;
  let group: { reference: string; messages: number; at: SegmentAt } | null = null;
  let closed = false;
  let i = 1;
  while (i < segments.length && problems.length < MAX_PROBLEMS) {
    const seg = segments[i]!;
    const at = segmentAt(seg);
    if (seg.tag === 'UNH') {
      let j = i + 1;
      while (j < segments.length && !ENVELOPE.has(segments[j]!.tag)) j++;
      const result = readMessage(segments, i, j, index, group?.reference);
      if ('message' in result) messages.push(result.message);
      else {
        refused++;
        problems.push(result.problem);
      }
      index++;
      if (group) group.messages++;
      else ungrouped++;
      i = j < segments.length && segments[j]!.tag === 'UNT' ? j + 1 : j;
      continue;
    }
    i++;
    if (seg.tag === 'UNG') {
      if (group) envelope(at, `UNG opens a group while group ${group.reference} is still open (no UNE)`);
      if (ungrouped > 0) envelope(at, 'UNG after messages outside any group: an interchange has groups or not, not both');
      groups++;
      group = { reference: component(seg, 4), messages: 0, at };
    } else if (seg.tag === 'UNE') {
      if (!group) {
        envelope(at, 'UNE closes no group');
        continue;
      }
      const count = component(seg, 0);
      if (count !== String(group.messages))
        envelope(at, `UNE counts ${count || 'nothing'} messages but group ${group.reference} holds ${group.messages}`);
      if (component(seg, 1) !== group.reference) envelope(at, `UNE reference "${component(seg, 1)}" is not the UNG's "${group.reference}"`);
      group = null;
    } else if (seg.tag === 'UNZ') {
      if (group) envelope(at, `UNZ while group ${group.reference} is still open (no UNE)`);
      const expected = groups > 0 ? groups : ungrouped;
      const count = component(seg, 0);
      if (count !== String(expected))
        envelope(at, `UNZ counts ${count || 'nothing'} but the interchange holds ${expected} ${groups > 0 ? 'groups' : 'messages'}`);
      if (component(seg, 1) !== header.controlReference)
        envelope(at, `UNZ control reference "${component(seg, 1)}" is not the UNB's "${header.controlReference}"`);
      closed = true;
      if (i < segments.length) envelope(segmentAt(segments[i]!), 'segments after UNZ: the interchange has ended');
      break;
    } else if (seg.tag === 'UNT') {
      envelope(at, 'UNT with no UNH before it');
    } else {
      envelope(at, `${seg.tag} outside any message`);
    }
  }
  if (problems.length >= MAX_PROBLEMS) {
    envelopeOk = false;
    problems.push({ kind: 'envelope', text: `more than ${MAX_PROBLEMS} problems: the rest are not listed` });
  } else if (!closed) {
    envelope(segmentAt(segments[segments.length - 1]!), 'the interchange ends without UNZ: it is incomplete');
  }
  return { interchange: { delimiters: tokens.delimiters, header, messages, refused }, envelopeOk, problems };
}

/** Segments [start, end) begin with UNH; segments[end] is UNT when the message closed. */
function readMessage(
  segments: Segment[],
  start: number,
  end: number,
  index: number,
  group: string | undefined,
): { message: Message } | { problem: EdifactProblem } {
  const unh = segments[start]!;
  const unhAt: SegmentAt = { ...segmentAt(unh), messageSegment: 1, messageIndex: index };
  const refuse = (at: SegmentAt, text: string) => ({
    problem: problemAt('message', at, `${describeAt(at)}: ${text}; message ${index + 1} is refused`),
  });
  const reference = component(unh, 0);
  const type = component(unh, 1);
  if (!reference) return refuse(unhAt, 'UNH has no message reference');
  if (!type) return refuse(unhAt, 'UNH has no message type');
  const unt = segments[end];
  if (unt?.tag !== 'UNT') {
    const where = unt ? `${unt.tag} at segment ${unt.position}` : 'the end of the input';
    return refuse(unhAt, `message ${reference} has no UNT before ${where}`);
  }
  const untAt: SegmentAt = { ...segmentAt(unt), messageSegment: end - start + 1, messageIndex: index };
  const count = end - start + 1;
  if (component(unt, 0) !== String(count))
    return refuse(untAt, `UNT counts ${component(unt, 0) || 'nothing'} segments but message ${reference} has ${count} (UNH to UNT)`);
  if (component(unt, 1) !== reference) return refuse(untAt, `UNT reference "${component(unt, 1)}" is not the UNH's "${reference}"`);
  const message: Message = {
    index,
    reference,
    type,
    version: component(unh, 1, 1),
    release: component(unh, 1, 2),
    agency: component(unh, 1, 3),
    segments: segments.slice(start, end + 1),
    at: unhAt,
  };
  if (component(unh, 1, 4)) message.association = component(unh, 1, 4);
  if (group !== undefined) message.group = group;
  return { message };
}
