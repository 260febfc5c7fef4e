// What applying a profile changes: the library as it is and as the file wants it, compared object
// by object (settings, patron and item types, branches, locations, rules), field by field.
import { ruleKey, RULE_VALUES, type Profile } from './profile.ts';

export type Kind = 'settings' | 'patronType' | 'itemType' | 'itemStatus' | 'patronFixedField' | 'branch' | 'location' | 'rule';

export interface Change {
  action: 'add' | 'change' | 'remove';
  kind: Kind;
  /** The object's code, number or rule key. */
  key: string;
  /** For a change: each field that differs, from → to. */
  fields?: Record<string, { from: unknown; to: unknown }>;
}

type Flat = Record<string, unknown>;

/** Every object of a profile, flattened to comparable fields, by kind and key. */
function objects(p: Profile): Map<Kind, Map<string, Flat>> {
  const byKind = new Map<Kind, Map<string, Flat>>();
  const put = (kind: Kind, key: string, fields: Flat) => {
    if (!byKind.has(kind)) byKind.set(kind, new Map());
    byKind.get(kind)!.set(key, fields);
  };
  put('settings', 'library', {
    timeZone: p.timeZone,
    holdLimit: p.holds.limit,
    holdNeededByMonths: p.holds.neededByMonths,
    blockMoneyOwed: p.blocks.moneyOwed,
    blockOverdueItems: p.blocks.overdueItems,
  });
  for (const t of p.patronTypes) put('patronType', String(t.code), { name: t.name });
  for (const t of p.itemTypes) put('itemType', t.code, { name: t.name, sip2MediaType: t.sip2MediaType });
  for (const s of p.itemStatuses) put('itemStatus', s.code, { ...s, code: undefined });
  for (const f of p.patronFixedFields)
    put('patronFixedField', String(f.number), {
      label: f.label,
      short: f.short,
      codes: f.codes && f.codes.map((c) => `${c.code}=${c.name}`),
    });
  for (const b of p.branches) {
    put('branch', String(b.id), { name: b.name, address: b.address, institution: b.institution });
    for (const l of b.locations) put('location', l.code, { branch: b.id, ...l, code: undefined });
  }
  for (const r of p.circulationRules) put('rule', ruleKey(r), Object.fromEntries(RULE_VALUES.map((v) => [v, r[v]])));
  return byKind;
}

const ORDER: Kind[] = ['settings', 'patronType', 'itemType', 'itemStatus', 'patronFixedField', 'branch', 'location', 'rule'];
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The changes that make `current` into `wanted`, in the order they are listed (additions and changes, then removals). */
export function plan(current: Profile, wanted: Profile): Change[] {
  const now = objects(current);
  const next = objects(wanted);
  const changes: Change[] = [];
  for (const kind of ORDER) {
    const before = now.get(kind) ?? new Map<string, Flat>();
    const after = next.get(kind) ?? new Map<string, Flat>();
    for (const [key, fields] of after) {
      const was = before.get(key);
      if (!was) {
        changes.push({ action: 'add', kind, key });
        continue;
      }
      const differ = Object.keys(fields).filter((f) => f !== 'code' && !same(was[f], fields[f]));
      if (differ.length)
        changes.push({ action: 'change', kind, key, fields: Object.fromEntries(differ.map((f) => [f, { from: was[f], to: fields[f] }])) });
    }
    for (const key of before.keys()) if (!after.has(key)) changes.push({ action: 'remove', kind, key });
  }
  return changes;
}

const NOUN: Record<Kind, string> = {
  settings: 'settings',
  patronType: 'patron type',
  itemType: 'item type',
  itemStatus: 'item status',
  patronFixedField: 'patron fixed field',
  branch: 'branch',
  location: 'location',
  rule: 'rule',
};
const SIGN = { add: '+', change: '~', remove: '-' } as const;

function show(value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (Array.isArray(value)) return value.length ? value.join(',') : 'none';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** One line a change, as `carrel profile apply` prints it. */
export function describeChange(c: Change): string {
  const head = `${SIGN[c.action]} ${NOUN[c.kind]}${c.kind === 'settings' ? '' : ` ${c.key}`}`;
  if (!c.fields) return head;
  return `${head}: ${Object.entries(c.fields)
    .map(([f, { from, to }]) => `${f} ${show(from)} → ${show(to)}`)
    .join('; ')}`;
}
