// Waiting for something another process or a background task does: asked again every 50 ms, a
// bounded number of times (no time is asserted: a slow machine only takes more rounds).

/** Asks `check` every 50 ms, at most `rounds` times, until it answers true; whether it did. */
export async function eventually(check: () => Promise<boolean>, rounds = 400): Promise<boolean> {
  for (let i = 0; i < rounds; i++) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}
