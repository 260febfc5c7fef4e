// What every record the API shows shares (DESIGN.md: "Records"): a deleted record answers as its
// tombstone, and a live one starts with its id, dates and flags.
import { instant } from '../shared/instant.ts';

interface RecordRow {
  id: string;
  created_date: Date;
  updated_date: Date;
  deleted_date: Date | null;
  suppressed?: boolean;
}

/** A deleted record's answer, {id, deletedDate, deleted: true}; undefined for a live record. */
export function tombstone(row: RecordRow): Record<string, unknown> | undefined {
  return row.deleted_date ? { id: row.id, deletedDate: row.deleted_date.toISOString().slice(0, 10), deleted: true } : undefined;
}

/** Sets out[field] when field is one of the shared ones (id, dates, deleted, suppressed); false otherwise. */
export function sharedField(row: RecordRow, field: string, out: Record<string, unknown>): boolean {
  switch (field) {
    case 'id': out.id = row.id; return true;
    case 'updatedDate': out.updatedDate = instant(row.updated_date); return true;
    case 'createdDate': out.createdDate = instant(row.created_date); return true;
    case 'deleted': out.deleted = false; return true;
    case 'suppressed': if (row.suppressed !== undefined) out.suppressed = row.suppressed; return true;
    default: return false;
  }
}
