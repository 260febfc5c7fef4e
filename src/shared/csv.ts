// CSV as RFC 4180 writes it, for the answers people open in spreadsheets (invoice exports, SQL results).

/** One CSV field: quoted when it holds a comma, a quote, a line break or edge spaces; quotes doubled. */
export function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
