// HTML built by tagged templates: every interpolated value is escaped unless it is already Html
// (another template's output), so a record's title can never become markup.
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** A value in a template: Html as is, arrays joined, null/undefined/false as nothing, the rest escaped. */
export type Interpolated = Html | string | number | boolean | null | undefined | readonly Interpolated[];

function render(value: Interpolated): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Interpolated[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]!;
  return new Html(out);
}

/** Trusted markup (constants written in this code), inserted unescaped. */
export function raw(text: string): Html {
  return new Html(text);
}
