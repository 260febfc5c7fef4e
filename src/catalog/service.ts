// What the catalogue pages show, gathered from the services the API uses: a results page is the
// SearchService.search call GET /bibs/search makes (with the page's offset and limit), the facet
// counts, and the bibs and copies of its hits; a record page is a bib, its MARC and its copies.
import { languageName } from '../bibs/codes.ts';
import type { BibService } from '../bibs/service.ts';
import type { SearchRequest, SearchService, Suggestion } from '../search/service.ts';
import { fromMarcInJson } from '../marc/marc-in-json.ts';
import { describe, displayTitle, type Description } from './describe.ts';
import { copiesOf, summarize, type Copy, type HoldingsSummary } from './holdings.ts';
import { FACET_NAMES, PAGE_SIZE, type CatalogQuery, type FacetName } from './query.ts';

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

/** One value of a facet: its code (as the filter takes it), its name, and how many matches have it. */
export interface FacetEntry {
  value: string | number;
  label: string;
  count: number;
}

export interface Results {
  total: number;
  hits: Hit[];
  facets: Record<FacetName, FacetEntry[]>;
  /** "Did you mean": the API's suggestions, for a search that found nothing. */
  suggestions: Suggestion[];
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

/**
 * The search a results page makes: exactly GET /bibs/search?text&index&sort&materialType&language&decade
 * &limit=20&offset=(page-1)*20, whose facets=true counts beside the ranking without changing it.
 */
export function searchRequest(q: CatalogQuery): SearchRequest {
  const filters = Object.fromEntries(FACET_NAMES.filter((f) => q.filters[f].length).map((f) => [f, q.filters[f]]));
  return { text: q.text, index: q.index, sort: q.sort, filters, limit: PAGE_SIZE, offset: (q.page - 1) * PAGE_SIZE };
}

export class CatalogService {
  constructor(
    private readonly search: SearchService,
    private readonly bibs: BibService,
  ) {}

  async results(q: CatalogQuery): Promise<Results> {
    if (!q.text) return { total: 0, hits: [], facets: { materialType: [], language: [], decade: [] }, suggestions: [] };
    const request = searchRequest(q);
    // Facets are counted beside the ranking and change nothing in it: the hits are the API's.
    const [result, materialTypes] = await Promise.all([this.search.search({ ...request, facets: true }), this.materialTypeNames()]);
    const ids = result.hits.map((h) => h.id);
    const [rows, items] = await Promise.all([this.bibs.byIds(ids, {}), this.bibs.itemsOf(ids)]);
    const facets = result.facets ?? { materialType: [], language: [], decade: [] };
    const hits = ids.flatMap((id): Hit[] => {
      const row = rows.get(id);
      if (!row) return [];
      return [
        {
          id,
          title: row.title ? displayTitle(row.title) : 'Untitled',
          author: row.author ?? undefined,
          year: row.publish_year ?? undefined,
          materialType: row.material_type ? { code: row.material_type, name: row.material_type_desc ?? row.material_type } : undefined,
          language: row.lang ? { code: row.lang, name: languageName(row.lang) } : undefined,
          holdings: summarize(copiesOf(items.get(id) ?? [])),
        },
      ];
    });
    return {
      total: result.total,
      hits,
      facets: {
        materialType: facets.materialType.map((f) => ({ ...f, label: materialTypes.get(f.value) ?? f.value })),
        language: facets.language.map((f) => ({ ...f, label: languageName(f.value) })),
        // Decades read best in time order, newest first.
        decade: facets.decade.map((f) => ({ ...f, label: `${f.value}s` })).sort((a, b) => b.value - a.value),
      },
      suggestions: result.suggestions ?? [],
    };
  }

  private async materialTypeNames(): Promise<Map<string, string>> {
    const [field] = await this.bibs.metadata(['materialType'], 'en');
    return new Map((field?.values ?? []).map((v) => [v.code, v.desc]));
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
