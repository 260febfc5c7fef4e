// Every field a presenter can write (its *_FIELDS set) is a property of the schema its read answers
// with, and the schema has no other: Fastify serialises only what the response schema names, so a
// field missing from it would be dropped from the answer without a word.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FUND_FIELDS } from '../../src/acquisitions/funds/present.ts';
import { INVOICE_FIELDS } from '../../src/acquisitions/invoices/present.ts';
import { ORDER_FIELDS } from '../../src/acquisitions/orders/present.ts';
import { VENDOR_FIELDS } from '../../src/acquisitions/vendors/present.ts';
import { BIB_FIELDS } from '../../src/bibs/present.ts';
import { BRANCH_FIELDS } from '../../src/branches/routes.ts';
import { CHECKOUT_FIELDS } from '../../src/circulation/present.ts';
import { FINE_FIELDS } from '../../src/fines/present.ts';
import { HOLDING_FIELDS } from '../../src/holdings/present.ts';
import { HOLD_FIELDS } from '../../src/holds/present.ts';
import { ITEM_FIELDS } from '../../src/items/present.ts';
import { PATRON_FIELDS } from '../../src/patrons/present.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

/** Each field set, with the read (GET path) whose 200 answer is one record presented with it. */
const FIELD_SETS: Record<string, { fields: { all: readonly string[] }; read: string }> = {
  BIB_FIELDS: { fields: BIB_FIELDS, read: '/v6/bibs/{id}' },
  ITEM_FIELDS: { fields: ITEM_FIELDS, read: '/v6/items/{id}' },
  PATRON_FIELDS: { fields: PATRON_FIELDS, read: '/v6/patrons/{id}' },
  HOLD_FIELDS: { fields: HOLD_FIELDS, read: '/v6/patrons/holds/{holdId}' },
  HOLDING_FIELDS: { fields: HOLDING_FIELDS, read: '/v6/holdings/{id}' },
  CHECKOUT_FIELDS: { fields: CHECKOUT_FIELDS, read: '/v6/patrons/checkouts/{id}' },
  FINE_FIELDS: { fields: FINE_FIELDS, read: '/v6/patrons/fines/{id}' },
  BRANCH_FIELDS: { fields: BRANCH_FIELDS, read: '/v6/branches/{id}' },
  FUND_FIELDS: { fields: FUND_FIELDS, read: '/v6/funds/{code}' },
  VENDOR_FIELDS: { fields: VENDOR_FIELDS, read: '/v6/vendors/{id}' },
  INVOICE_FIELDS: { fields: INVOICE_FIELDS, read: '/v6/invoices/{id}' },
  ORDER_FIELDS: { fields: ORDER_FIELDS, read: '/v6/orders/{id}' },
};

const SRC = path.resolve(import.meta.dirname, '../../src');

/** The names of the field sets declared in src (`X_FIELDS = fieldSet(`). */
function declaredFieldSets(): string[] {
  const names: string[] = [];
  for (const entry of fs.readdirSync(SRC, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const text = fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8');
    for (const match of text.matchAll(/\b(\w+_FIELDS)\s*=\s*fieldSet\(/g)) names.push(match[1]!);
  }
  return names.sort();
}

interface Schema {
  $ref?: string;
  properties?: Record<string, unknown>;
}

describe('presenter field sets and response schemas', () => {
  let t: TestApp;
  let doc: {
    paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, { schema: Schema }> }> }>>;
    components: { schemas: Record<string, Schema> };
  };
  before(async () => {
    t = await createTestApp();
    const res = await t.app.inject({ method: 'GET', url: '/v6/openapi.json' });
    assert.equal(res.statusCode, 200);
    doc = res.json();
  });
  after(() => t.close());

  /** The schema of a read's 200 answer, its component's when it refers to one. */
  function answerSchema(read: string): Schema {
    const schema = doc.paths[read]?.get?.responses['200']?.content['application/json']?.schema;
    assert.ok(schema, `${read} is documented with a 200 JSON answer`);
    if (!schema.$ref) return schema;
    const component = doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')];
    assert.ok(component, `${schema.$ref} is a component`);
    return component;
  }

  it('knows every field set declared in src', () => {
    assert.deepEqual(declaredFieldSets(), Object.keys(FIELD_SETS).sort());
  });

  for (const [name, { fields, read }] of Object.entries(FIELD_SETS)) {
    it(`${name}: the properties of ${read}'s answer are the presenter's fields`, () => {
      const properties = Object.keys(answerSchema(read).properties ?? {});
      assert.deepEqual(
        {
          missingFromSchema: fields.all.filter((f) => !properties.includes(f)),
          notPresented: properties.filter((p) => !fields.all.includes(p)),
        },
        { missingFromSchema: [], notPresented: [] },
      );
    });
  }
});
