// How much of what processing found a file's report keeps: a bad file of many records would
// otherwise make a report larger than the file, read again by every listing.

/** Problems (refused records, messages) a report lists; their total is kept beside them. */
export const MAX_PROBLEMS = 100;
/** A report's size as JSON; one past it keeps only its outcome and says so. */
export const MAX_REPORT_BYTES = 64 * 1024;

/** The first MAX_PROBLEMS of a list, and how many there were. */
export function firstProblems<T>(problems: T[]): { shown: T[]; total: number } {
  return { shown: problems.slice(0, MAX_PROBLEMS), total: problems.length };
}

/** The report as kept: itself when small enough, else its reason (cut short) and its size. */
export function capReport(report: unknown): unknown {
  const text = JSON.stringify(report) ?? 'null';
  const bytes = Buffer.byteLength(text);
  if (bytes <= MAX_REPORT_BYTES) return report;
  const reason = (report as { reason?: unknown } | null)?.reason;
  return {
    ...(typeof reason === 'string' ? { reason: reason.slice(0, 1000) } : {}),
    truncated: `the report (${bytes} bytes) was longer than ${MAX_REPORT_BYTES} bytes: only this is kept`,
  };
}
