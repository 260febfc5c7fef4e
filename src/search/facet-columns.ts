// The facet values of every searchable bib (material type, language, decade), kept in this
// process's memory as columns indexed by bib id, so that a search's facets are counted over its
// matches in one pass in Node, rather than joining a common word's hundreds of thousands of
// matches to their docs in the database on every search; the columns cost 12 to 15 bytes a bib.
//
// The columns are kept current from the docs' versions (search_docs.version, migration 0077): each
// refresh reads the docs written since the highest version read. A rebuild swaps in new tables
// (their docs all version 0): their generation (the table's identity) changes, and the columns are
// read again whole.
//
// The same columns test a search's filters (by material type, language, decade), so a filtered
// search of a common word reads no doc to filter its matches.
import type { SearchFilters } from './types.ts';

export interface FacetValue<T> {
  value: T;
  count: number;
}

export interface SearchFacets {
  materialType: FacetValue<string>[];
  language: FacetValue<string>[];
  decade: FacetValue<number>[];
}

/** A doc's facet values, as the docs changed since a version are read. */
export interface DocFacets {
  bib: number;
  materialType: string | null;
  lang: string | null;
  year: number | null;
}

/** The docs written since a version: their facet values, the highest version among them, and the docs table's generation. */
export interface ChangedDocs {
  generation: string;
  docs: DocFacets[];
  /** The highest version read, or the one asked for when none was newer. */
  version: number;
}

/** Reads the docs whose version is above `since`, in the docs table as it now is. */
export type ChangedDocsReader = (since: number) => Promise<ChangedDocs>;

/** PostgreSQL's integer division truncates toward zero: a year's decade as `(year / 10) * 10`. */
export const decadeOf = (year: number) => Math.trunc(year / 10) * 10;

/** UTF-8 byte order, which is code point order: the order of text in the C collation, as the database sorts values. */
const byCodePoint = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** The values one column holds, each numbered from 1 (0: none). */
class Values {
  readonly names: string[] = [''];
  private readonly ids = new Map<string, number>();

  /** The value's number, if the column holds it. */
  known(value: string): number | undefined {
    return this.ids.get(value);
  }

  idOf(value: string | null): number {
    if (value === null) return 0;
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.names.length;
      this.ids.set(value, id);
      this.names.push(value);
    }
    return id;
  }
}

const FACETS = ['materialType', 'language', 'decade'] as const;
type Facet = (typeof FACETS)[number];

export class FacetColumns {
  private values = { materialType: new Values(), language: new Values(), decade: new Values() };
  private columns = { materialType: new Uint32Array(0), language: new Uint32Array(0), decade: new Uint32Array(0) };
  /** The bib id of each column's first entry. */
  private base = 0;
  private generation: string | undefined;
  private version = -1;
  private running: Promise<void> | undefined;
  private following: Promise<void> | undefined;

  /**
   * Brings the columns up to every doc committed before this call. A refresh already running may
   * have read before this caller's writes were committed, so a caller arriving meanwhile waits for
   * the next refresh, which every such caller shares; refreshes never overlap, so an older read
   * never overwrites a newer one.
   */
  refresh(read: ChangedDocsReader): Promise<void> {
    if (!this.running) {
      this.running = this.readChanges(read).finally(() => (this.running = undefined));
      return this.running;
    }
    this.following ??= this.running
      .catch(() => {})
      .then(() => {
        this.following = undefined;
        return this.refresh(read);
      });
    return this.following;
  }

  private async readChanges(read: ChangedDocsReader): Promise<void> {
    let changed = await read(this.version);
    if (changed.generation !== this.generation) {
      // A rebuild's tables: read whole, into empty columns (bibs no longer searchable drop out).
      if (this.generation !== undefined || this.version !== -1) changed = await read(-1);
      this.clear();
      this.generation = changed.generation;
    }
    // Sized for the read's lowest and highest bibs first: a whole read grows the columns once.
    let low = Infinity;
    let high = -Infinity;
    for (const doc of changed.docs) {
      if (doc.bib < low) low = doc.bib;
      if (doc.bib > high) high = doc.bib;
    }
    if (changed.docs.length) {
      this.placeOf(high);
      this.placeOf(low);
    }
    for (const doc of changed.docs) this.set(doc);
    this.version = Math.max(this.version, changed.version);
  }

  private clear(): void {
    this.values = { materialType: new Values(), language: new Values(), decade: new Values() };
    this.columns = { materialType: new Uint32Array(0), language: new Uint32Array(0), decade: new Uint32Array(0) };
    this.base = 0;
    this.version = -1;
  }

  private set(doc: DocFacets): void {
    const at = this.placeOf(doc.bib);
    this.columns.materialType[at] = this.values.materialType.idOf(doc.materialType);
    this.columns.language[at] = this.values.language.idOf(doc.lang);
    this.columns.decade[at] = this.values.decade.idOf(doc.year === null ? null : String(decadeOf(doc.year)));
  }

  /** The bib's place in the columns, grown (at either end) to hold it. */
  private placeOf(bib: number): number {
    const length = this.columns.decade.length;
    if (length === 0) this.base = bib;
    if (bib >= this.base && bib < this.base + length) return bib - this.base;
    // Grown by a quarter more than is needed, so a stream of new bibs copies the columns now and
    // then, not once each, and the columns stay near 12 bytes a bib.
    const first = Math.min(this.base, bib);
    const end = Math.max(this.base + length, bib + 1);
    const size = Math.max(16, Math.ceil(1.25 * (end - first)));
    const start = bib < this.base ? end - size : first;
    for (const facet of FACETS) {
      const grown = new Uint32Array(size);
      grown.set(this.columns[facet], this.base - start);
      this.columns[facet] = grown;
    }
    this.base = start;
    return bib - start;
  }

  /**
   * A test of a bib against these filters (a bib passes with a value of every facet filtered);
   * undefined when nothing is filtered. Read after a refresh: a bib the columns do not hold passes
   * no filter.
   */
  filterOf(filters: SearchFilters): ((bib: number) => boolean) | undefined {
    const wanted = (facet: Facet, values: readonly string[] | undefined) => {
      if (!values?.length) return undefined;
      const ids = new Set(values.map((v) => this.values[facet].known(v)).filter((id) => id !== undefined));
      return { column: this.columns[facet], ids };
    };
    const tests = [
      wanted('materialType', filters.materialType),
      wanted('language', filters.language),
      wanted('decade', filters.decade?.map(String)),
    ].filter((t) => t !== undefined);
    if (tests.length === 0) return undefined;
    const base = this.base;
    return (bib) => {
      const at = bib - base;
      return tests.every(({ column, ids }) => at >= 0 && at < column.length && ids.has(column[at]!));
    };
  }

  /**
   * How many of these bibs have each material type, language and decade: the `perFacet` most
   * common of each, most common first, ties by value in code point order (the ranking statement's
   * order, kept so the counts are the same wherever they are made).
   */
  count(bibs: readonly number[], perFacet: number): SearchFacets {
    const counted = (facet: Facet) => {
      const column = this.columns[facet];
      const counts = new Uint32Array(this.values[facet].names.length);
      for (const bib of bibs) {
        const at = bib - this.base;
        if (at >= 0 && at < column.length) counts[column[at]!]!++;
      }
      const names = this.values[facet].names;
      const found: FacetValue<string>[] = [];
      for (let id = 1; id < counts.length; id++) if (counts[id]) found.push({ value: names[id]!, count: counts[id]! });
      return found.sort((a, b) => b.count - a.count || byCodePoint(a.value, b.value)).slice(0, perFacet);
    };
    return {
      materialType: counted('materialType'),
      language: counted('language'),
      decade: counted('decade').map(({ value, count }) => ({ value: Number(value), count })),
    };
  }
}
