// What the EDIFACT reader says when it refuses something: a plain value, never a thrown error, so
// that one bad message in a vendor's file does not cost the others, and so that a report to library
// staff can name the segment to look at.

/** Where a segment sits: the numbers a person counts to find it in the file. */
export interface SegmentAt {
  /** 1-based among the interchange's segments (UNB is 1; the UNA service string advice is not a segment). */
  segment: number;
  /** 1-based within its message (UNH is 1), when the segment is inside one. */
  messageSegment?: number;
  /** 0-based index of its message among the interchange's messages (refused ones included). */
  messageIndex?: number;
  tag: string;
  /** 1-based line of the file where the segment starts (files broken into lines after each segment). */
  line: number;
}

export type ProblemKind =
  /** The input is larger, or has more segments, than the caller allows. */
  | 'limit'
  /** The characters do not make segments: service string advice, release character, terminator. */
  | 'syntax'
  /** UNB/UNZ or UNG/UNE: the whole interchange is in doubt. */
  | 'envelope'
  /** UNH/UNT: this message is refused, the others stand. */
  | 'message'
  /** A message's segments do not read as the message type says (a missing BGM, an amount that is not a number). */
  | 'content'
  /** An invoice's totals do not agree with its lines. */
  | 'balance';

export interface EdifactProblem extends Partial<SegmentAt> {
  kind: ProblemKind;
  /** Plain English, naming the segment and what is wrong with it. */
  text: string;
}

/** A problem about a segment, carrying its position. */
export function problemAt(kind: ProblemKind, at: SegmentAt, text: string): EdifactProblem {
  return { kind, ...at, text };
}

/** "segment 12 (MOA, line 3 of message 2)": how every problem text names a segment. */
export function describeAt(at: SegmentAt): string {
  const inMessage = at.messageSegment === undefined ? '' : `, segment ${at.messageSegment} of message ${(at.messageIndex ?? 0) + 1}`;
  return `segment ${at.segment} (${at.tag}${inMessage}, line ${at.line})`;
}
