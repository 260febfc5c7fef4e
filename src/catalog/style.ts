// The catalogue's stylesheet, mobile first. Served from /catalog/assets/ under a name carrying its
// hash, so browsers may keep it for a year and a changed sheet is a new address. Colours are
// chosen for WCAG AA contrast (body text 4.5:1 or better, large text and controls 3:1).
import crypto from 'node:crypto';

export const CSS = `
:root {
  --ink: #1b2330; --muted: #4c5667; --line: #d9dee6; --paper: #ffffff; --bg: #f4f6f9;
  --brand: #13315c; --brand-2: #1d4e89; --accent: #0b5cad; --accent-ink: #ffffff;
  --ok: #1a7a3c; --ok-bg: #e6f4ea; --warn: #8a5300; --warn-bg: #fdf1dc; --no: #a3261d; --no-bg: #fbe9e7;
  --focus: #ffbf47; --radius: 10px; --shadow: 0 1px 2px rgb(16 24 40 / .06), 0 1px 3px rgb(16 24 40 / .08);
  --serif: "Iowan Old Style", "Palatino Linotype", Palatino, "Book Antiqua", Georgia, "DejaVu Serif", serif;
  --sans: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", "Helvetica Neue", Arial, sans-serif;
  color-scheme: light;
}
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { margin: 0; font: 1rem/1.5 var(--sans); color: var(--ink); background: var(--bg); min-height: 100vh; display: flex; flex-direction: column; }
main { flex: 1; outline: none; }
a { color: var(--accent); text-underline-offset: .15em; }
a:hover { color: var(--brand); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; box-shadow: 0 0 0 5px var(--ink); border-radius: 2px; }
h1, h2, h3 { line-height: 1.25; margin: 0 0 .5rem; }
.wrap { max-width: 72rem; margin: 0 auto; padding: 0 1rem; }
.visually-hidden { position: absolute !important; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
.skip { position: absolute; left: .5rem; top: -4rem; z-index: 10; background: var(--focus); color: var(--ink); padding: .6rem 1rem; border-radius: 0 0 8px 8px; font-weight: 600; text-decoration: none; }
.skip:focus { top: 0; }
.icon { width: 1.25em; height: 1.25em; flex: none; }

/* Masthead and search */
.masthead { background: linear-gradient(135deg, var(--brand), var(--brand-2)); color: #fff; padding: .75rem 0 1rem; }
.masthead a { color: inherit; }
.masthead :focus-visible { box-shadow: 0 0 0 5px var(--brand); }
.brand { display: inline-flex; align-items: center; gap: .6rem; text-decoration: none; font-weight: 700; font-size: 1.15rem; letter-spacing: .01em; padding: .25rem 0; }
.brand .icon { width: 1.9rem; height: 1.9rem; }
.brand small { display: block; font-weight: 400; font-size: .8rem; opacity: .9; letter-spacing: .04em; text-transform: uppercase; }
.search { display: grid; gap: .5rem; margin-top: .75rem; grid-template-columns: minmax(0, 1fr) auto; grid-template-areas: "text text" "index go"; }
.search label { display: block; font-size: .85rem; font-weight: 600; margin-bottom: .2rem; }
.search .f-text { grid-area: text; } .search .f-index { grid-area: index; } .search .go { grid-area: go; align-self: end; }
.search input, .search select { width: 100%; font: inherit; color: var(--ink); background: #fff; border: 2px solid transparent; border-radius: 8px; padding: .6rem .75rem; min-height: 2.9rem; }
.search input:focus-visible, .search select:focus-visible { border-color: var(--focus); box-shadow: none; outline-offset: 0; }
.button { display: inline-flex; align-items: center; justify-content: center; gap: .4rem; font: inherit; font-weight: 600; border: 0; border-radius: 8px; padding: .6rem 1.1rem; min-height: 2.9rem; cursor: pointer; text-decoration: none; }
.go { background: var(--focus); color: #1b2330; }
.go:hover { background: #ffd37a; }
.hero { padding: 2.5rem 0 3rem; }
.hero h1 { font-family: var(--serif); font-size: clamp(1.8rem, 5vw, 2.8rem); font-weight: 600; margin-top: 1.5rem; }
.hero p { margin: 0; opacity: .92; max-width: 40rem; }

/* Results */
.layout { display: grid; grid-template-columns: minmax(0, 1fr); gap: 1rem; padding-top: 1.25rem; padding-bottom: 2.5rem; }
.results-head { display: flex; flex-wrap: wrap; align-items: end; justify-content: space-between; gap: .75rem 1rem; grid-column: 1 / -1; }
.results-head h1 { font-size: 1.5rem; margin: 0; overflow-wrap: anywhere; }
.count { margin: .2rem 0 0; color: var(--muted); }
.sort { display: flex; align-items: center; gap: .5rem; flex-wrap: wrap; }
.sort label { font-weight: 600; font-size: .9rem; }
.sort select { font: inherit; padding: .45rem .6rem; border: 1px solid #8a94a6; border-radius: 8px; background: #fff; color: var(--ink); min-height: 2.6rem; }
.secondary { background: #fff; color: var(--accent); border: 1px solid var(--accent); min-height: 2.6rem; padding: .4rem .9rem; }
.secondary:hover { background: #eef4fb; }
.chips { list-style: none; display: flex; flex-wrap: wrap; gap: .5rem; padding: 0; margin: 0 0 1rem; align-items: center; }
.chips a { display: inline-flex; align-items: center; gap: .35rem; background: #e8eef7; color: var(--brand); border-radius: 999px; padding: .3rem .8rem; text-decoration: none; font-size: .9rem; font-weight: 600; }
.chips a:hover { background: #d5e1f1; }
.chips .x { font-size: 1.1em; line-height: 1; }
.chips a.clear { background: none; color: var(--accent); text-decoration: underline; font-weight: 600; }
.hits { list-style: none; margin: 0; padding: 0; display: grid; gap: .75rem; }
.hit { display: flex; gap: 1rem; background: var(--paper); border: 1px solid var(--line); border-radius: var(--radius); padding: 1rem; box-shadow: var(--shadow); }
.cover { flex: none; width: 3.5rem; height: 4.75rem; border-radius: 6px; display: grid; place-items: center; color: #fff; background: #50607a; box-shadow: inset -4px 0 0 rgb(0 0 0 / .15); }
.cover .icon { width: 1.75rem; height: 1.75rem; }
.cover.book { background: #1d4e89; } .cover.ebook { background: #26637a; } .cover.serial { background: #5b4a8a; }
.cover.audio { background: #8a3b62; } .cover.music { background: #9a3f3f; } .cover.score { background: #7a4f2a; }
.cover.map { background: #2f6b4f; } .cover.video { background: #37474f; } .cover.computer { background: #40566b; }
.cover.picture { background: #6b5a1f; } .cover.box { background: #5d6470; } .cover.manuscript { background: #6e4b3a; }
.hit-body { min-width: 0; }
.hit h2 { font-family: var(--serif); font-size: 1.2rem; font-weight: 600; margin: 0 0 .15rem; overflow-wrap: anywhere; }
.hit h2 a { color: var(--ink); text-decoration: none; }
.hit h2 a:hover { color: var(--accent); text-decoration: underline; }
.byline { margin: 0 0 .35rem; color: var(--muted); }
.meta { display: flex; flex-wrap: wrap; gap: .25rem .75rem; margin: 0 0 .5rem; font-size: .9rem; color: var(--muted); padding: 0; list-style: none; }
.badge { display: inline-block; font-size: .8rem; font-weight: 600; color: var(--brand); background: #e8eef7; border-radius: 4px; padding: .05rem .45rem; }
.avail { display: flex; flex-wrap: wrap; align-items: baseline; gap: .15rem .5rem; margin: 0; font-size: .92rem; }
.avail strong { display: inline-flex; align-items: center; gap: .35rem; }
.avail strong::before { content: ""; width: .6rem; height: .6rem; border-radius: 50%; background: currentColor; }
.avail .detail { color: var(--muted); }
.s-available strong { color: var(--ok); } .s-in-library strong { color: var(--warn); } .s-unavailable strong, .s-none strong { color: var(--no); }
.empty { background: var(--paper); border: 1px solid var(--line); border-radius: var(--radius); padding: 1.5rem; }
.empty h2 { font-size: 1.15rem; }
.did-you-mean { font-size: 1.1rem; margin: 0 0 1rem; }
.did-you-mean a { font-weight: 600; }
.tips { margin: .5rem 0 0; padding-left: 1.2rem; }
.tips li { margin: .25rem 0; }
.tips code { background: #eef1f5; border-radius: 4px; padding: .05rem .3rem; font-size: .95em; }

/* Paging */
.pager { margin-top: 1.5rem; }
.pager ul { list-style: none; display: flex; flex-wrap: wrap; gap: .35rem; padding: 0; margin: 0; justify-content: center; }
.pager a, .pager span { display: inline-flex; align-items: center; justify-content: center; min-width: 2.75rem; min-height: 2.75rem; padding: 0 .75rem; border-radius: 8px; text-decoration: none; font-weight: 600; }
.pager a { background: var(--paper); border: 1px solid var(--line); color: var(--accent); }
.pager a:hover { border-color: var(--accent); }
.pager a[aria-current="page"] { background: var(--brand); border-color: var(--brand); color: #fff; }
.pager .gap { color: var(--muted); min-width: 1.5rem; padding: 0; }
.pager .num { display: none; }
.pager .num.near { display: inline-flex; }

/* Facets: a disclosure on phones, an open sidebar on wider screens */
.refine-title { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.refine { background: var(--paper); border: 1px solid var(--line); border-radius: var(--radius); box-shadow: var(--shadow); align-self: start; }
.refine > summary { cursor: pointer; padding: .85rem 1rem; font-weight: 700; list-style: none; display: flex; gap: .4rem; align-items: center; min-height: 2.75rem; }
.refine > summary .detail { font-weight: 400; color: var(--muted); }
.refine > summary::-webkit-details-marker { display: none; }
.refine > summary::after { content: "+"; margin-left: auto; font-size: 1.4rem; line-height: 1; color: var(--accent); }
.refine[open] > summary::after { content: "\\2212"; }
.refine .facets { padding: 0 1rem 1rem; }
.facet { border-top: 1px solid var(--line); padding-top: .75rem; margin-top: .75rem; }
.facet:first-of-type { border-top: 0; margin-top: 0; padding-top: 0; }
.facet h3 { font-size: .8rem; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); margin-bottom: .4rem; }
.facet ul { list-style: none; margin: 0; padding: 0; }
.facet a { display: flex; justify-content: space-between; gap: .75rem; padding: .35rem .5rem; margin: 0 -.5rem; border-radius: 6px; text-decoration: none; color: var(--ink); }
.facet a:hover { background: #eef4fb; color: var(--accent); }
.facet a[aria-current="true"] { background: #e8eef7; font-weight: 700; color: var(--brand); }
.facet a[aria-current="true"] > span:first-child::before { content: "\\2713\\00a0"; }
.facet .n { color: var(--muted); font-variant-numeric: tabular-nums; font-size: .9rem; }

/* Record page */
.back { margin: 1rem 0; }
.back a { display: inline-flex; align-items: center; gap: .3rem; font-weight: 600; }
.record { background: var(--paper); border: 1px solid var(--line); border-radius: var(--radius); box-shadow: var(--shadow); padding: 1.25rem; margin-bottom: 2.5rem; }
.record-head { display: flex; gap: 1.25rem; align-items: flex-start; }
.record-head .cover { width: 5rem; height: 7rem; }
.record-head .cover .icon { width: 2.5rem; height: 2.5rem; }
.record h1 { font-family: var(--serif); font-size: clamp(1.5rem, 4vw, 2.1rem); font-weight: 600; margin: .35rem 0 .25rem; overflow-wrap: anywhere; }
.record h1 .subtitle { display: block; font-size: .65em; font-weight: 400; color: var(--muted); margin-top: .2rem; }
.responsibility { margin: 0 0 .6rem; color: var(--muted); }
.record section { margin-top: 1.75rem; }
.record h2 { font-size: 1.15rem; padding-bottom: .35rem; border-bottom: 2px solid var(--line); margin-bottom: .75rem; }
.details { display: grid; grid-template-columns: 1fr; gap: .15rem 1.5rem; margin: 0; }
.details dt { font-weight: 700; font-size: .85rem; color: var(--muted); margin-top: .6rem; }
.details dd { margin: 0; overflow-wrap: anywhere; }
.plain { list-style: none; margin: 0; padding: 0; }
.plain li { margin: .3rem 0; }
.details .plain li { margin: 0 0 .2rem; }
.copies { width: 100%; border-collapse: collapse; }
.copies th, .copies td { text-align: left; padding: .6rem .75rem; border-bottom: 1px solid var(--line); vertical-align: top; }
.copies thead th { font-size: .85rem; color: var(--muted); background: #f7f8fa; }
.copies .status-available { color: var(--ok); font-weight: 600; }
.copies .status-in-library { color: var(--warn); font-weight: 600; }
.copies .status-unavailable { color: var(--no); font-weight: 600; }
.notice { background: var(--paper); border: 1px solid var(--line); border-left: 6px solid var(--no); border-radius: var(--radius); padding: 1.25rem 1.5rem; margin: 1.5rem 0 2.5rem; }
.notice h1 { font-size: 1.5rem; }

/* The patron's pages */
.narrow { max-width: 32rem; }
.patron-form .field { display: grid; gap: .3rem; margin: 0 0 1rem; }
.patron-form label { font-weight: 600; }
.patron-form input, .patron-form select { font: inherit; color: var(--ink); background: #fff; border: 2px solid var(--muted); border-radius: 8px; padding: .55rem .7rem; min-height: 2.9rem; }
.patron-form input[aria-invalid="true"] { border-color: var(--no); }
.patron-form .hint { color: var(--muted); font-size: .9rem; }
.patron-form.narrow-form { max-width: 32rem; }
.primary { background: var(--accent); color: var(--accent-ink); }
.secondary { background: var(--paper); color: var(--accent); border: 2px solid var(--accent); }
.message { border-radius: 8px; padding: .75rem 1rem; }
.message.status { background: var(--ok-bg); color: var(--ok); }
.message.alert { background: var(--no-bg); color: var(--no); }
.account-list > li { background: var(--paper); border: 1px solid var(--line); border-radius: var(--radius); padding: .9rem 1.1rem; margin: 0 0 .75rem; }
.account-list p { margin: .3rem 0; }
.overdue-mark { color: var(--no); }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; margin-top: .5rem; }

.site-footer { background: #e9edf2; color: var(--muted); font-size: .9rem; padding: 1.25rem 0; margin-top: auto; }
.site-footer p { margin: 0; }

@media (max-width: 39.99rem) {
  .copies thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  .copies, .copies tbody, .copies tr, .copies td { display: block; width: 100%; }
  .copies tr { border: 1px solid var(--line); border-radius: 8px; margin-bottom: .6rem; padding: .35rem 0; }
  .copies td { border: 0; padding: .25rem .75rem; display: grid; grid-template-columns: 7.5rem 1fr; gap: .5rem; }
  .copies td::before { content: attr(data-label); font-weight: 700; color: var(--muted); font-size: .85rem; }
  .record-head .cover { width: 3.75rem; height: 5.25rem; }
  .hit .cover { width: 2.75rem; height: 3.75rem; }
  .pager .word { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  .pager a, .pager span { min-width: 2.6rem; padding: 0 .5rem; }
  .hit .cover .icon { width: 1.4rem; height: 1.4rem; }
}
@media (min-width: 40rem) {
  .search { grid-template-columns: minmax(0, 1fr) 12rem auto; grid-template-areas: "text index go"; }
  .pager .num { display: inline-flex; }
  .details { grid-template-columns: 11rem 1fr; }
  .details dt { margin-top: 0; padding: .3rem 0; }
  .details dd { padding: .3rem 0; }
  .record { padding: 2rem; }
}
@media (min-width: 56rem) {
  .layout:has(> .refine-wrap) { grid-template-columns: 16rem minmax(0, 1fr); gap: 1.25rem 2rem; }
  .refine-wrap { align-self: start; }
  @supports selector(::details-content) {
    .refine > summary { display: none; }
    .refine-title { position: static; width: auto; height: auto; clip: auto; font-size: 1.05rem; margin-bottom: .75rem; }
    .refine::details-content { content-visibility: visible; display: contents; }
    .refine .facets { padding-top: 1rem; }
  }
}
@media (prefers-reduced-motion: no-preference) { html { scroll-behavior: smooth; } }
@media print {
  .masthead form, .refine, .pager, .sort, .skip, .site-footer { display: none; }
  body { background: #fff; }
  .hit, .record { box-shadow: none; border: 0; }
}
`;

export const CSS_PATH = `/catalog/assets/catalog-${crypto.createHash('sha256').update(CSS).digest('hex').slice(0, 10)}.css`;
