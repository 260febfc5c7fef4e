// Log lines of repeated refusals, sampled: a flood of failed logins from one address must not
// write a line per attempt without end. Per key (a client address) the first `perMinute` lines of
// each minute are written; the rest are held back and counted, and the count is told on the
// key's next written line, or as a summary once its minute is over.

export interface Sampled {
  /** Whether to write this line. */
  write: boolean;
  /** When writing: lines of this key held back since its last written one. */
  heldBack: number;
  /** When writing: this is the minute's last line for the key (later ones are held back). */
  lastThisMinute: boolean;
  /** Keys whose minute is over with lines held back and not yet told: write a summary line for each. */
  summaries: { key: string; heldBack: number }[];
}

interface Entry {
  minute: number;
  written: number;
  heldBack: number;
}

export class LogSampler {
  private readonly entries = new Map<string, Entry>();
  private sweptMinute = 0;

  constructor(
    private readonly perMinute: number,
    /** Keys remembered at most; past it, new keys share one entry (so a flood from many addresses is bounded too). */
    private readonly maxKeys = 10_000,
  ) {}

  take(rawKey: string, nowMs = Date.now()): Sampled {
    const minute = Math.floor(nowMs / 60_000);
    const summaries = minute > this.sweptMinute ? this.sweep(minute) : [];
    const key = this.entries.has(rawKey) || this.entries.size < this.maxKeys ? rawKey : '(other addresses)';
    let entry = this.entries.get(key);
    if (!entry) this.entries.set(key, (entry = { minute, written: 0, heldBack: 0 }));
    else if (entry.minute !== minute) Object.assign(entry, { minute, written: 0 });
    if (entry.written >= this.perMinute) {
      entry.heldBack++;
      return { write: false, heldBack: 0, lastThisMinute: false, summaries };
    }
    entry.written++;
    const heldBack = entry.heldBack;
    entry.heldBack = 0;
    return { write: true, heldBack, lastThisMinute: entry.written === this.perMinute, summaries };
  }

  /** Forgets keys of minutes gone by, answering those with lines held back. */
  private sweep(minute: number): { key: string; heldBack: number }[] {
    this.sweptMinute = minute;
    const out = [];
    for (const [key, entry] of this.entries) {
      if (entry.minute >= minute) continue;
      if (entry.heldBack > 0) out.push({ key, heldBack: entry.heldBack });
      this.entries.delete(key);
    }
    return out;
  }
}
