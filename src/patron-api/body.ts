// The Patron API's answers as Sierra writes them: an HTML body of `LABEL[pCODE]=value<BR>` lines,
// LF line ends, `<HTML><BODY>` on the first line and `</BODY></HTML>` on the last (the layout
// every published consumer reads: some keep lines[1:-2], some only lines ending in `<BR>`).

export interface Line {
  label: string;
  /** The field's code inside the brackets: a fixed field's number or a variable field's tag, after `p`. */
  code: string | number;
  value: string;
}

/** A value on one line: line breaks become spaces, and `<` cannot open a tag. */
function clean(value: string): string {
  return value.replace(/\r\n|\r|\n/g, ' ').replaceAll('<', '&lt;');
}

export function page(lines: readonly string[]): string {
  return `<HTML><BODY>\n${lines.map((line) => `${line}<BR>\n`).join('')}</BODY></HTML>\n`;
}

export function fieldLines(lines: readonly Line[]): string[] {
  return lines.map((l) => `${l.label}[p${l.code}]=${clean(l.value)}`);
}

/** Sierra's errors: 1 a record not found, 4 a wrong PIN; a pintest adds RETCOD (1 wrong, 2 no PIN in the record). */
export const answers = {
  notFound: () => page(['ERRNUM=1', 'ERRMSG=Requested record not found']),
  pinOk: () => page(['RETCOD=0']),
  pinWrong: () => page(['RETCOD=1', 'ERRNUM=4', 'ERRMSG=Invalid patron PIN']),
  pinMissing: () => page(['RETCOD=2', 'ERRNUM=4', 'ERRMSG=Invalid patron PIN']),
  tooMany: (retryAfterSec: number) =>
    page(['RETCOD=1', 'ERRNUM=4', `ERRMSG=Too many failed PIN attempts; try again in ${retryAfterSec} seconds`]),
  forbidden: () => page(['ERRNUM=3', 'ERRMSG=Access denied: this address may not use the Patron API']),
};
