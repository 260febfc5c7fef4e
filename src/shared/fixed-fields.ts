// Sierra's fixed-length fields, once for every door: the REST `fixedFields` of bibs, items and
// patrons, the JSON query language's `{"record": {"type": …}, "id": N}` targets, the Patron API's
// `LABEL[pN]=` lines and the SQL views' names. A field is known by its record type and number;
// Sierra answers `{"<n>": {"label", "value", "display"?}}` with the long label, and the Patron API
// and Create Lists print the short one. Numbers and labels are Sierra's defaults (its "Fixed-length
// fields" documentation, checked against answers published Sierra clients keep as fixtures).

export type RecordKind = 'bib' | 'item' | 'patron' | 'holding' | 'order';

export interface FixedFieldDef {
  /** The label in REST answers. */
  readonly label: string;
  /** The short label of the Patron API dump and of Create Lists. */
  readonly short: string;
}

const def = (label: string, short: string): FixedFieldDef => ({ label, short });

/** Fields every record type has (Sierra numbers them the same in each). */
const EVERY_RECORD = {
  80: def('Record Type', 'REC TYPE'),
  81: def('Record Number', 'RECORD #'),
  83: def('Created Date', 'CREATED'),
  84: def('Updated Date', 'UPDATED'),
  85: def('No. of Revisions', 'REVISIONS'),
  86: def('Agency', 'AGENCY'),
  98: def('PDATE', 'PDATE'),
} as const;

export const FIXED_FIELDS = {
  bib: {
    24: def('Language', 'LANG'),
    25: def('Skip', 'SKIP'),
    26: def('Location', 'LOCATION'),
    27: def('COPIES', 'COPIES'),
    28: def('Cat. Date', 'CAT DATE'),
    29: def('Bib Level', 'BIB LVL'),
    30: def('Material Type', 'MAT TYPE'),
    31: def('Bib Code 3', 'BCODE3'),
    89: def('Country', 'COUNTRY'),
    107: def('MARC Type', 'MARC TYPE'),
    ...EVERY_RECORD,
  },
  item: {
    57: def('BIB HOLD', 'BIB HOLD'),
    58: def('Copy No.', 'COPY #'),
    59: def('Item Code 1', 'ICODE1'),
    60: def('Item Code 2', 'ICODE2'),
    61: def('Item Type', 'I TYPE'),
    62: def('Price', 'PRICE'),
    63: def('Checkout Date', 'OUT DATE'),
    64: def('Checkout Location', 'OUT LOC'),
    65: def('Due Date', 'DUE DATE'),
    68: def('Last Checkin', 'LCHKIN'),
    70: def('Checkin Location', 'IN LOC'),
    71: def('No. of Renewals', '# RENEWALS'),
    76: def('Total Checkouts', 'TOT CHKOUT'),
    77: def('Total Renewals', 'TOT RENEW'),
    78: def('Last Checkout Date', 'LOUTDATE'),
    79: def('Location', 'LOCATION'),
    88: def('Status', 'STATUS'),
    93: def('Inhouse Use', 'INTL USE'),
    94: def('Copy Use', 'COPY USE'),
    97: def('Item Message', 'IMESSAGE'),
    108: def('OPAC Message', 'OPACMSG'),
    109: def('Year-to-Date Circ', 'YTDCIRC'),
    110: def('Last Year Circ', 'LYRCIRC'),
    ...EVERY_RECORD,
  },
  patron: {
    43: def('Expiration Date', 'EXP DATE'),
    44: def('Patron Code 1', 'PCODE1'),
    45: def('Patron Code 2', 'PCODE2'),
    46: def('Patron Code 3', 'PCODE3'),
    47: def('Patron Type', 'P TYPE'),
    48: def('Total Checkouts', 'TOT CHKOUT'),
    49: def('Total Renewals', 'TOT RENWAL'),
    50: def('Current Checkouts', 'CUR CHKOUT'),
    51: def('Birth Date', 'BIRTH DATE'),
    53: def('Home Library', 'HOME LIBR'),
    54: def('Patron Message', 'PMESSAGE'),
    56: def('Manual Block', 'MBLOCK'),
    95: def('Claims Returned', 'CL RTRND'),
    96: def('Money Owed', 'MONEY OWED'),
    102: def('Current Item A', 'CUR ITEMA'),
    103: def('Current Item B', 'CUR ITEMB'),
    124: def('Current Item C', 'CUR ITEMC'),
    125: def('Current Item D', 'CUR ITEMD'),
    126: def('Patron Code 4', 'PCODE4'),
    163: def('Last Circ Activity', 'CIRCACTIVE'),
    268: def('Notice Preference', 'NOTICE PREF'),
    ...EVERY_RECORD,
  },
  // Holdings (checkin) records.
  holding: {
    35: def('Label Type', 'LABEL TYPE'),
    36: def('Serial Code 1', 'SCODE1'),
    37: def('Serial Code 2', 'SCODE2'),
    38: def('Copies', 'COPIES'),
    39: def('Claim On', 'CLAIMON'),
    40: def('Location', 'LOCATION'),
    41: def('Recv Location', 'RECV LOC'),
    42: def('Vendor', 'VENDOR'),
    118: def('Serial Code 3', 'SCODE3'),
    119: def('Serial Code 4', 'SCODE4'),
    120: def('Update Count', 'UPDATE CNT'),
    121: def('Piece Count', 'PIECE CNT'),
    137: def('E-Checkin', 'ECHECKIN'),
    159: def('Media Type', 'MEDIA TYPE'),
    266: def('Inherit Location', 'INHERIT LOC'),
    ...EVERY_RECORD,
  },
  // Order records (Sierra's order fixed fields Carrel keeps).
  order: {
    1: def('Acq Type', 'ACQ TYPE'),
    2: def('Location', 'LOCATION'),
    3: def('Cat Date', 'CDATE'),
    4: def('Claim', 'CLAIM'),
    5: def('Copies', 'COPIES'),
    13: def('Order Date', 'ODATE'),
    17: def('Received Date', 'RDATE'),
    19: def('Billing Location', 'BLOC'),
    20: def('Order Status', 'STATUS'),
    ...EVERY_RECORD,
  },
} as const satisfies Record<RecordKind, Record<number, FixedFieldDef>>;

/**
 * Patron fixed fields Carrel derives from its own members (dates, type, home library, block, money,
 * loan counts) or from the record itself: a library profile cannot define them, and a patron write
 * sets them through their members. Every other number is the library's to define.
 */
export const CARREL_PATRON_FIXED_FIELDS: ReadonlySet<number> = new Set([
  43,
  47,
  48,
  49,
  50,
  51,
  53,
  56,
  95,
  96,
  102,
  103,
  124,
  125,
  163,
  ...Object.keys(EVERY_RECORD).map(Number),
]);

export type FixedFieldNumber<K extends RecordKind> = keyof (typeof FIXED_FIELDS)[K] & number;

/** Sierra's value types: codes and dates as strings, counts and money as numbers, flags as booleans. */
export type FixedFieldValue = string | number | boolean;

export interface FixedField {
  label: string;
  value: FixedFieldValue;
  display?: string;
}

/** One field's value, and its display where the code has a name. */
export type FixedValue = FixedFieldValue | { value: FixedFieldValue; display?: string | null } | null | undefined;

/**
 * A record's `fixedFields`, keyed by number in Sierra's order (ascending). A field whose value is
 * null or undefined is left out: Carrel holds nothing for it.
 */
export function fixedFields<K extends RecordKind>(
  kind: K,
  values: Partial<Record<FixedFieldNumber<K>, FixedValue>>,
): Record<string, FixedField> {
  const table = FIXED_FIELDS[kind] as Record<number, FixedFieldDef>;
  const out: Record<string, FixedField> = {};
  for (const [number, given] of Object.entries(values) as [string, FixedValue][]) {
    if (given === null || given === undefined) continue;
    const { label } = table[Number(number)]!;
    if (typeof given === 'object')
      out[number] = given.display ? { label, value: given.value, display: given.display } : { label, value: given.value };
    else out[number] = { label, value: given };
  }
  return out;
}

// Each field's opening as JSON text, `"24":{"label":"Language","value":`, made once per record type.
const openings = new Map<RecordKind, Map<string, string>>();
function openingsOf(kind: RecordKind): Map<string, string> {
  let map = openings.get(kind);
  if (!map) {
    map = new Map(
      Object.entries(FIXED_FIELDS[kind] as Record<number, FixedFieldDef>).map(([n, d]) => [
        n,
        `"${n}":{"label":${JSON.stringify(d.label)},"value":`,
      ]),
    );
    openings.set(kind, map);
  }
  return map;
}

/**
 * The same `fixedFields` as JSON text, for answers written as text (a harvest page of 2,000 bibs
 * spent a tenth of its time building and collecting these objects).
 */
export function fixedFieldsJson<K extends RecordKind>(kind: K, values: Partial<Record<FixedFieldNumber<K>, FixedValue>>): string {
  const opening = openingsOf(kind);
  let out = '{';
  for (const number in values) {
    const given: FixedValue = values[number as unknown as FixedFieldNumber<K>];
    if (given === null || given === undefined) continue;
    if (out.length > 1) out += ',';
    if (typeof given === 'object')
      out += `${opening.get(number)!}${JSON.stringify(given.value)}${given.display ? `,"display":${JSON.stringify(given.display)}` : ''}}`;
    else out += `${opening.get(number)!}${JSON.stringify(given)}}`;
  }
  return `${out}}`;
}

/** The field list of a record type, for the documentation: number, label, short label. */
export function fixedFieldTable(kind: RecordKind): { number: number; label: string; short: string }[] {
  return Object.entries(FIXED_FIELDS[kind] as Record<number, FixedFieldDef>).map(([number, d]) => ({ number: Number(number), ...d }));
}
