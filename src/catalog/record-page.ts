// A record's page: title and availability first, then the copies (where, call number, status),
// then the full description. Authors and subjects link to searches for more of the same.
import { html, type Html } from './html.ts';
import { icon, materialFamily } from './icons.ts';
import { NO_FILTERS, resultsUrl, type CatalogQuery } from './query.ts';
import { searchableName } from './describe.ts';
import { availability } from './results-page.ts';
import type { RecordView } from './service.ts';

const search = (index: CatalogQuery['index'], text: string) => resultsUrl({ text, index, sort: 'relevance', page: 1, filters: NO_FILTERS });

function detail(label: string, value: Html | string | undefined): Html {
  return value ? html`<dt>${label}</dt><dd>${value}</dd>` : html``;
}

function copiesTable(r: RecordView): Html {
  if (r.copies.length === 0) return html`<p>The library has no copies of this title to lend. Ask a librarian about it.</p>`;
  return html`<table class="copies">
  <caption class="visually-hidden">Copies of this title, with their location, call number and status</caption>
  <thead><tr><th scope="col">Location</th><th scope="col">Call number</th><th scope="col">Status</th></tr></thead>
  <tbody>${r.copies.map(
    (c) => html`<tr>
    <td data-label="Location">${c.location}</td>
    <td data-label="Call number">${c.callNumber || '—'}</td>
    <td data-label="Status" class="status-${c.state}">${c.status}</td>
  </tr>`,
  )}</tbody>
</table>`;
}

/** `hold`: the hold form (or the way to sign in to place one), shown after the copies. */
export function recordMain(r: RecordView, back: CatalogQuery | undefined, hold?: Html): Html {
  const d = r.description;
  const family = materialFamily(r.materialType?.code);
  const authorLinks = d.authors.map(
    (a) =>
      html`<li><a href="${search('author', searchableName(a.name))}">${a.name}</a>${a.role ? html` <span class="detail">(${a.role})</span>` : ''}</li>`,
  );
  return html`<div class="wrap">
<p class="back">${
    back?.text
      ? html`<a href="${resultsUrl(back)}"><span aria-hidden="true">←</span> Back to results</a>`
      : html`<a href="/catalog"><span aria-hidden="true">←</span> New search</a>`
  }</p>
<article class="record" data-bib-id="${r.id}" aria-labelledby="record-title">
  <div class="record-head">
    <div class="cover ${family}">${icon(family)}</div>
    <div>
      ${r.materialType ? html`<span class="badge">${r.materialType.name}</span>` : ''}
      <h1 id="record-title">${d.title}${d.subtitle ? html`<span class="subtitle">${d.subtitle}</span>` : ''}</h1>
      ${d.responsibility ? html`<p class="responsibility">${d.responsibility}</p>` : ''}
      ${availability(r.holdings)}
    </div>
  </div>

  <section aria-labelledby="copies-heading">
    <h2 id="copies-heading">Copies</h2>
    ${copiesTable(r)}
  </section>

  ${hold ?? ''}

  ${d.summary.length ? html`<section aria-labelledby="summary-heading"><h2 id="summary-heading">Summary</h2>${d.summary.map((s) => html`<p>${s}</p>`)}</section>` : ''}

  <section aria-labelledby="details-heading">
    <h2 id="details-heading">Details</h2>
    <dl class="details">
      ${detail(d.authors.length > 1 ? 'Authors' : 'Author', authorLinks.length ? html`<ul class="plain">${authorLinks}</ul>` : undefined)}
      ${detail('Published', d.publication ?? (r.year ? String(r.year) : undefined))}
      ${detail('Edition', d.edition)}
      ${detail('Format', r.materialType?.name)}
      ${detail('Description', d.physical)}
      ${detail('Language', r.language?.name)}
      ${detail('Series', d.series.length ? html`<ul class="plain">${d.series.map((s) => html`<li><a href="${search('series', s.replace(/,\s*\d+$/, ''))}">${s}</a></li>`)}</ul>` : undefined)}
      ${detail('ISBN', d.isbns.length ? html`<ul class="plain">${d.isbns.map((i) => html`<li>${i}</li>`)}</ul>` : undefined)}
      ${detail('ISSN', d.issns.length ? html`<ul class="plain">${d.issns.map((i) => html`<li>${i}</li>`)}</ul>` : undefined)}
      ${detail('Record number', r.id)}
    </dl>
  </section>

  ${
    d.subjects.length
      ? html`<section aria-labelledby="subjects-heading"><h2 id="subjects-heading">Subjects</h2>
    <ul class="plain">${d.subjects.map((parts) => html`<li><a href="${search('subject', parts.join(' '))}">${parts.join(' — ')}</a></li>`)}</ul></section>`
      : ''
  }

  ${
    d.notes.length
      ? html`<section aria-labelledby="notes-heading"><h2 id="notes-heading">Notes</h2>
    <ul class="plain">${d.notes.map((n) => html`<li>${n}</li>`)}</ul></section>`
      : ''
  }
</article>
</div>`;
}

export function noticeMain(heading: string, message: string | Html): Html {
  return html`<div class="wrap"><div class="notice">
  <h1>${heading}</h1>
  <p>${message}</p>
  <p><a href="/catalog">Start a new search</a></p>
</div></div>`;
}
