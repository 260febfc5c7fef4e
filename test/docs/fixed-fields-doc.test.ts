// docs/fixed-fields.md lists the fixed fields src/shared/fixed-fields.ts defines, each with its
// number and both labels, and nothing the module does not define.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fixedFieldTable, type RecordKind } from '../../src/shared/fixed-fields.ts';

const DOC = fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/fixed-fields.md'), 'utf8');

/** The rows of the table after the record type's bold heading. */
function rows(kind: RecordKind): string[] {
  const start = DOC.indexOf(`\n### ${kind}\n`);
  assert.ok(start >= 0, `no table for ${kind}`);
  const rest = DOC.slice(start).split('\n').slice(1);
  const table = rest.slice(rest.findIndex((l) => l.startsWith('| number')) + 2);
  return table.slice(0, table.findIndex((l) => !l.startsWith('|')) >>> 0);
}

describe('the fixed-field table in the docs', () => {
  for (const kind of ['bib', 'item', 'patron', 'holding'] as const) {
    it(`lists the ${kind} fields the module defines`, () => {
      assert.deepEqual(
        rows(kind),
        fixedFieldTable(kind).map((f) => `| ${f.number} | ${f.label} | ${f.short} |`),
      );
    });
  }
});
