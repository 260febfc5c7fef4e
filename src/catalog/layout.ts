// The frame every catalogue page shares: skip link, masthead with the search form, <main>, footer.
import { html, type Html } from './html.ts';
import { icon } from './icons.ts';
import type { CatalogQuery } from './query.ts';
import { CSS_PATH } from './style.ts';
import { TEXT } from './patron/texts.ts';

/** The index selector's choices, in the order readers look for them; '' searches everything. */
export const INDEX_LABELS: [value: string, label: string][] = [
  ['', 'Keyword'],
  ['title', 'Title'],
  ['author', 'Author'],
  ['subject', 'Subject'],
  ['series', 'Series'],
  ['note', 'Notes'],
  ['isbn', 'ISBN'],
  ['issn', 'ISSN'],
  ['standardNumber', 'Standard number'],
  ['callNumber', 'Call number'],
];

export interface Frame {
  libraryName: string;
  /** The document title's first part (the library's name follows). */
  title: string;
  /** The search the form shows (a results page's, or the one a record was opened from). */
  query?: CatalogQuery;
  /** The masthead's big welcome (the start page) instead of the compact one. */
  hero?: boolean;
  main: Html;
}

const FAVICON = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><rect width="24" height="24" rx="5" fill="#13315c"/><path d="M6 18V8l3-1.5V18M11 18V6h3v12M16 18l1.5-10 2.2.4-1.5 9.6" fill="none" stroke="#ffbf47" stroke-width="1.6"/></svg>')}`;

export function searchForm(query: CatalogQuery | undefined, hero: boolean): Html {
  const index = query?.index ?? '';
  return html`<form class="search" role="search" action="/catalog" method="get" aria-label="Catalogue">
  <div class="f-text"><label for="search-text">${hero ? 'Find books, films, music and more' : 'Search the catalogue'}</label>
    <input id="search-text" type="search" name="text" value="${query?.text ?? ''}" maxlength="1000" autocomplete="off" spellcheck="false" enterkeyhint="search"></div>
  <div class="f-index"><label for="search-index">Search in</label>
    <select id="search-index" name="index">${INDEX_LABELS.map(([value, label]) => html`<option value="${value}"${value === index ? html` selected` : ''}>${label}</option>`)}</select></div>
  ${query && query.sort !== 'relevance' ? html`<input type="hidden" name="sort" value="${query.sort}">` : ''}
  <button class="button go" type="submit">${icon('search')}<span>Search</span></button>
</form>`;
}

export function frame(f: Frame): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${f.title} · ${f.libraryName}</title>
<meta name="description" content="Search the ${f.libraryName} catalogue: books, films, music and more, and see which copies are on the shelf.">
<meta name="theme-color" content="#13315c">
<link rel="icon" href="${FAVICON}">
<link rel="stylesheet" href="${CSS_PATH}">
</head>
<body>
<a class="skip" href="#main">Skip to main content</a>
<header class="masthead${f.hero ? ' hero' : ''}">
  <div class="wrap">
    <a class="brand" href="/catalog">${icon('logo')}<span>${f.libraryName}<small>Library catalogue</small></span></a>
    ${f.hero ? html`<h1>What would you like to read, watch or hear?</h1><p>Search everything the library holds and see at once which copies are on the shelf.</p>` : ''}
    ${searchForm(f.query, f.hero ?? false)}
  </div>
</header>
<main id="main" tabindex="-1">
${f.main}
</main>
<footer class="site-footer"><div class="wrap"><p>${f.libraryName} · Catalogue powered by Carrel · <a href="/catalog">New search</a> · <a href="/catalog/account">${TEXT.myAccount}</a></p></div></footer>
</body>
</html>
`;
}
