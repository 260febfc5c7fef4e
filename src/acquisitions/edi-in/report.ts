// What processing a vendor's EDIFACT file says of each message, for the file's report: loaded (with
// what it wrote) or refused, naming the segment to look at and, when a reference is at fault, it.
import type { EdifactProblem, SegmentAt } from '../../edifact/index.ts';

export interface MessageRefused {
  message: string;
  /** 0-based place among the interchange's messages. */
  index: number;
  status: 'refused';
  segment?: number;
  tag?: string;
  line?: number;
  reference?: string;
  reason: string;
}

export type MessageOutcome<Loaded> = MessageRefused | ({ message: string; index: number; status: 'loaded' } & Loaded);

/** A message refused as a whole, at a segment. */
export class MessageRefusal extends Error {
  constructor(
    readonly at: Partial<SegmentAt> | undefined,
    reason: string,
    readonly reference?: string,
  ) {
    super(reason);
  }
}

export function refused(
  message: string,
  index: number,
  at: Partial<SegmentAt> | undefined,
  reason: string,
  reference?: string,
): MessageRefused {
  return {
    message,
    index,
    status: 'refused',
    ...(at?.segment === undefined ? {} : { segment: at.segment }),
    ...(at?.tag === undefined ? {} : { tag: at.tag }),
    ...(at?.line === undefined ? {} : { line: at.line }),
    ...(reference === undefined ? {} : { reference }),
    reason,
  };
}

/** A message the reader could not read (its problems name the segment). */
export function unreadable(problem: EdifactProblem, references: readonly string[]): MessageRefused {
  const index = problem.messageIndex ?? -1;
  return refused(references[index] ?? '', index, problem, problem.text);
}

/** The file's outcome: loaded when every message loaded, refused when any was refused (or none was there). */
export function fileOutcome<T>(outcomes: readonly MessageOutcome<T>[]): { status: 'loaded' | 'refused'; report: Record<string, unknown> } {
  const refusedCount = outcomes.filter((o) => o.status === 'refused').length;
  const sorted = [...outcomes].sort((a, b) => a.index - b.index);
  const report = { loaded: outcomes.length - refusedCount, refused: refusedCount, messages: sorted };
  if (outcomes.length === 0) return { status: 'refused', report: { ...report, reason: 'the interchange holds no message' } };
  return { status: refusedCount === 0 ? 'loaded' : 'refused', report };
}
