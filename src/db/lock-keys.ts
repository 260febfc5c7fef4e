// Every advisory lock key Carrel takes, in one place, so that no two uses share a key. Any
// constants will do: they only have to be the same in every Carrel process. (Advisory locks are
// per database.)
export const LOCK_KEYS = {
  /** Migrations, one process at a time (migrate.ts). */
  migrations: 7_243_102_001,
  /** A search rebuild, for as long as it runs (search/rebuild.ts). */
  rebuild: 7_243_102_002,
  /** The change clock and the writers' turn: taken in SQL by migration 0017's functions, which cannot import these. */
  clock: 7_243_102_003,
  writes: 7_243_102_004,
  /** An import, for as long as it runs (bibs/import.ts). */
  import: 7_243_102_005,
  /** The tests' template database, while one process builds it (test/helpers/db.ts). */
  testTemplate: 7_243_102_006,
  /** A library profile being applied (library/service.ts). */
  profile: 7_243_102_007,
  /** Sending orders to and fetching files from vendors' servers, one process at a time (acquisitions/edi-transport). */
  ediTransport: 7_243_102_008,
  /** The search docs' writing turn, held by each index write to its commit (search/index-repository.ts). */
  searchDocs: 7_243_102_009,
} as const;
