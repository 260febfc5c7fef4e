// The one way the API presents a record: each field of a record type is a function of the row
// (and of what the caller passes along: the API's base URL, a page's items); the answer holds the
// fields asked for (`fields=`), in the order asked, and leaves out those that come out undefined.
// Only the fields asked for are computed, so a costly one (a bib's varFields) costs nothing unasked.
import { instant } from '../shared/instant.ts';

export type FieldShapes<Row, F extends string, Ctx> = { readonly [K in F]: (row: Row, ctx: Ctx) => unknown };

export type Presenter<Row, F extends string, Ctx = void> = (row: Row, fields: readonly F[], ctx: Ctx) => Record<string, unknown>;

export function presenter<Row, F extends string, Ctx = void>(shapes: FieldShapes<Row, F, Ctx>): Presenter<Row, F, Ctx> {
  // A page presents each of its records with the same field list: look its shapes up once.
  let lastFields: readonly F[] | undefined;
  let lastShapes: ((row: Row, ctx: Ctx) => unknown)[] = [];
  return (row, fields, ctx) => {
    if (fields !== lastFields) {
      lastShapes = fields.map((field) => shapes[field]);
      lastFields = fields;
    }
    const out: Record<string, unknown> = {};
    for (let i = 0; i < fields.length; i++) {
      const value = lastShapes[i]!(row, ctx);
      if (value !== undefined) out[fields[i]!] = value;
    }
    return out;
  };
}

/** What every record with a history keeps (docs/api-contract.md, "Records"). */
export interface RecordRow {
  id: string;
  created_date: Date;
  updated_date: Date;
  deleted_date: Date | null;
  suppressed?: boolean;
}

/** The fields every record with a history shows first, in this order (docs/api-contract.md, "Lists"). */
export const RECORD_FIELDS = ['id', 'updatedDate', 'createdDate', 'deletedDate', 'deleted', 'suppressed'] as const;
type SharedField = (typeof RECORD_FIELDS)[number];

/**
 * A presenter of records that leave a tombstone: a deleted record answers only
 * {id, deletedDate, deleted: true}; a live one has the shared fields (id, dates, flags) and its own.
 */
export function recordPresenter<Row extends RecordRow, F extends string, Ctx = void>(
  shapes: FieldShapes<Row, Exclude<F, SharedField>, Ctx>,
): Presenter<Row, F, Ctx> {
  const shared: FieldShapes<Row, SharedField, Ctx> = {
    id: (row) => row.id,
    updatedDate: (row) => instant(row.updated_date),
    createdDate: (row) => instant(row.created_date),
    deletedDate: () => undefined, // only a tombstone carries it
    deleted: () => false,
    suppressed: (row) => row.suppressed,
  };
  const live = presenter<Row, F, Ctx>({ ...shared, ...shapes } as FieldShapes<Row, F, Ctx>);
  return (row, fields, ctx) =>
    row.deleted_date ? { id: row.id, deletedDate: row.deleted_date.toISOString().slice(0, 10), deleted: true } : live(row, fields, ctx);
}
