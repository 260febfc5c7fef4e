// The one place that reads the environment. Everything else receives a Config.
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface Config {
  host: string;
  port: number;
  /** PostgreSQL connection string; absent selects the embedded PGlite engine. */
  databaseUrl: string | undefined;
  /** PostgreSQL streaming replicas of databaseUrl, for reads that tolerate a little lag (src/db/read-routing.ts). */
  databaseReadUrls: string[];
  /** A replica lagging further behind the primary than this serves no reads until it catches up. */
  replicaMaxLagMs: number;
  /** Directory of the embedded database (PGlite), used when databaseUrl is absent. */
  dataDir: string;
  /**
   * Server processes on the same ports (src/operations/workers.ts); 1: this process serves alone.
   * The embedded engine allows one only: one process owns its data directory.
   */
  workers: number;
  dbPoolMax: number;
  /** Connections of the pool for the search statements planned once (a second pool: QueryOptions.planOnce). */
  dbSearchPoolMax: number;
  /** Seconds to wait for a PostgreSQL connection before calling it unreachable. */
  dbConnectTimeoutSec: number;
  logLevel: string;
  /** Base used to build absolute record URLs (hold ids and links); absent: taken from the request's host. */
  publicBaseUrl: string | undefined;
  tokenLifetimeSec: number;
  /** How long a server process may answer a bearer token from memory without asking the database (0: never). */
  tokenCacheMs: number;
  /** A request's headers must arrive within this long (at most httpRequestTimeoutMs). */
  httpHeadersTimeoutMs: number;
  /** A whole request, headers and body, must arrive within this long; a stalled client gets 408 and is closed. */
  httpRequestTimeoutMs: number;
  /** An idle kept-alive connection is closed after this long. */
  httpKeepAliveTimeoutMs: number;
  /** HTTP connections at once on each port (the main one, the Patron API's), in all and per client address (IPv6: per /64). */
  httpMaxConnections: number;
  httpMaxConnectionsPerAddress: number;
  /** GET /api gives up on the database check after this long and reports it Unhealthy. */
  healthTimeoutMs: number;
  /** Requests per minute per API key and route family, for keys with no limit of their own; 0: unlimited. */
  rateLimitPerMinute: number;
  /** GET /api may answer from a successful database check at most this old (0: every answer waits for a fresh one). */
  healthMaxAgeMs: number;
  /** How often each process re-reads the operator switch (maintenance) and retries a database that was down. */
  statePollMs: number;
  /** How often each server process indexes bibs written since (a write is searchable within about this long). */
  searchIndexMs: number;
  /** On the embedded engine, how often the server vacuums the tables with many dead rows (operations/embedded-vacuum.ts); 0: never. */
  embeddedVacuumMs: number;
  /** The most each process keeps of keys' compressed posting lists in memory, in bytes (search/list-cache.ts). */
  searchListCacheBytes: number;
  /** After SIGTERM, GET /api answers 404 for this long before the listener closes, so a load balancer can notice. */
  shutdownGraceMs: number;
  /** Load the demo catalogue into an empty embedded database at start-up. */
  demoCatalogue: boolean;
  /** The key that seals secrets Carrel keeps (CARREL_SECRETS_KEY); absent: a key file in dataDir (SecretBox). */
  secretsKey: Buffer | undefined;
  /** The library's name, as the public catalogue pages show it. */
  libraryName: string;
  /** Limits on failed patron PIN validations (POST /patrons/validate and /patrons/auth, the catalogue's sign-in). */
  pinLimits: PinLimits;
  /** Time-outs of the public catalogue's patron sessions (src/patron-sessions/). */
  catalogSessions: { idleSec: number; absoluteSec: number };
  /** Limits on failed logins with a secret (POST /token, SIP2 login), per client address and per account. */
  loginLimits: LoginLimits;
  /** Holds and circulation (README, "Holds and circulation"); their rules are the library's profile's. */
  circulation: CirculationConfig;
  /** The SQL door: library-written SQL over the sierra_view views (README, "SQL"). */
  sql: SqlConfig;
  /** The most a JSON query (POST /{bibs,items,patrons}/query) may ask for, read from its shape (README, "JSON queries"). */
  queryLimits: QueryLimits;
  /** The Patron API (README, "Patron API"). */
  patronApi: PatronApiConfig;
  /**
   * The HTTP status of a SOAP fault (README, "SOAP web services"): rest, as REST answers the same
   * failure (400 for the client's, 401, 403, 5xx); 500, every SOAP 1.1 fault 500, for clients
   * (JAX-WS, WCF) that read a fault only from a 500.
   */
  soapFaultStatus: 'rest' | '500';
  /** The SIP2 door's port (README, "SIP2"); null: off. */
  sip2Port: number | null;
  /** PEM files of the SIP2 door's certificate and key; null: plain TCP. */
  sip2Tls: { certFile: string; keyFile: string } | null;
  /** What the SIP2 door allows a connection (README, "SIP2"). */
  sip2Limits: Sip2Limits;
  /** The SFTP door's port (README, "SFTP door and files"); null: off. */
  sftpPort: number | null;
  /** What the SFTP door allows a connection and an upload. */
  sftpLimits: SftpLimits;
  /** The FTP door's port (README, "SFTP door and files"); null: off. */
  ftpPort: number | null;
  /** PEM files of the FTP door's certificate and key; null: one made once and kept in the database. */
  ftpTls: { certFile: string; keyFile: string } | null;
  /** What the FTP door allows a connection; an upload's cap is the SFTP door's (CARREL_SFTP_MAX_FILE_MB). */
  ftpLimits: FtpLimits;
  /** How often the server sends orders to and fetches files from vendors' servers; 0: never (by hand only). */
  ediIntervalMs: number;
}

export interface SftpLimits {
  /** A client that has not logged in this long after connecting is closed. */
  loginTimeoutMs: number;
  /** A connection that has sent and been sent nothing for this long is closed. */
  idleTimeoutMs: number;
  /** Connections at once, in all and per client address (IPv6: per /64). */
  maxConnections: number;
  maxConnectionsPerAddress: number;
  /**
   * An upload past this many bytes fails and nothing of it is kept. A file is stored whole: read
   * into memory and sent as one parameter, which postgres.js sends as hex text (twice the bytes,
   * and a string over ~512 MB cannot be made), and the embedded engine holds it too. Hence at most
   * 200 MB, and 64 MB unless set: MARC and EDIFACT files are far smaller.
   */
  maxFileBytes: number;
  /**
   * What one account's files may hold in Carrel at most, in bytes: every file it sent (kept whole,
   * the library's record of what arrived) and its report in out/. An upload that would pass it
   * fails and nothing of it is kept. Orders waiting in out/ are the library's own and leave once
   * collected: they are not counted, so that orders never stop a vendor's invoices.
   */
  quotaBytes: number;
}

/** The SFTP door's limits when none are set (tests open the door without a Config). */
export const SFTP_LIMITS: SftpLimits = {
  loginTimeoutMs: 30_000,
  idleTimeoutMs: 600_000,
  maxConnections: 100,
  maxConnectionsPerAddress: 10,
  maxFileBytes: 64 * 1024 * 1024,
  quotaBytes: 4096 * 1024 * 1024,
};

export interface FtpLimits {
  /** A client that has not logged in this long after connecting is closed. */
  loginTimeoutMs: number;
  /** A control connection with nothing sent either way for this long, no transfer running, is closed. */
  idleTimeoutMs: number;
  /** A data connection not opened, or open with nothing sent either way, for this long is closed and its transfer fails. */
  dataTimeoutMs: number;
  /** Connections at once, in all and per client address (IPv6: per /64); data connections are not counted. */
  maxConnections: number;
  maxConnectionsPerAddress: number;
  /** The ports passive data connections listen on (inclusive): what a firewall opens. */
  passivePorts: { min: number; max: number };
  /**
   * Whether logins over plain text are taken (USER and PASS before AUTH TLS, or a data connection
   * without PROT P). Off unless set: a password and files sent in clear are read by anyone on the way.
   */
  allowPlain: boolean;
}

/** The FTP door's limits when none are set (tests open the door without a Config). */
export const FTP_LIMITS: FtpLimits = {
  loginTimeoutMs: 30_000,
  idleTimeoutMs: 600_000,
  dataTimeoutMs: 30_000,
  maxConnections: 100,
  maxConnectionsPerAddress: 10,
  passivePorts: { min: 50_000, max: 50_099 },
  allowPlain: false,
};

export interface Sip2Limits {
  /** A kiosk that has not logged in (93) this long after connecting (TLS handshake included) is closed. */
  loginTimeoutMs: number;
  /** A connection that has sent and been sent nothing for this long is closed. */
  idleTimeoutMs: number;
  /** Connections at once, in all and per client address (IPv6: per /64). */
  maxConnections: number;
  maxConnectionsPerAddress: number;
}

/** The SIP2 door's limits when none are set (tests open the door without a Config). */
export const SIP2_LIMITS: Sip2Limits = {
  loginTimeoutMs: 30_000,
  idleTimeoutMs: 1_800_000,
  maxConnections: 1000,
  maxConnectionsPerAddress: 100,
};

/** The SQL door's connection limits when none are set (tests open the door without a Config). */
export const SQL_CONNECTION_LIMITS = { loginTimeoutMs: 10_000, maxConnections: 64, maxConnectionsPerAddress: 16 };

export interface PatronApiConfig {
  /** Client addresses allowed, as CIDR ranges (an address alone is one address). */
  allow: string[];
  /** A port of its own, as Sierra's 4500 / 54620; null: only under the main port. */
  port: number | null;
}

export interface SqlConfig {
  /** A statement is cancelled after this long. */
  statementTimeoutMs: number;
  /** A statement answers at most this many rows (the answer says when there were more). */
  rowCap: number;
  /** Port of Carrel's own PostgreSQL wire door for SQL logins on the embedded engine; null: off. */
  port: number | null;
  /** Host name a SQL login's URL names for that door (README, "SQL"). */
  host: string;
  /** On that port: a client that has not authenticated this long after connecting is closed. */
  loginTimeoutMs: number;
  /** On that port: connections at once, in all and per client address (IPv6: per /64). */
  maxConnections: number;
  maxConnectionsPerAddress: number;
  /** Runs of public saved queries a minute per client address, and per API key for a caller with a token. */
  publicPerMinute: number;
  /** Saved queries this process runs at once (each holds a database connection). */
  queryRuns: number;
  /** Saved query runs waiting for their turn; past them a run is refused. */
  queryRunsWaiting: number;
}

export interface QueryLimits {
  /** Conditions (comparisons) in a query. */
  maxParts: number;
  /** Values (operands) of all its conditions together. */
  maxOperands: number;
  /** Conditions on a MARC field or a bib's field group: each reads every record's MARC it is asked about. */
  maxMarcScans: number;
  /** The longest a query may run; on the embedded engine the engine is started again to end one that runs on. */
  timeoutMs: number;
}

export interface CirculationConfig {
  /** How often each server process runs hold expiry (one process at a time does the work). */
  holdExpiryMs: number;
  /** How many days the circulation transaction log (sierra_view.circ_trans) keeps an event. */
  circTransDays: number;
}

export interface PinLimits {
  /** At most this many failed attempts per barcode in a window of barcodeWindowSec; then 429 until the window ends. */
  barcodeFailures: number;
  barcodeWindowSec: number;
  /** At most this many failed attempts per API key in a window of keyWindowSec. */
  keyFailures: number;
  keyWindowSec: number;
}

export interface LoginLimits {
  /** At most this many failed logins per client address (IPv6: per /64) in a window of windowSec; then 429 (SIP2: 94 not ok). */
  addressFailures: number;
  /** At most this many failed logins per account (an API key, a SIP2 account's name) in a window of windowSec. */
  accountFailures: number;
  windowSec: number;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

/** A comma-separated list of CIDR ranges (IPv4 or IPv6; an address alone is one address). */
function cidrList(env: Env, name: string, fallback: string): string[] {
  const list = (env[name] || fallback)
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  for (const range of list) {
    const [address, bits, ...rest] = range.split('/');
    const family = net.isIP(address ?? '');
    const max = family === 6 ? 128 : 32;
    if (!family || rest.length || (bits !== undefined && !(/^\d{1,3}$/.test(bits) && Number(bits) <= max)))
      throw new ConfigError(`${name}: "${range}" is not an address or a CIDR range such as 10.0.0.0/8 or ::1/128`);
  }
  return list;
}

/** A certificate and key given as two PEM file paths, both or neither. */
function tlsFiles(env: Env, certName: string, keyName: string): { certFile: string; keyFile: string } | null {
  const certFile = env[certName]?.trim();
  const keyFile = env[keyName]?.trim();
  if (!certFile && !keyFile) return null;
  if (!certFile || !keyFile) throw new ConfigError(`${certName} and ${keyName} go together: set both (PEM files) or neither`);
  return { certFile, keyFile };
}

/** MIN-MAX, two ports of 1024 to 65535, at most 10,000 apart: a bounded range a firewall can open. */
function portRange(env: Env, name: string, fallback: { min: number; max: number }): { min: number; max: number } {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const m = /^(\d{1,5})-(\d{1,5})$/.exec(raw);
  const min = Number(m?.[1]);
  const max = Number(m?.[2]);
  if (!m || min < 1024 || max > 65535 || min > max || max - min >= 10_000)
    throw new ConfigError(`${name} must be MIN-MAX, ports of 1024 to 65535 with MIN <= MAX and at most 10000 of them, got "${raw}"`);
  return { min, max };
}

/** 32 bytes, base64: an AES-256 key. */
function key32(env: Env, name: string): Buffer | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  const key = Buffer.from(raw, 'base64');
  if (key.length !== 32 || key.toString('base64') !== raw)
    throw new ConfigError(`${name} must be 32 bytes in base64 (make one with: openssl rand -base64 32)`);
  return key;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

function oneOf<const T extends string>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  const found = values.find((v) => v === raw);
  if (found === undefined) throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${env[name]}"`);
  return found;
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  return checkedUrl(name, raw, protocols);
}

function checkedUrl(name: string, raw: string, protocols: string[]): string {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')}`);
  }
  return raw;
}

/**
 * A PostgreSQL URL. Its `host` parameter, libpq's form for a Unix socket, must be the socket's
 * directory: postgres.js would send any other value to PostgreSQL as a setting it refuses.
 */
function postgresUrl(name: string, raw: string): string {
  checkedUrl(name, raw, ['postgres:', 'postgresql:']);
  const host = new URL(raw).searchParams.get('host');
  if (host !== null && !host.startsWith('/')) {
    throw new ConfigError(
      `${name}'s host parameter must be a socket directory (an absolute path such as /var/run/postgresql), not ${JSON.stringify(host)}; a host name goes in the URL itself`,
    );
  }
  return raw;
}

function databaseUrl(env: Env): string | undefined {
  return env.DATABASE_URL ? postgresUrl('DATABASE_URL', env.DATABASE_URL) : undefined;
}

/** DATABASE_READ_URLS: comma-separated replicas of DATABASE_URL's database (none on the embedded engine). */
function databaseReadUrls(env: Env, onPostgres: boolean): string[] {
  const raw = env.DATABASE_READ_URLS?.trim();
  if (!raw) return [];
  if (!onPostgres) throw new ConfigError('DATABASE_READ_URLS names replicas of a PostgreSQL primary: set DATABASE_URL too');
  return raw.split(',').map((part, i) => {
    const entry = part.trim();
    if (!entry) throw new ConfigError(`DATABASE_READ_URLS has an empty entry (number ${i + 1})`);
    return postgresUrl(`DATABASE_READ_URLS's entry number ${i + 1}`, entry);
  });
}

/** Settings that moved into the library profile: set there, where every server process reads the same. */
const MOVED_TO_PROFILE: Record<string, string> = {
  CARREL_HOLD_LIMIT: 'holds.limit',
  CARREL_HOLD_MONTHS: 'holds.neededByMonths',
  CARREL_LOAN_DAYS: "circulationRules' loanDays",
};

/**
 * The most workers by default: each holds at least 3 + 1 connections, and 16 of them stay under
 * PostgreSQL's default max_connections (100) with room for the command line and SQL logins.
 */
const MOST_DEFAULT_WORKERS = 16;

/**
 * CARREL_WORKERS: the machine's cores on PostgreSQL (at most MOST_DEFAULT_WORKERS). The embedded engine lets one process open its
 * data directory, so more is refused rather than quietly lowered: the operator asked for something
 * this engine cannot do, and would otherwise read a throughput they do not have.
 */
function workers(env: Env, onPostgres: boolean): number {
  const count = int(env, 'CARREL_WORKERS', onPostgres ? Math.min(os.availableParallelism(), MOST_DEFAULT_WORKERS) : 1, 1, 1024);
  if (count > 1 && !onPostgres)
    throw new ConfigError(
      `CARREL_WORKERS=${count}: the embedded engine runs one server process (one process owns the data directory); set DATABASE_URL to run more, or CARREL_WORKERS=1`,
    );
  return count;
}

export function loadConfig(env: Env = process.env): Config {
  const databaseUrlSet = databaseUrl(env);
  const workerCount = workers(env, databaseUrlSet !== undefined);
  // Per process: with many workers, fewer each, so that all of them together stay under
  // PostgreSQL's default max_connections (100) with room for the command line and SQL logins.
  const dbPoolMax = int(env, 'CARREL_DB_POOL_MAX', Math.min(10, Math.max(3, Math.floor(60 / workerCount))), 1, 500);
  for (const [name, member] of Object.entries(MOVED_TO_PROFILE)) {
    if (env[name])
      throw new ConfigError(`${name} is no longer read: set ${member} in the library profile (carrel profile export, then apply)`);
  }
  const publicBaseUrl = url(env, 'CARREL_PUBLIC_URL', ['http:', 'https:']);
  const httpRequest = int(env, 'CARREL_HTTP_REQUEST_TIMEOUT_MS', 10000, 100, 3600000);
  const httpHeaders = int(env, 'CARREL_HTTP_HEADERS_TIMEOUT_MS', 10000, 100, 3600000);
  return {
    host: env.HOST || '127.0.0.1',
    port: int(env, 'PORT', 3000, 0, 65535),
    databaseUrl: databaseUrlSet,
    databaseReadUrls: databaseReadUrls(env, databaseUrlSet !== undefined),
    replicaMaxLagMs: int(env, 'CARREL_REPLICA_MAX_LAG_MS', 1000, 0, 3_600_000),
    dataDir: path.resolve(env.CARREL_DATA_DIR || './data'),
    workers: workerCount,
    dbPoolMax,
    // As many as the machine has cores, shared out among the workers: these statements only compute
    // (their index is in memory), so more connections than cores only take turns on them, and each
    // search waits longer for its turn (README, CARREL_DB_SEARCH_POOL_MAX).
    dbSearchPoolMax: int(env, 'CARREL_DB_SEARCH_POOL_MAX', Math.ceil(os.availableParallelism() / workerCount), 1, 500),
    dbConnectTimeoutSec: int(env, 'CARREL_DB_CONNECT_TIMEOUT', 5, 1, 600),
    logLevel: env.LOG_LEVEL || 'info',
    publicBaseUrl: publicBaseUrl?.replace(/(?<!\/)\/+$/, ''),
    tokenLifetimeSec: int(env, 'CARREL_TOKEN_LIFETIME', 3600, 60, 86400),
    tokenCacheMs: int(env, 'CARREL_TOKEN_CACHE_MS', 5000, 0, 60000),
    httpHeadersTimeoutMs: Math.min(httpHeaders, httpRequest),
    httpRequestTimeoutMs: httpRequest,
    httpKeepAliveTimeoutMs: int(env, 'CARREL_HTTP_KEEP_ALIVE_TIMEOUT_MS', 5000, 100, 600000),
    httpMaxConnections: int(env, 'CARREL_HTTP_MAX_CONNECTIONS', 2000, 1, 100_000),
    httpMaxConnectionsPerAddress: int(env, 'CARREL_HTTP_MAX_CONNECTIONS_PER_ADDRESS', 256, 1, 100_000),
    healthTimeoutMs: int(env, 'CARREL_HEALTH_TIMEOUT_MS', 2000, 50, 60000),
    rateLimitPerMinute: int(env, 'CARREL_RATE_LIMIT', 6000, 0, 100_000_000),
    healthMaxAgeMs: int(env, 'CARREL_HEALTH_MAX_AGE_MS', 100, 0, 10000),
    statePollMs: int(env, 'CARREL_STATE_POLL_MS', 1000, 50, 60000),
    searchIndexMs: int(env, 'CARREL_SEARCH_INDEX_MS', 250, 20, 60000),
    embeddedVacuumMs: int(env, 'CARREL_EMBEDDED_VACUUM_MS', 600_000, 0, 86_400_000),
    searchListCacheBytes: int(env, 'CARREL_SEARCH_LIST_CACHE_MB', 128, 0, 1_048_576) * 1024 * 1024,
    shutdownGraceMs: int(env, 'CARREL_SHUTDOWN_GRACE_MS', 2000, 0, 600000),
    demoCatalogue: bool(env, 'CARREL_DEMO_CATALOGUE', true),
    secretsKey: key32(env, 'CARREL_SECRETS_KEY'),
    libraryName: env.CARREL_LIBRARY_NAME?.trim().slice(0, 100) || 'Carrel Public Library',
    pinLimits: {
      barcodeFailures: int(env, 'CARREL_PIN_BARCODE_FAILURES', 5, 1, 1000),
      barcodeWindowSec: int(env, 'CARREL_PIN_BARCODE_WINDOW', 900, 1, 86400),
      keyFailures: int(env, 'CARREL_PIN_KEY_FAILURES', 100, 1, 1000000),
      keyWindowSec: int(env, 'CARREL_PIN_KEY_WINDOW', 60, 1, 86400),
    },
    catalogSessions: {
      idleSec: int(env, 'CARREL_CATALOG_SESSION_IDLE', 1800, 60, 86400),
      absoluteSec: int(env, 'CARREL_CATALOG_SESSION_MAX', 28800, 300, 2592000),
    },
    loginLimits: {
      addressFailures: int(env, 'CARREL_LOGIN_ADDRESS_FAILURES', 10, 1, 1000000),
      accountFailures: int(env, 'CARREL_LOGIN_ACCOUNT_FAILURES', 50, 1, 1000000),
      windowSec: int(env, 'CARREL_LOGIN_WINDOW', 300, 1, 86400),
    },
    circulation: {
      holdExpiryMs: int(env, 'CARREL_HOLD_EXPIRY_MS', 300000, 1000, 86400000),
      circTransDays: int(env, 'CARREL_CIRC_TRANS_DAYS', 365, 1, 36500),
    },
    sql: {
      statementTimeoutMs: int(env, 'CARREL_SQL_TIMEOUT_MS', 30000, 100, 3600000),
      rowCap: int(env, 'CARREL_SQL_ROW_CAP', 100000, 1, 10000000),
      port: env.CARREL_SQL_PORT ? int(env, 'CARREL_SQL_PORT', 0, 1, 65535) : null,
      host: env.CARREL_SQL_HOST || 'localhost',
      loginTimeoutMs: int(env, 'CARREL_SQL_LOGIN_TIMEOUT_MS', SQL_CONNECTION_LIMITS.loginTimeoutMs, 100, 600_000),
      maxConnections: int(env, 'CARREL_SQL_MAX_CONNECTIONS', SQL_CONNECTION_LIMITS.maxConnections, 1, 10_000),
      maxConnectionsPerAddress: int(
        env,
        'CARREL_SQL_MAX_CONNECTIONS_PER_ADDRESS',
        SQL_CONNECTION_LIMITS.maxConnectionsPerAddress,
        1,
        10_000,
      ),
      publicPerMinute: int(env, 'CARREL_QUERY_PUBLIC_RATE_LIMIT', 60, 1, 1_000_000),
      // Half the main pool at most, so other requests always have connections of their own.
      queryRuns: int(env, 'CARREL_QUERY_RUNS', Math.max(1, Math.min(4, Math.floor(dbPoolMax / 2))), 1, 500),
      queryRunsWaiting: int(env, 'CARREL_QUERY_RUNS_WAITING', 20, 0, 10_000),
    },
    queryLimits: {
      maxParts: int(env, 'CARREL_QUERY_MAX_PARTS', 100, 1, 1000),
      maxOperands: int(env, 'CARREL_QUERY_MAX_OPERANDS', 1000, 1, 10_000),
      maxMarcScans: int(env, 'CARREL_QUERY_MAX_MARC_SCANS', 10, 0, 1000),
      timeoutMs: int(env, 'CARREL_QUERY_TIMEOUT_MS', 30_000, 100, 3_600_000),
    },
    patronApi: {
      allow: cidrList(env, 'CARREL_PATRONAPI_ALLOW', '127.0.0.1/32,::1/128'),
      port: env.CARREL_PATRONAPI_PORT ? int(env, 'CARREL_PATRONAPI_PORT', 0, 1, 65535) : null,
    },
    soapFaultStatus: oneOf(env, 'CARREL_SOAP_FAULT_STATUS', ['rest', '500'] as const, 'rest'),
    sip2Port: env.CARREL_SIP2_PORT ? int(env, 'CARREL_SIP2_PORT', 0, 1, 65535) : null,
    sip2Tls: tlsFiles(env, 'CARREL_SIP2_TLS_CERT', 'CARREL_SIP2_TLS_KEY'),
    sip2Limits: {
      loginTimeoutMs: int(env, 'CARREL_SIP2_LOGIN_TIMEOUT_MS', SIP2_LIMITS.loginTimeoutMs, 100, 3_600_000),
      idleTimeoutMs: int(env, 'CARREL_SIP2_IDLE_TIMEOUT_MS', SIP2_LIMITS.idleTimeoutMs, 1000, 86_400_000),
      maxConnections: int(env, 'CARREL_SIP2_MAX_CONNECTIONS', SIP2_LIMITS.maxConnections, 1, 100_000),
      maxConnectionsPerAddress: int(env, 'CARREL_SIP2_MAX_CONNECTIONS_PER_ADDRESS', SIP2_LIMITS.maxConnectionsPerAddress, 1, 100_000),
    },
    ediIntervalMs: int(env, 'CARREL_EDI_INTERVAL_MS', 0, 0, 7 * 86_400_000),
    ftpPort: env.CARREL_FTP_PORT ? int(env, 'CARREL_FTP_PORT', 0, 1, 65535) : null,
    ftpTls: tlsFiles(env, 'CARREL_FTP_TLS_CERT', 'CARREL_FTP_TLS_KEY'),
    ftpLimits: {
      loginTimeoutMs: int(env, 'CARREL_FTP_LOGIN_TIMEOUT_MS', FTP_LIMITS.loginTimeoutMs, 100, 3_600_000),
      idleTimeoutMs: int(env, 'CARREL_FTP_IDLE_TIMEOUT_MS', FTP_LIMITS.idleTimeoutMs, 1000, 86_400_000),
      dataTimeoutMs: int(env, 'CARREL_FTP_DATA_TIMEOUT_MS', FTP_LIMITS.dataTimeoutMs, 100, 3_600_000),
      maxConnections: int(env, 'CARREL_FTP_MAX_CONNECTIONS', FTP_LIMITS.maxConnections, 1, 100_000),
      maxConnectionsPerAddress: int(env, 'CARREL_FTP_MAX_CONNECTIONS_PER_ADDRESS', FTP_LIMITS.maxConnectionsPerAddress, 1, 100_000),
      passivePorts: portRange(env, 'CARREL_FTP_PASSIVE_PORTS', FTP_LIMITS.passivePorts),
      allowPlain: bool(env, 'CARREL_FTP_ALLOW_PLAIN', FTP_LIMITS.allowPlain),
    },
    sftpPort: env.CARREL_SFTP_PORT ? int(env, 'CARREL_SFTP_PORT', 0, 1, 65535) : null,
    sftpLimits: {
      loginTimeoutMs: int(env, 'CARREL_SFTP_LOGIN_TIMEOUT_MS', SFTP_LIMITS.loginTimeoutMs, 100, 3_600_000),
      idleTimeoutMs: int(env, 'CARREL_SFTP_IDLE_TIMEOUT_MS', SFTP_LIMITS.idleTimeoutMs, 1000, 86_400_000),
      maxConnections: int(env, 'CARREL_SFTP_MAX_CONNECTIONS', SFTP_LIMITS.maxConnections, 1, 100_000),
      maxConnectionsPerAddress: int(env, 'CARREL_SFTP_MAX_CONNECTIONS_PER_ADDRESS', SFTP_LIMITS.maxConnectionsPerAddress, 1, 100_000),
      // A file is kept whole in the database (bytea holds at most 1 GB).
      maxFileBytes: int(env, 'CARREL_SFTP_MAX_FILE_MB', SFTP_LIMITS.maxFileBytes / 1024 / 1024, 1, 200) * 1024 * 1024,
      quotaBytes: int(env, 'CARREL_SFTP_QUOTA_MB', SFTP_LIMITS.quotaBytes / 1024 / 1024, 1, 1_000_000) * 1024 * 1024,
    },
  };
}
