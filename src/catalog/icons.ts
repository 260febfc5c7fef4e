// Line icons for the material types (24-unit grid, drawn in currentColor), so a list of results
// shows at a glance which are books, recordings, films or maps. Decorative: always aria-hidden.
import { raw, type Html } from './html.ts';

const SHAPES: Record<string, string> = {
  book: '<path d="M5 4.5A1.5 1.5 0 0 1 6.5 3H19v15H6.5A1.5 1.5 0 0 0 5 19.5z"/><path d="M5 19.5A1.5 1.5 0 0 0 6.5 21H19v-3"/><path d="M9 7h6"/>',
  ebook: '<rect x="6" y="2.5" width="12" height="19" rx="2"/><path d="M11 18h2"/><path d="M9 7h6M9 10h6M9 13h4"/>',
  serial: '<path d="M4 5h13v14a2 2 0 0 0 2 2H6a2 2 0 0 1-2-2z"/><path d="M17 9h3v10a2 2 0 0 1-2 2"/><path d="M7 9h7M7 12h7M7 15h5"/>',
  audio:
    '<path d="M4 15v-3a8 8 0 0 1 16 0v3"/><rect x="3" y="14" width="4" height="7" rx="1.5"/><rect x="17" y="14" width="4" height="7" rx="1.5"/>',
  music: '<path d="M9 18V5l11-2v13"/><circle cx="6" cy="18" r="3"/><circle cx="17" cy="16" r="3"/>',
  score: '<path d="M3 6h18M3 10h18M3 14h18M3 18h18"/><circle cx="9" cy="16" r="2"/><path d="M11 16V6"/>',
  map: '<path d="M3 6.5 9 4l6 2.5L21 4v13.5L15 20l-6-2.5L3 20z"/><path d="M9 4v13.5M15 6.5V20"/>',
  video: '<rect x="2.5" y="5" width="19" height="14" rx="2"/><path d="m10 9 5 3-5 3z"/>',
  computer: '<rect x="3" y="4" width="18" height="12" rx="1.5"/><path d="M8 20h8M12 16v4"/>',
  picture: '<rect x="3" y="4" width="18" height="16" rx="2"/><circle cx="9" cy="10" r="2"/><path d="m21 16-5-5-10 9"/>',
  box: '<path d="m3 7.5 9-4.5 9 4.5v9L12 21l-9-4.5z"/><path d="m3 7.5 9 4.5 9-4.5M12 12v9"/>',
  manuscript: '<path d="M6 3h9l4 4v14H6z"/><path d="M15 3v4h4"/><path d="M9 11h7M9 14h7M9 17h4"/>',
  search: '<circle cx="11" cy="11" r="7"/><path d="m20 20-4-4"/>',
  logo: '<path d="M4 19V6l4-2v15M10 19V4h4v15M16 19l2-14 3 .5-2 13.5"/><path d="M2.5 20.5h19"/>',
};

/** The icon family of each material type code (the codes of the material_types table). */
const BY_MATERIAL: Record<string, string> = {
  a: 'book',
  e: 'ebook',
  s: 'serial',
  i: 'audio',
  j: 'music',
  c: 'score',
  m: 'map',
  g: 'video',
  f: 'computer',
  p: 'box',
  k: 'picture',
  r: 'box',
  o: 'box',
  t: 'manuscript',
};

export function materialFamily(code: string | undefined): string {
  return BY_MATERIAL[code ?? ''] ?? 'book';
}

export function icon(name: string, className = 'icon'): Html {
  return raw(
    `<svg class="${className}" viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round">${SHAPES[name] ?? SHAPES.book}</svg>`,
  );
}
