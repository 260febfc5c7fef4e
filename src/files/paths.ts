// The tree an account of the file doors (SFTP, FTP) sees: a root holding in/ (where it uploads)
// and out/ (where it reads reports), and files directly inside them; nothing else exists. A path
// naming anything else, or going up (`..`) at all, is outside and refused.

export type Place = { at: 'root' } | { at: 'in' | 'out'; name?: string };

/**
 * Bytes an uploaded file's name may have: its report in out/ is NAME.ID.report.json, ID at most
 * 19 digits, and that name must fit the 255 bytes a file name has on the client's side.
 */
const MAX_UPLOAD_NAME_BYTES = 255 - '.9223372036854775807.report.json'.length;

/**
 * Characters no name may hold: C0 and C1 controls and DEL, the line and paragraph separators, and
 * the bidirectional embeddings, overrides and isolates, which make a name read as another.
 */
function badChar(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x2028 ||
    code === 0x2029 ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

/** A file name an account may give: 1 to 255 bytes, no separator or character badChar refuses (. and .. never get here). */
function goodName(name: string, maxBytes: number): boolean {
  if (Buffer.byteLength(name) > maxBytes || name.includes('\\')) return false;
  for (let i = 0; i < name.length; i++) if (badChar(name.charCodeAt(i))) return false;
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
  return goodName(name, dir === 'in' ? MAX_UPLOAD_NAME_BYTES : 255) ? { at: dir, name } : undefined;
}

/** The canonical absolute path of a place, as REALPATH answers it. */
export function pathOf(p: Place): string {
  if (p.at === 'root') return '/';
  return p.name === undefined ? `/${p.at}` : `/${p.at}/${p.name}`;
}
