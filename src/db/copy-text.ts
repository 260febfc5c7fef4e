// Rows in COPY's text format (one line per row, tab between columns, \N for null): bulk loads
// send a batch as one COPY, which PostgreSQL parses several times faster than an INSERT of the
// same rows packed into a JSON document.

import { ByteWriter } from '../shared/byte-writer.ts';

const SPECIAL = /[\\\t\n\r]/;

function escape(text: string): string {
  // Most values have nothing to escape: testing is far cheaper than replacing.
  if (!SPECIAL.test(text)) return text;
  return text.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}

/** An array literal: {"a","b"}, each element quoted, so commas and braces inside stay literal. */
function arrayLiteral(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}

/** A value that is not null as its text, before COPY's escapes. */
function plain(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return arrayLiteral(value.map(String));
  return JSON.stringify(value);
}

function cell(value: unknown): string {
  return value === null || value === undefined ? '\\N' : escape(plain(value));
}

export function copyText(rows: readonly (readonly unknown[])[]): string {
  let out = '';
  for (const row of rows) out += `${row.map(cell).join('\t')}\n`;
  return out;
}

/**
 * COPY text written straight into bytes: the import builds a batch's rows here, with no string
 * per row and no UTF-8 encoding of the whole batch afterwards (both made most of its garbage).
 */
export class CopyWriter extends ByteWriter {
  constructor(capacity = 1 << 20) {
    super(capacity);
  }

  /** One cell, escaped as copyText would write it. */
  cell(value: unknown): void {
    // Escaped once, here: an array with a tab in an element was escaped twice, and lost the tab.
    if (value === null || value === undefined) this.ascii('\\N');
    else this.text(plain(value));
  }

  private text(value: string): void {
    let plain = true;
    for (let i = 0; i < value.length; i++) {
      const c = value.charCodeAt(i);
      if (c === 0x5c || c === 0x09 || c === 0x0a || c === 0x0d) {
        plain = false;
        break;
      }
    }
    this.utf8(plain ? value : escape(value));
  }
}
