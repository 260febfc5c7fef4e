// The results page: heading and count, sort, the hits (title, author, year, material type,
// availability), and page links. Every control is a link or a form, so it all works without script.
import { languageName } from '../bibs/codes.ts';
import { html, type Html } from './html.ts';
import { icon, materialFamily } from './icons.ts';
import { INDEX_LABELS } from './layout.ts';
import {
  FACET_NAMES,
  MAX_PAGE,
  NO_FILTERS,
  PAGE_SIZE,
  recordUrl,
  resultsUrl,
  withFilter,
  type CatalogQuery,
  type FacetName,
} from './query.ts';
import type { HoldingsSummary } from './holdings.ts';
import type { Suggestion } from '../search/service.ts';
import type { FacetEntry, Hit, Results } from './service.ts';

const SORT_LABELS: Record<CatalogQuery['sort'], string> = { relevance: 'Relevance', title: 'Title (A–Z)', year: 'Year (newest first)' };
const number = new Intl.NumberFormat('en-GB');

export function availability(h: HoldingsSummary): Html {
  return html`<p class="avail s-${h.state}"><strong>${h.label}</strong>${h.detail ? html`<span class="detail">${h.detail}</span>` : ''}</p>`;
}

function hit(h: Hit, q: CatalogQuery): Html {
  const family = materialFamily(h.materialType?.code);
  return html`<li class="hit" data-bib-id="${h.id}">
  <div class="cover ${family}">${icon(family)}</div>
  <div class="hit-body">
    <h2><a href="${recordUrl(h.id, q)}">${h.title}</a></h2>
    ${h.author ? html`<p class="byline">${h.author}</p>` : ''}
    <ul class="meta">
      ${h.materialType ? html`<li><span class="badge">${h.materialType.name}</span></li>` : ''}
      ${h.year ? html`<li>${h.year}</li>` : ''}
      ${h.language ? html`<li>${h.language.name}</li>` : ''}
    </ul>
    ${availability(h.holdings)}
  </div>
</li>`;
}

/** Which page numbers to offer: the first, the last and those around the current one; null marks a gap. */
export function pageNumbers(current: number, last: number): (number | null)[] {
  const wanted = [...new Set([1, last, current - 2, current - 1, current, current + 1, current + 2])]
    .filter((n) => n >= 1 && n <= last)
    .sort((a, b) => a - b);
  const out: (number | null)[] = [];
  for (const n of wanted) {
    if (out.length && n - (out[out.length - 1] as number) > 1) out.push(null);
    out.push(n);
  }
  return out;
}

function pager(q: CatalogQuery, total: number): Html {
  const last = Math.min(MAX_PAGE, Math.ceil(total / PAGE_SIZE));
  if (last <= 1) return html``;
  const link = (page: number) => resultsUrl({ ...q, page });
  return html`<nav class="pager" aria-label="Pages of results"><ul>
  ${q.page > 1 ? html`<li><a href="${link(q.page - 1)}" rel="prev"><span aria-hidden="true">‹</span> <span class="word">Previous<span class="visually-hidden"> page</span></span></a></li>` : ''}
  ${pageNumbers(q.page, last).map((n) =>
    n === null
      ? html`<li><span class="gap" aria-hidden="true">…</span></li>`
      : html`<li><a class="num${Math.abs(n - q.page) <= 1 || n === 1 || n === last ? ' near' : ''}" href="${link(n)}"${n === q.page ? html` aria-current="page"` : ''}><span class="visually-hidden">Page </span>${n}</a></li>`,
  )}
  ${q.page < last ? html`<li><a href="${link(q.page + 1)}" rel="next"><span class="word">Next<span class="visually-hidden"> page</span></span> <span aria-hidden="true">›</span></a></li>` : ''}
</ul></nav>`;
}

const FACET_LABELS: Record<FacetName, string> = { materialType: 'Format', language: 'Language', decade: 'Published' };

function filterCount(q: CatalogQuery): number {
  return FACET_NAMES.reduce((n, f) => n + q.filters[f].length, 0);
}

function facetGroup(q: CatalogQuery, facet: FacetName, entries: FacetEntry[]): Html {
  if (entries.length === 0) return html``;
  const selected = (value: string | number) => (q.filters[facet] as (string | number)[]).includes(value);
  return html`<div class="facet">
  <h3 id="facet-${facet}">${FACET_LABELS[facet]}</h3>
  <ul aria-labelledby="facet-${facet}">${entries.map((e) =>
    selected(e.value)
      ? html`<li><a href="${resultsUrl(withFilter(q, facet, e.value, false))}" aria-current="true" data-facet="${facet}" data-value="${e.value}" data-count="${e.count}"><span>${e.label}<span class="visually-hidden"> (selected: remove this filter)</span></span><span class="n">${number.format(e.count)}</span></a></li>`
      : html`<li><a href="${resultsUrl(withFilter(q, facet, e.value, true))}" data-facet="${facet}" data-value="${e.value}" data-count="${e.count}"><span>${e.label}</span><span class="n">${number.format(e.count)}<span class="visually-hidden"> results</span></span></a></li>`,
  )}</ul>
</div>`;
}

function refine(q: CatalogQuery, results: Results): Html {
  if (!FACET_NAMES.some((f) => results.facets[f].length)) return html``;
  const n = filterCount(q);
  return html`<aside class="refine-wrap" aria-labelledby="refine-heading">
<details class="refine">
  <summary>Refine results${n ? html` <span class="detail">(${n} in use)</span>` : ''}</summary>
  <div class="facets">
    <h2 id="refine-heading" class="refine-title">Refine results</h2>
    ${FACET_NAMES.map((f) => facetGroup(q, f, results.facets[f]))}
  </div>
</details>
</aside>`;
}

function chips(q: CatalogQuery, results: Results): Html {
  if (filterCount(q) === 0) return html``;
  const label = (facet: FacetName, value: string | number) =>
    // A filter whose value no match has any more is not among the facets: name it from its code.
    results.facets[facet].find((e) => e.value === value)?.label ??
    (facet === 'decade' ? `${value}s` : facet === 'language' ? languageName(String(value)) : String(value));
  return html`<ul class="chips" aria-label="Filters in use">
  ${FACET_NAMES.flatMap((facet) => (q.filters[facet] as (string | number)[]).map((value) => html`<li><a href="${resultsUrl(withFilter(q, facet, value, false))}">${FACET_LABELS[facet]}: ${label(facet, value)}<span class="visually-hidden"> (remove this filter)</span> <span class="x" aria-hidden="true">×</span></a></li>`))}
  ${filterCount(q) > 1 ? html`<li><a class="clear" href="${resultsUrl({ ...q, page: 1, filters: NO_FILTERS })}">Clear all filters</a></li>` : ''}
</ul>`;
}

/** The parts of the query a form must carry along (as hidden fields) besides what it changes. */
function hiddenFields(q: CatalogQuery): Html {
  return html`<input type="hidden" name="text" value="${q.text}">
  ${q.index ? html`<input type="hidden" name="index" value="${q.index}">` : ''}
  ${FACET_NAMES.map((f) => (q.filters[f].length ? html`<input type="hidden" name="${f}" value="${q.filters[f].join(',')}">` : ''))}`;
}

function sortForm(q: CatalogQuery): Html {
  return html`<form class="sort" action="/catalog" method="get">
  ${hiddenFields(q)}
  <label for="sort">Sort by</label>
  <select id="sort" name="sort">${Object.entries(SORT_LABELS).map(([value, label]) => html`<option value="${value}"${value === q.sort ? html` selected` : ''}>${label}</option>`)}</select>
  <button class="button secondary" type="submit">Sort</button>
</form>`;
}

function heading(q: CatalogQuery): Html {
  const index = INDEX_LABELS.find(([value]) => value === (q.index ?? ''))![1];
  return q.index ? html`${index} search: “${q.text}”` : html`Results for “${q.text}”`;
}

/**
 * "Did you mean …?": each suggestion (the API's) a link to its search, with the same field, sort
 * and filters, on its first page, and how many it finds.
 */
function didYouMean(q: CatalogQuery, suggestions: Suggestion[]): Html {
  if (suggestions.length === 0) return html``;
  const links = suggestions.map(
    (s, i) =>
      html`${i === 0 ? '' : i === suggestions.length - 1 ? ' or ' : ', '}<a href="${resultsUrl({ ...q, text: s.text, page: 1 })}" data-suggestion-total="${s.total}">${s.text}</a> (${number.format(s.total)} ${s.total === 1 ? 'result' : 'results'})`,
  );
  return html`<p class="did-you-mean">Did you mean ${links}?</p>`;
}

function noResults(q: CatalogQuery): Html {
  return html`<div class="empty">
  <h2>Nothing found${q.page > 1 ? ' on this page' : ''}</h2>
  ${q.page === 1 && filterCount(q) ? html`<p>Your filters leave nothing. <a href="${resultsUrl({ ...q, filters: NO_FILTERS })}">Search again without filters</a>.</p>` : ''}
  <p>${q.page > 1 ? html`There are fewer results than that. <a href="${resultsUrl({ ...q, page: 1 })}">Go to the first page</a>.` : 'Some ideas:'}</p>
  ${
    q.page > 1
      ? ''
      : html`<ul class="tips">
    <li>Check the spelling, or try fewer or more general words.</li>
    ${q.index ? html`<li><a href="${resultsUrl({ ...q, index: undefined, page: 1 })}">Search every field</a> instead of ${INDEX_LABELS.find(([v]) => v === q.index)![1].toLowerCase()} only.</li>` : ''}
    <li>Use quotes for an exact phrase: <code>"pride and prejudice"</code>; a minus to leave a word out: <code>war -peace</code>.</li>
  </ul>`
  }
</div>`;
}

export function resultsMain(q: CatalogQuery, results: Results): Html {
  const first = (q.page - 1) * PAGE_SIZE + 1;
  const lastShown = first + results.hits.length - 1;
  const count = results.hits.length
    ? html`Showing ${number.format(first)}–${number.format(lastShown)} of ${number.format(results.total)} ${results.total === 1 ? 'result' : 'results'}`
    : html`${number.format(results.total)} ${results.total === 1 ? 'result' : 'results'}`;
  // The heading and count come first (a screen reader meets the h1 before the facets), across the
  // full width; the facets and the list sit side by side below on wide screens.
  return html`<div class="wrap layout">
<div class="results-head">
  <div><h1 id="results-heading">${heading(q)}</h1><p class="count" role="status" data-total="${results.total}">${count}</p></div>
  ${results.total > 1 ? sortForm(q) : ''}
</div>
${refine(q, results)}
<section class="results" aria-labelledby="results-heading">
  ${chips(q, results)}
  ${didYouMean(q, results.suggestions)}
  ${
    results.hits.length
      ? html`<ol class="hits" start="${first}">${results.hits.map((h) => hit(h, q))}</ol>${pager(q, results.total)}`
      : noResults(q)
  }
</section>
</div>`;
}

export function startMain(): Html {
  return html`<div class="wrap layout">
<section class="empty" aria-labelledby="tips-heading">
  <h2 id="tips-heading">Searching tips</h2>
  <ul class="tips">
    <li>Type a few words from the title, the author or the subject: <code>tolstoy war</code>.</li>
    <li>Use quotes for an exact phrase: <code>"pride and prejudice"</code>.</li>
    <li>Leave a word out with a minus: <code>war -peace</code>; allow either word with OR: <code>zola OR balzac</code>.</li>
    <li>Choose <em>Search in</em> to look only at titles, authors, subjects, ISBNs or call numbers.</li>
  </ul>
</section>
</div>`;
}
