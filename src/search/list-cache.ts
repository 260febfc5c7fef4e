// Keys' compressed posting lists kept in this process's memory, so a search reads a common key's
// list from the database once, not every time. An entry is a list at one version of its key
// (search_terms.version, drawn anew from one sequence whenever the key's bibs change, and rising
// across rebuilds that number the keys anew): a reader asks for the version it read, and an entry of
// any other version is never answered. The whole is bounded in bytes; the lists read least
// recently leave first.
import type { PostingList } from './posting-list.ts';

/** A list as kept: its bytes in memory count against the bound. */
export type KeptList = PostingList & { readonly bytes: number };

interface Entry {
  version: number;
  list: KeptList;
  bytes: number;
}

export class ListCache {
  // A Map keeps its insertion order: an entry read is put back at the end, so the first is the
  // least recently read.
  private readonly entries = new Map<number, Entry>();
  private held = 0;

  constructor(readonly maxBytes: number) {}

  /** The key's list at this version, if kept. */
  get(termId: number, version: number): KeptList | undefined {
    const entry = this.entries.get(termId);
    if (!entry) return undefined;
    if (entry.version !== version) {
      // Of another version: a newer one is what readers will ask for, an older one no reader will.
      if (entry.version < version) this.remove(termId, entry);
      return undefined;
    }
    this.entries.delete(termId);
    this.entries.set(termId, entry);
    return entry.list;
  }

  /** Keeps the key's list at this version in place of any other, unless it alone passes the bound. */
  set(termId: number, version: number, list: KeptList): void {
    const old = this.entries.get(termId);
    if (old) {
      // A reader that read an older version may come after one that read a newer: keep the newer.
      if (old.version > version) return;
      this.remove(termId, old);
    }
    const bytes = list.bytes;
    if (bytes > this.maxBytes) return;
    for (const [id, entry] of this.entries) {
      if (this.held + bytes <= this.maxBytes) break;
      this.remove(id, entry);
    }
    this.entries.set(termId, { version, list, bytes });
    this.held += bytes;
  }

  /** Forgets every list. */
  clear(): void {
    this.entries.clear();
    this.held = 0;
  }

  /** The bytes kept, and the lists. */
  get size(): { bytes: number; lists: number } {
    return { bytes: this.held, lists: this.entries.size };
  }

  private remove(termId: number, entry: Entry): void {
    this.entries.delete(termId);
    this.held -= entry.bytes;
  }
}
