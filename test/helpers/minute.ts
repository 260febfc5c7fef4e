// Waiting for room in the clock's minute, for tests of limits counted per clock minute (public
// saved-query runs, src/saved-queries/run-limits.ts): a test whose requests straddled a minute's
// end would find its counts started afresh.

/** Resolves at once when this minute has at least `ms` left, else when the next minute begins. */
export async function withRoomInMinute(ms: number): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < ms) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
