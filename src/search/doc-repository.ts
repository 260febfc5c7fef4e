// The search docs' columns the evaluator (evaluate.ts) reads for the bibs its lists matched (what
// the title's boost and the orders other than relevance need; the phrases are tested here), and the docs' facet
// values each process keeps (facet-columns.ts).
import type { Queryable } from '../db/types.ts';
import type { ChangedDocsReader, DocFacets } from './facet-columns.ts';

/** A bib's search doc (search_docs), as far as the evaluator reads it. */
export interface Doc {
  bib: number;
  /** The folded title (" a b "), compared with the query's words. */
  title: string;
  year: number | null;
}

/** The phrases a doc must hold, and those it may not. */
export interface PhraseNeeds {
  /**
   * LIKE patterns every doc's words must match, and ones none may ('%' || phrase || '%'). Tested
   * where the words are: sending each candidate's whole text to be tested here cost more than the
   * rest of the search together (a phrase of common words has thousands of candidates).
   */
  phrases: string[];
  unwanted: string[];
}

export interface DocNeeds extends PhraseNeeds {
  /**
   * Answer the docs in the order of their sort titles, then bib ids, as the database orders them:
   * text order follows the database's collation, so the order is read from it, not made in Node.
   */
  titleOrder: boolean;
}

export interface DocReader {
  /** The docs of these bibs that pass needs' phrases (a bib without one is left out), in bib order or as needs.titleOrder says. */
  read(bibs: readonly number[], needs: DocNeeds): Promise<Doc[]>;
  /**
   * Of these bibs, those whose docs pass needs' phrases, in bib order: only their ids, where a
   * search ranked by relevance reads the titles of the few that can reach its page afterwards.
   */
  holding(bibs: readonly number[], needs: PhraseNeeds): Promise<number[]>;
}

/** search_docs' rows of these bibs that pass needs' phrases: the statement's from and where, and its parameters. */
function docsWhere(bibs: readonly number[], needs: PhraseNeeds): { where: string; params: unknown[] } {
  const params: unknown[] = [bibs];
  const phrases = needs.phrases.length ? `and words like all ($${params.push(needs.phrases)}::text[])` : '';
  const unwanted = needs.unwanted.length ? `and not words like any ($${params.push(needs.unwanted)}::text[])` : '';
  return { where: `from search_docs where bib_id = any($1::bigint[]) ${phrases} ${unwanted}`, params };
}

/** A DocReader over the database's search_docs. */
export function docReader(db: Queryable): DocReader {
  return {
    read: (bibs, needs) => {
      const { where, params } = docsWhere(bibs, needs);
      return db.query<Doc>(
        `select bib_id::int as bib, title, year ${where} order by ${needs.titleOrder ? 'sort_title, bib_id' : 'bib_id'}`,
        params,
      );
    },
    holding: async (bibs, needs) => {
      const { where, params } = docsWhere(bibs, needs);
      return (await db.query<{ bib: number }>(`select bib_id::int as bib ${where} order by bib_id`, params)).map((r) => r.bib);
    },
  };
}

/**
 * A ChangedDocsReader over search_docs. The docs table's identity is its generation: a rebuild
 * swaps in another table. (One row even when no doc changed, to carry it.)
 */
export function changedDocsReader(db: Queryable): ChangedDocsReader {
  return async (since) => {
    const rows = await db.query<Omit<DocFacets, 'bib'> & { generation: string; bib: number | null; version: string | null }>(
      `select g.id::text as generation, d.bib_id::int as bib, d.material_type as "materialType", d.lang, d.year, d.version::text
         from (select 'search_docs'::regclass::oid) as g(id) left join search_docs d on d.version > $1`,
      [since],
    );
    let version = since;
    for (const r of rows) if (r.version !== null) version = Math.max(version, Number(r.version));
    return { generation: rows[0]!.generation, docs: rows.filter((r) => r.bib !== null) as DocFacets[], version };
  };
}
