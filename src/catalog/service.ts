// What the catalogue pages show, gathered from the services the API uses: a results page is one
// SearchService.search call (the one GET /bibs/search makes, with the page's offset and limit) and
// the bibs and copies of its hits; a record page is a bib, its MARC and its copies.
import { languageName } from '../bibs/present.ts';
import type { BibService } from '../bibs/service.ts';
import type { SearchService } from '../search/service.ts';
import { fromMarcInJson } from '../marc/marc-in-json.ts';
import { describe, type Description } from './describe.ts';
import { copiesOf, summarize, type Copy, type HoldingsSummary } from './holdings.ts';
import { PAGE_SIZE, type CatalogQuery } from './query.ts';

export interface Coded {
  code: string;
  name: string;
}

export interface Hit {
  id: string;
  title: string;
  author?: string;
  year?: number;
  materialType?: Coded;
  language?: Coded;
  holdings: HoldingsSummary;
}

export interface Results {
  total: number;
  hits: Hit[];
}

export interface RecordView {
  id: string;
  description: Description;
  year?: number;
  materialType?: Coded;
  language?: Coded;
  copies: Copy[];
  holdings: HoldingsSummary;
}

/** The search a results page makes: exported so tests can show the API is asked the same. */
export function searchRequest(q: CatalogQuery) {
  return { text: q.text, index: q.index, sort: q.sort, limit: PAGE_SIZE, offset: (q.page - 1) * PAGE_SIZE };
}

export class CatalogService {
  constructor(
    private readonly search: SearchService,
    private readonly bibs: BibService,
  ) {}

  async results(q: CatalogQuery): Promise<Results> {
    if (!q.text) return { total: 0, hits: [] };
    const result = await this.search.search(searchRequest(q));
    const ids = result.hits.map((h) => h.id);
    const [rows, items] = await Promise.all([this.bibs.byIds(ids, {}), this.bibs.itemsOf(ids)]);
    const hits = ids.flatMap((id): Hit[] => {
      const row = rows.get(id);
      if (!row) return [];
      return [{
        id,
        title: row.title ?? 'Untitled',
        author: row.author ?? undefined,
        year: row.publish_year ?? undefined,
        materialType: row.material_type ? { code: row.material_type, name: row.material_type_desc ?? row.material_type } : undefined,
        language: row.lang ? { code: row.lang, name: languageName(row.lang) } : undefined,
        holdings: summarize(copiesOf(items.get(id) ?? [])),
      }];
    });
    return { total: result.total, hits };
  }

  /** A record the public may see: undefined for one that does not exist, is deleted or is suppressed. */
  async record(id: string): Promise<RecordView | undefined> {
    const row = (await this.bibs.byIds([id], { marc: true })).get(id);
    if (!row || row.deleted_date || row.suppressed || !row.marc) return undefined;
    const copies = copiesOf((await this.bibs.itemsOf([id])).get(id) ?? []);
    return {
      id,
      description: describe(fromMarcInJson(row.marc), row.title),
      year: row.publish_year ?? undefined,
      materialType: row.material_type ? { code: row.material_type, name: row.material_type_desc ?? row.material_type } : undefined,
      language: row.lang ? { code: row.lang, name: languageName(row.lang) } : undefined,
      copies,
      holdings: summarize(copies),
    };
  }
}
