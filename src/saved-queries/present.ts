// A saved query as the REST door shows it.
import { instant } from '../shared/instant.ts';
import type { SavedQueryRow } from './repository.ts';

export function presentSavedQuery(row: SavedQueryRow, link: string) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    sql: row.statement,
    parameters: row.parameters,
    public: row.public,
    results: `${link}/results`,
    createdDate: instant(row.createdDate),
    updatedDate: instant(row.updatedDate),
  };
}
