// Items carried inside bibliographic records: each occurrence of an item field (949, 945 or 852 by
// default) describes one item. Which field and which subfields hold what is a mapping the library
// can replace (`carrel import --item-map FILE`), because vendors and systems differ: 949 is the
// usual field for items in records sent to be loaded, 945 is how many systems export items, and
// 852 is the MARC 21 holdings location field.
import { isControlField, type MarcRecord } from '../marc/record.ts';

export interface ItemFieldMapping {
  tag: string;
  /** Subfield codes; callNumber may name several, joined with a space in that order. */
  barcode?: string;
  location?: string;
  callNumber?: string;
  status?: string;
  itemType?: string;
}

export interface ItemMap {
  /** Tried in order: a record's items come from the first of these fields it has. */
  fields: ItemFieldMapping[];
}

export const DEFAULT_ITEM_MAP: ItemMap = {
  fields: [
    { tag: '949', barcode: 'i', location: 'l', callNumber: 'a', status: 's', itemType: 't' },
    { tag: '945', barcode: 'i', location: 'l', callNumber: 'a', status: 's', itemType: 't' },
    { tag: '852', barcode: 'p', location: 'b', callNumber: 'hijk' },
  ],
};

export interface ItemFromMarc {
  barcode?: string;
  location?: string;
  callNumber?: string;
  status?: string;
  itemType?: string;
}

const ROLES = ['barcode', 'location', 'callNumber', 'status', 'itemType'] as const;

/** The items a record describes under a mapping (none when it has no mapped field). */
export function itemsFromRecord(record: MarcRecord, map: ItemMap): ItemFromMarc[] {
  for (const mapping of map.fields) {
    const fields = record.fields.filter((f) => f.tag === mapping.tag);
    if (fields.length === 0) continue;
    const items: ItemFromMarc[] = [];
    for (const field of fields) {
      if (isControlField(field)) continue;
      const item: ItemFromMarc = {};
      for (const role of ROLES) {
        const codes = mapping[role];
        if (!codes) continue;
        // Plain loops: this runs for every item of an import.
        let value = '';
        if (role === 'callNumber') {
          const parts: string[] = [];
          for (const code of codes) for (const sf of field.subfields) if (sf.code === code) parts.push(sf.value.trim());
          value = parts.join(' ').trim();
        } else {
          search: for (const code of codes) {
            for (const sf of field.subfields) {
              if (sf.code === code) {
                value = sf.value.trim();
                break search;
              }
            }
          }
        }
        if (value) item[role] = role === 'location' ? value.toLowerCase() : value;
      }
      items.push(item);
    }
    return items;
  }
  return [];
}

/** A mapping read from a file; throws Error with a message that says what is wrong. */
export function parseItemMap(json: unknown): ItemMap {
  const fields = (json as { fields?: unknown } | null)?.fields;
  if (!Array.isArray(fields) || fields.length === 0)
    throw new Error('an item map is {"fields": [{"tag": "949", "barcode": "i", …}, …]} with at least one field');
  return {
    fields: fields.map((entry: unknown, i) => {
      if (typeof entry !== 'object' || entry === null) throw new Error(`fields[${i}] is not an object`);
      const e = entry as Record<string, unknown>;
      if (typeof e.tag !== 'string' || !/^\d{3}$/.test(e.tag) || e.tag < '010')
        throw new Error(`fields[${i}].tag must be a data field tag such as "949"`);
      const mapping: ItemFieldMapping = { tag: e.tag };
      for (const key of Object.keys(e)) {
        if (key === 'tag') continue;
        if (!(ROLES as readonly string[]).includes(key)) throw new Error(`fields[${i}].${key} is not one of ${ROLES.join(', ')}`);
        const codes = e[key];
        if (typeof codes !== 'string' || !/^[a-z0-9]+$/.test(codes))
          throw new Error(`fields[${i}].${key} must be subfield codes such as "i"`);
        mapping[key as (typeof ROLES)[number]] = codes;
      }
      return mapping;
    }),
  };
}
