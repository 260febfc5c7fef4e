// SQL for saved queries (table saved_queries, migration 0034).
import type { Queryable } from '../db/types.ts';
import type { ParameterDef } from './parameters.ts';

export interface SavedQueryRow {
  id: string;
  name: string;
  description: string;
  statement: string;
  parameters: ParameterDef[];
  public: boolean;
  createdDate: Date;
  updatedDate: Date;
}

export interface SavedQueryFields {
  name: string;
  description: string;
  statement: string;
  parameters: ParameterDef[];
  public: boolean;
}

const COLUMNS = `id::text, name, description, statement, parameters, public, created_date as "createdDate", updated_date as "updatedDate"`;

export async function insert(tx: Queryable, fields: SavedQueryFields): Promise<string> {
  const [row] = await tx.query<{ id: string }>(
    `insert into saved_queries (name, description, statement, parameters, public)
     values ($1, $2, $3, $4::text::jsonb, $5) returning id::text`,
    [fields.name, fields.description, fields.statement, JSON.stringify(fields.parameters), fields.public],
  );
  return row!.id;
}

export async function update(tx: Queryable, id: string, fields: SavedQueryFields): Promise<boolean> {
  const rows = await tx.query(
    `update saved_queries set name = $2, description = $3, statement = $4, parameters = $5::text::jsonb, public = $6, updated_date = now()
     where id = $1::bigint returning id`,
    [id, fields.name, fields.description, fields.statement, JSON.stringify(fields.parameters), fields.public],
  );
  return rows.length > 0;
}

export async function find(tx: Queryable, id: string): Promise<SavedQueryRow | undefined> {
  const [row] = await tx.query<SavedQueryRow>(`select ${COLUMNS} from saved_queries where id = $1::bigint`, [id]);
  return row;
}

export async function list(tx: Queryable, page: { limit: number; offset: number }): Promise<SavedQueryRow[]> {
  return tx.query<SavedQueryRow>(`select ${COLUMNS} from saved_queries order by id limit $1 offset $2`, [page.limit, page.offset]);
}

export async function remove(tx: Queryable, id: string): Promise<boolean> {
  return (await tx.query('delete from saved_queries where id = $1::bigint returning id', [id])).length > 0;
}
