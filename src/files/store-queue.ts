// Uploads through the file doors (SFTP, FTP) are stored one at a time in a process: storing reads
// a whole file into memory and sends it as one parameter, so two at once would hold twice that.
// Uploads ending beyond MAX_WAITING are refused at once rather than held, so that memory and
// waiting clients stay bounded.

/** Closes that may wait for the one being stored. */
const MAX_WAITING = 4;

export class StoreQueue {
  private tail: Promise<unknown> = Promise.resolve();
  /** The store running and those waiting. */
  private pending = 0;

  /** Runs `work` after those before it; undefined, without running it, when too many already wait. */
  run<T>(work: () => Promise<T>): Promise<T> | undefined {
    if (this.pending >= 1 + MAX_WAITING) return undefined;
    this.pending++;
    const done = this.tail.then(work).finally(() => this.pending--);
    this.tail = done.catch(() => undefined);
    return done;
  }
}
