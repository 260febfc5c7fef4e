// Every key's postings made afresh from the searchable bibs' documents (the indexer's own
// document, src/search/document.ts), apart from the index: what the tests hold the index's
// compressed lists (search_segments) to, as no table keeps a row per posting.
import type { Queryable } from '../../src/db/types.ts';
import { documentOf } from '../../src/search/indexer.ts';
import { readSearchablePage } from '../../src/search/rebuild-repository.ts';

/** A key's postings in bib order; each weight as its float4 bits (what the index keeps). */
export interface Rows {
  bibs: number[];
  bits: number[];
}

/**
 * The postings of each key (by its id in search_terms) of every searchable bib's document, or of
 * the keys given. A key of a document that search_terms lacks fails: the index lost it.
 */
export async function documentPostings(db: Queryable, termIds?: readonly number[]): Promise<Map<number, Rows>> {
  const ids = new Map((await db.query<{ id: number; key: string }>('select id, key from search_terms')).map((r) => [r.key, r.id]));
  const only = termIds && new Set(termIds);
  const byTerm = new Map<number, Rows>();
  const weight = new Float32Array(1);
  const bits = new Uint32Array(weight.buffer);
  for (let after = '0'; ;) {
    const page = await readSearchablePage(db, after, 1000);
    if (page.length === 0) return byTerm;
    after = page[page.length - 1]!.id;
    for (const bib of page) {
      if (!bib.marc) continue;
      const doc = documentOf(bib);
      for (const [key, w] of doc.keys) {
        const id = ids.get(key);
        if (id === undefined) throw new Error(`bib ${bib.id}'s key ${key} is not in search_terms`);
        if (only && !only.has(id)) continue;
        let list = byTerm.get(id);
        if (!list) byTerm.set(id, (list = { bibs: [], bits: [] }));
        list.bibs.push(Number(bib.id));
        // Rounded as the indexer rounds it (index-repository.ts, indexRows), then held as a float4.
        weight[0] = Math.round(w * 100) / 100;
        list.bits.push(bits[0]!);
      }
    }
  }
}
