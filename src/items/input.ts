// Reads item write bodies (POST and PUT /items) in Sierra's item-patch shape: the plain members
// (bibIds, location, status, barcodes, callNumbers, itemType), or the same as fixedFields (61 item
// type, 79 location, 88 status) and varFields (b barcode, c call number, m message). Every bad value
// is a 400 (code 126) naming the member.
import { fail } from '../shared/errors.ts';

export interface ItemInput {
  bibIds?: (string | number)[];
  location?: string;
  status?: string;
  barcode?: string;
  barcodes?: string[];
  callNumber?: string;
  callNumbers?: string[];
  itemType?: string | number;
  messages?: string[];
  owningLocations?: string[];
  fixedFields?: Record<string, { label?: string; value: unknown }>;
  varFields?: { fieldTag: string; content: string }[];
}

/** What a write sets; undefined leaves a member as it is, null clears it. */
export interface ItemChanges {
  bibIds?: string[];
  location?: string | null;
  status?: string;
  barcode?: string | null;
  callNumber?: string | null;
  itemType?: string | null;
  message?: string | null;
}

const bad = (field: string, why: string) => fail.invalidInput(`${field} ${why}`);
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

function text(field: string, raw: unknown, max: number): string | null {
  if (raw === null) return null;
  if (typeof raw !== 'string' && typeof raw !== 'number') throw bad(field, 'must be text');
  const value = String(raw).trim();
  if (value.length > max) throw bad(field, `must have at most ${max} characters`);
  if (CONTROL.test(value)) throw bad(field, 'must not hold control characters');
  return value === '' ? null : value;
}

/** One value given by at most one of several members (`barcode`, `barcodes`, varField b, …). */
function oneOf(field: string, given: [string, unknown[] | undefined][]): unknown[] | undefined {
  const present = given.filter(([, v]) => v !== undefined);
  if (present.length > 1) throw bad(field, `is given as ${present.map(([n]) => n).join(' and ')}: give one of them`);
  const values = present[0]?.[1];
  if (values && values.length > 1) throw bad(present[0]![0], 'may hold one value: an item has one');
  return values;
}

export function parseItemInput(input: ItemInput, creating: boolean): ItemChanges {
  const out: ItemChanges = {};
  const fixed = (n: string) => (input.fixedFields && Object.hasOwn(input.fixedFields, n) ? [input.fixedFields[n]?.value] : undefined);
  for (const n of Object.keys(input.fixedFields ?? {}))
    if (!['61', '79', '88'].includes(n))
      throw bad(`fixedFields.${n}`, 'cannot be written; the fixed fields an item write takes are 61, 79, 88');
  const tagged = (tag: string) => {
    const values = input.varFields?.filter((v) => v.fieldTag === tag).map((v) => v.content);
    return values?.length ? values : undefined;
  };
  input.varFields?.forEach((v, i) => {
    if (!['b', 'c', 'm'].includes(v.fieldTag))
      throw bad(`varFields[${i}].fieldTag`, `"${v.fieldTag}" is not an item field Carrel keeps; tags are b, c, m`);
  });
  const wrap = (v: unknown) => (v === undefined ? undefined : [v]);

  if (input.bibIds !== undefined) {
    if (input.bibIds.length === 0) throw bad('bibIds', 'must hold at least one bib');
    if (input.bibIds.length > 20) throw bad('bibIds', 'may hold at most 20 bibs');
    out.bibIds = input.bibIds.map((id, i) => {
      const value = String(id).trim();
      if (!/^\d{1,18}$/.test(value)) throw bad(`bibIds[${i}]`, `"${id}" is not a bib id`);
      return value;
    });
    if (new Set(out.bibIds).size !== out.bibIds.length) throw bad('bibIds', 'lists a bib twice');
  } else if (creating) throw bad('bibIds', 'is required: an item belongs to at least one bib');

  const location = oneOf('location', [
    ['location', wrap(input.location)],
    ['fixedFields.79', fixed('79')],
  ]);
  if (location) out.location = text('location', location[0], 20);
  if (out.location !== undefined && input.owningLocations?.some((l) => l.trim() !== (out.location ?? '')))
    throw bad('owningLocations', "must name the item's location, if anything: Carrel keeps one location per item");
  const status = oneOf('status', [
    ['status', wrap(input.status)],
    ['fixedFields.88', fixed('88')],
  ]);
  if (status) {
    const code = text('status', status[0], 1);
    if (code === null) throw bad('status', 'must be a status code');
    out.status = code;
  }
  const itemType = oneOf('itemType', [
    ['itemType', wrap(input.itemType)],
    ['fixedFields.61', fixed('61')],
  ]);
  if (itemType) out.itemType = text('itemType', itemType[0], 20);
  const barcode = oneOf('barcode', [
    ['barcode', wrap(input.barcode)],
    ['barcodes', input.barcodes],
    ['varFields b', tagged('b')],
  ]);
  if (barcode) {
    out.barcode = text('barcode', barcode[0], 64);
    if (out.barcode && /\s/.test(out.barcode)) throw bad('barcode', 'must not hold spaces');
  }
  const callNumber = oneOf('callNumber', [
    ['callNumber', wrap(input.callNumber)],
    ['callNumbers', input.callNumbers],
    ['varFields c', tagged('c')],
  ]);
  if (callNumber) out.callNumber = text('callNumber', callNumber[0], 200);
  // DCB sends "messages": [] beside varField m: an empty list says nothing more.
  const messages = input.messages?.length ? [input.messages.join('; ')] : input.messages === undefined || tagged('m') ? undefined : [null];
  const message = oneOf('message', [
    ['messages', messages],
    ['varFields m', tagged('m')],
  ]);
  if (message) out.message = text('message', message[0], 500);
  return out;
}
