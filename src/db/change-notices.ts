// A process's copy of something the database holds (tokens, the branches), kept only while the
// process hears the notifications announcing changes to it: LISTEN on a channel that the changes
// notify at their commit. Notifications sent while the listening connection is down are lost, so
// the copy is also dropped each time that connection is made anew.
import type { Db } from './types.ts';

export class ChangeNotices {
  private heard = false;
  private subscribing: Promise<void> | undefined;
  /** Counts changes heard, so that a read that raced one does not keep what it read (see fresh). */
  private count = 0;

  /** forget: drops the copy (at each change heard, and when listening starts anew). */
  constructor(
    private readonly db: Pick<Db, 'listen'>,
    private readonly channel: string,
    private readonly forget: () => void,
  ) {}

  /** Whether a copy may be used now; starts listening first if it has not (once; again on a later call if that failed). */
  listening(): boolean {
    this.subscribe();
    return this.heard;
  }

  /** A mark taken before reading what is copied: fresh(mark) tells whether a change was heard since. */
  mark(): number {
    return this.count;
  }

  fresh(mark: number): boolean {
    return this.heard && mark === this.count;
  }

  /** A change this process made itself: dropped at once, without waiting for its notification. */
  changed(): void {
    this.count++;
    this.forget();
  }

  private subscribe(): void {
    if (this.subscribing || !this.db.listen) return;
    this.subscribing = this.db
      .listen(
        this.channel,
        () => this.changed(),
        () => {
          this.changed(); // (re)connected: what was announced meanwhile is lost
          this.heard = true;
        },
      )
      .catch(() => {
        this.subscribing = undefined;
      });
  }
}
