// The results page: heading and count, sort, the hits (title, author, year, material type,
// availability), and page links. Every control is a link or a form, so it all works without script.
import { html, type Html } from './html.ts';
import { icon, materialFamily } from './icons.ts';
import { INDEX_LABELS } from './layout.ts';
import { MAX_PAGE, PAGE_SIZE, recordUrl, resultsUrl, type CatalogQuery } from './query.ts';
import type { HoldingsSummary } from './holdings.ts';
import type { Hit, Results } from './service.ts';

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
  const wanted = [...new Set([1, last, current - 2, current - 1, current, current + 1, current + 2])].filter((n) => n >= 1 && n <= last).sort((a, b) => a - b);
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
  ${q.page > 1 ? html`<li><a href="${link(q.page - 1)}" rel="prev"><span aria-hidden="true">‹</span> Previous<span class="visually-hidden"> page</span></a></li>` : ''}
  ${pageNumbers(q.page, last).map((n) => n === null
    ? html`<li><span class="gap" aria-hidden="true">…</span></li>`
    : html`<li><a class="num${Math.abs(n - q.page) <= 1 || n === 1 || n === last ? ' near' : ''}" href="${link(n)}"${n === q.page ? html` aria-current="page"` : ''}><span class="visually-hidden">Page </span>${n}</a></li>`)}
  ${q.page < last ? html`<li><a href="${link(q.page + 1)}" rel="next">Next<span class="visually-hidden"> page</span> <span aria-hidden="true">›</span></a></li>` : ''}
</ul></nav>`;
}

function sortForm(q: CatalogQuery): Html {
  return html`<form class="sort" action="/catalog" method="get">
  <input type="hidden" name="text" value="${q.text}">
  ${q.index ? html`<input type="hidden" name="index" value="${q.index}">` : ''}
  <label for="sort">Sort by</label>
  <select id="sort" name="sort">${Object.entries(SORT_LABELS).map(([value, label]) => html`<option value="${value}"${value === q.sort ? html` selected` : ''}>${label}</option>`)}</select>
  <button class="button secondary" type="submit">Sort</button>
</form>`;
}

function heading(q: CatalogQuery): Html {
  const index = INDEX_LABELS.find(([value]) => value === (q.index ?? ''))![1];
  return q.index ? html`${index} search: “${q.text}”` : html`Results for “${q.text}”`;
}

function noResults(q: CatalogQuery): Html {
  return html`<div class="empty">
  <h2>Nothing found${q.page > 1 ? ' on this page' : ''}</h2>
  <p>${q.page > 1 ? html`There are fewer results than that. <a href="${resultsUrl({ ...q, page: 1 })}">Go to the first page</a>.` : 'Some ideas:'}</p>
  ${q.page > 1 ? '' : html`<ul class="tips">
    <li>Check the spelling, or try fewer or more general words.</li>
    ${q.index ? html`<li><a href="${resultsUrl({ ...q, index: undefined, page: 1 })}">Search every field</a> instead of ${INDEX_LABELS.find(([v]) => v === q.index)![1].toLowerCase()} only.</li>` : ''}
    <li>Use quotes for an exact phrase: <code>"pride and prejudice"</code>; a minus to leave a word out: <code>war -peace</code>.</li>
  </ul>`}
</div>`;
}

export function resultsMain(q: CatalogQuery, results: Results): Html {
  const first = (q.page - 1) * PAGE_SIZE + 1;
  const lastShown = first + results.hits.length - 1;
  const count = results.hits.length
    ? html`Showing ${number.format(first)}–${number.format(lastShown)} of ${number.format(results.total)} ${results.total === 1 ? 'result' : 'results'}`
    : html`${number.format(results.total)} ${results.total === 1 ? 'result' : 'results'}`;
  return html`<div class="wrap layout">
<section class="results" aria-labelledby="results-heading">
  <div class="results-head">
    <div><h1 id="results-heading">${heading(q)}</h1><p class="count" role="status">${count}</p></div>
    ${results.total > 1 ? sortForm(q) : ''}
  </div>
  ${results.hits.length
    ? html`<ol class="hits" start="${first}">${results.hits.map((h) => hit(h, q))}</ol>${pager(q, results.total)}`
    : noResults(q)}
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
