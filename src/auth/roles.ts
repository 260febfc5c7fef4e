// Roles a key can hold and the permissions each grants (docs/api-contract.md). A route declares
// the one permission it needs; a key may call it when any of its roles grants that permission.
export const PERMISSIONS = [
  'Bibs_Read',
  'Bibs_Write',
  'Items_Read',
  'Items_Write',
  'Branches_Read',
  'Patrons_Read',
  'Patrons_Write',
  'Patrons_Validate',
  'Patrons_Holds_Read',
  'Patrons_Holds_Write',
  'Patrons_Checkouts_Read',
  'Patrons_Checkouts_Write',
  'Invoices_Read',
  'Invoices_Write',
  'Acquisitions_Read',
  'Acquisitions_Write',
  'Queries_Read',
  'Queries_Write',
  'Files_Read',
  'Files_Write',
  'Admin_Write',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

const catalogueRead: Permission[] = ['Bibs_Read', 'Items_Read', 'Branches_Read'];
const patronsRead: Permission[] = ['Patrons_Read', 'Patrons_Holds_Read', 'Patrons_Checkouts_Read'];

export const ROLES: Record<string, readonly Permission[]> = {
  Bibs_Read: catalogueRead,
  Bibs_Write: [...catalogueRead, 'Bibs_Write', 'Items_Write'],
  Patrons_Read: patronsRead,
  Patrons_Write: [...patronsRead, 'Patrons_Write', 'Patrons_Holds_Write', 'Patrons_Checkouts_Write', 'Patrons_Validate'],
  Patrons_Validate: ['Patrons_Validate'],
  Patrons_Holds_Read: ['Patrons_Holds_Read'],
  Patrons_Holds_Write: ['Patrons_Holds_Read', 'Patrons_Holds_Write'],
  Invoices_Read: ['Invoices_Read', 'Acquisitions_Read'],
  Invoices_Write: ['Invoices_Read', 'Invoices_Write', 'Acquisitions_Read', 'Acquisitions_Write'],
  /** Funds, vendors and orders without invoices: for a selector or an ordering system (EDI). */
  Acquisitions_Read: ['Acquisitions_Read'],
  Acquisitions_Write: ['Acquisitions_Read', 'Acquisitions_Write'],
  /** Saved SQL queries over the sierra_view views: run them (Read), save and delete them (Write). */
  Queries_Read: ['Queries_Read'],
  Queries_Write: ['Queries_Read', 'Queries_Write'],
  /** Files received through the SFTP door: list them and their reports (Read), process one again (Write). */
  Files_Read: ['Files_Read'],
  Files_Write: ['Files_Read', 'Files_Write'],
  /** The library's setup: its profile (branches, locations, types, circulation rules). */
  Admin_Write: [...catalogueRead, 'Admin_Write'],
  /** Everything: for the library's own administration and for trying Carrel out. */
  all: PERMISSIONS,
};

export function isRole(name: string): boolean {
  return Object.hasOwn(ROLES, name);
}

export function permissionsOf(roles: readonly string[]): Set<Permission> {
  return new Set(roles.flatMap((role) => ROLES[role] ?? []));
}
