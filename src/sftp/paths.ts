// The tree an SFTP account sees: a root holding in/ (where it uploads) and out/ (where it reads
// reports), and files directly inside them; nothing else exists. A path naming anything else, or
// going up (`..`) at all, is outside and refused.

export type Place = { at: 'root' } | { at: 'in' | 'out'; name?: string };

/** A file name an account may give: 1 to 255 characters, no separator or control character (. and .. never get here). */
function goodName(name: string): boolean {
  if (name.length > 255 || name.includes('\\')) return false;
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return false;
  }
  return true;
}

/** Where a client's path leads, relative paths taken from the root; undefined when it leads outside. */
export function place(raw: string): Place | undefined {
  const parts = raw.split('/').filter((part) => part !== '' && part !== '.');
  if (parts.includes('..')) return undefined;
  if (parts.length === 0) return { at: 'root' };
  const [dir, name, ...rest] = parts;
  if ((dir !== 'in' && dir !== 'out') || rest.length > 0) return undefined;
  if (name === undefined) return { at: dir };
  return goodName(name) ? { at: dir, name } : undefined;
}

/** The canonical absolute path of a place, as REALPATH answers it. */
export function pathOf(p: Place): string {
  if (p.at === 'root') return '/';
  return p.name === undefined ? `/${p.at}` : `/${p.at}/${p.name}`;
}
