// SQL for the roles SQL readers act as: the reader role of saved queries and `carrel sql`, and the
// login roles (SQL logins) in it, which read the sierra_view views and nothing else of Carrel's.
// Role and setting names cannot be parameters of DDL, so PostgreSQL's format() quotes them from
// parameters, and the statement it makes is run as it is.
import type { Queryable } from '../db/types.ts';

/**
 * The role every SQL reader acts as. Roles belong to the whole PostgreSQL server, so its name
 * carries this database's: a login made for one Carrel database reads nothing of another's.
 */
const READER = `'carrel_reader_' || left(md5(current_database()), 12)`;

async function run(tx: Queryable, template: string, ...args: string[]): Promise<void> {
  const [made] = await tx.query<{ text: string }>('select format($1, variadic $2::text[]) as text', [template, args]);
  await tx.query(made!.text, [], { prepared: false });
}

export async function readerRole(tx: Queryable): Promise<string> {
  const [row] = await tx.query<{ name: string }>(`select ${READER} as name`);
  return row!.name;
}

/**
 * Makes the reader role if it is missing and grants it the views: usage of the schema, select on
 * every view now there and on every one Carrel's later migrations add, and the function they call
 * that runs as its owner (PUBLIC may not: migration 0041). Carrel's own user is made a member, to
 * take the role for a saved query and to cancel a login's over-long statement. Connecting to this
 * database becomes Carrel's user's and the reader's (so its logins') only.
 */
export async function ensureReader(tx: Queryable): Promise<string> {
  const reader = await readerRole(tx);
  // Granted already (another process, an earlier run): nothing is written, so a read replica has
  // nothing new to replay before a statement can run there as the reader.
  if (await readerReady(tx, reader)) return reader;
  const [exists] = await tx.query('select 1 from pg_roles where rolname = $1', [reader]);
  if (!exists) await run(tx, 'create role %I nologin', reader);
  await run(tx, 'grant %I to current_user', reader);
  await run(tx, 'grant usage on schema sierra_view to %I', reader);
  await run(tx, 'grant select on all tables in schema sierra_view to %I', reader);
  await run(tx, 'alter default privileges in schema sierra_view grant select on tables to %I', reader);
  await run(tx, 'grant execute on function public.carrel_sierra_fields(text, bigint, json) to %I', reader);
  await connectOnly(tx, reader);
  await run(tx, 'comment on role %I is %L', reader, 'Carrel: reads the sierra_view views');
  return reader;
}

/** Whether the reader role has everything ensureReader gives it (connecting is checked by connectOnly). */
async function readerReady(tx: Queryable, reader: string): Promise<boolean> {
  const [row] = await tx.query<{ ready: boolean }>(
    `select pg_has_role(current_user, r.oid, 'MEMBER')
        and has_schema_privilege(r.oid, 'sierra_view', 'USAGE')
        and not exists (select 1 from pg_class c where c.relnamespace = 'sierra_view'::regnamespace
                          and c.relkind in ('r', 'v', 'm', 'p', 'f') and not has_table_privilege(r.oid, c.oid, 'SELECT'))
        and has_function_privilege(r.oid, 'public.carrel_sierra_fields(text, bigint, json)', 'EXECUTE')
        and exists (select 1 from pg_default_acl d cross join aclexplode(d.defaclacl) a
                     where d.defaclnamespace = 'sierra_view'::regnamespace and d.defaclrole = (select oid from pg_roles where rolname = current_user)
                       and a.grantee = r.oid and a.privilege_type = 'SELECT')
        and shobj_description(r.oid, 'pg_authid') is not null
        and has_database_privilege(r.oid, current_database(), 'CONNECT')
        and not has_database_privilege('public', current_database(), 'CONNECT') as ready
       from pg_roles r where r.rolname = $1`,
    [reader],
  );
  return row?.ready ?? false;
}

/**
 * Roles belong to the whole cluster, and PostgreSQL lets PUBLIC connect to every database: here
 * only Carrel's user and the reader may, so a login of another database on the cluster cannot. (A
 * database's owner keeps its own right.) Done only while PUBLIC still has it, or the reader lacks
 * it; a user that may not grant it (neither the owner nor a superuser) leaves it as it is: PostgreSQL
 * warns and changes nothing (README, "SQL logins": pg_hba.conf is the cluster administrator's).
 */
async function connectOnly(tx: Queryable, reader: string): Promise<void> {
  const [can] = await tx.query<{ everyone: boolean; reader: boolean; database: string }>(
    `select has_database_privilege('public', current_database(), 'connect') as everyone,
            has_database_privilege($1, current_database(), 'connect') as reader,
            current_database() as database`,
    [reader],
  );
  if (!can!.everyone && can!.reader) return;
  await run(tx, 'grant connect on database %I to current_user, %I', can!.database, reader);
  await run(tx, 'revoke connect on database %I from public', can!.database);
}

export async function roleExists(tx: Queryable, name: string): Promise<boolean> {
  return (await tx.query('select 1 from pg_roles where rolname = $1', [name])).length > 0;
}

export interface LoginSettings {
  statementTimeoutMs: number;
  connectionLimit: number;
}

/** A login role: a member of the reader, with nothing of its own, its password given as a SCRAM verifier. */
export async function createLogin(tx: Queryable, name: string, verifier: string, settings: LoginSettings, created: string): Promise<void> {
  const reader = await ensureReader(tx);
  await run(
    tx,
    `create role %I login password %L in role %I nosuperuser nocreatedb nocreaterole noreplication connection limit ${settings.connectionLimit}`,
    name,
    verifier,
    reader,
  );
  // A login can SET these back; the time-out is also enforced from outside (cancelOverdue).
  await run(tx, 'alter role %I set statement_timeout = %L', name, `${settings.statementTimeoutMs}ms`);
  await run(tx, 'alter role %I set search_path = sierra_view, pg_catalog, pg_temp', name);
  await run(tx, 'alter role %I set idle_in_transaction_session_timeout = %L', name, '10min');
  await run(tx, 'grant %I to current_user', name);
  await run(tx, 'comment on role %I is %L', name, `Carrel SQL login, created ${created}`);
  await tx.query('insert into sql_logins (name, verifier, created_date) values ($1, $2, $3)', [name, verifier, created]);
}

export interface LoginRow {
  name: string;
  comment: string | null;
  sessions: number;
}

/** The logins of this database: the login roles in the reader role, other than Carrel's own user. */
export async function listLogins(tx: Queryable): Promise<LoginRow[]> {
  return tx.query<LoginRow>(
    `select r.rolname as name, shobj_description(r.oid, 'pg_authid') as comment,
            (select count(*)::integer from pg_stat_activity a where a.usesysid = r.oid) as sessions
     from pg_roles g
     join pg_auth_members m on m.roleid = g.oid
     join pg_roles r on r.oid = m.member
     where g.rolname = ${READER} and r.rolcanlogin and r.rolname <> current_user
     order by r.rolname`,
  );
}

/** A login's password verifier (SCRAM-SHA-256), if it is one of this database's logins and its role is there. */
export async function loginVerifier(tx: Queryable, name: string): Promise<string | undefined> {
  const [row] = await tx.query<{ verifier: string | null }>(
    `select l.verifier
     from sql_logins l
     join pg_roles r on r.rolname = l.name
     join pg_auth_members m on m.member = r.oid
     join pg_roles g on g.oid = m.roleid and g.rolname = ${READER}
     where l.name = $1 and r.rolcanlogin and (r.rolvaliduntil is null or r.rolvaliduntil > now())`,
    [name],
  );
  return row?.verifier ?? undefined;
}

/** What the embedded server reports itself as to a wire client, read from its session. */
export async function serverParameters(tx: Queryable): Promise<Record<string, string>> {
  const rows = await tx.query<{ name: string; setting: string }>(
    `select name, setting from pg_settings
     where name in ('server_version', 'server_encoding', 'DateStyle', 'IntervalStyle', 'TimeZone', 'integer_datetimes', 'standard_conforming_strings')`,
  );
  return { client_encoding: 'UTF8', ...Object.fromEntries(rows.map((r) => [r.name, r.setting])) };
}

/** Settings set on this session by SET (not the server's defaults), as name and value. */
export async function sessionSettings(tx: Queryable): Promise<[string, string][]> {
  const rows = await tx.query<{ name: string; setting: string }>(
    `select name, setting from pg_settings where source = 'session' order by name`,
  );
  return rows.map((r) => [r.name, r.setting]);
}

/** Ends the login's sessions, drops what it owns here (temporary objects) and the role. */
export async function dropLogin(tx: Queryable, name: string): Promise<void> {
  await tx.query('select pg_terminate_backend(pid) from pg_stat_activity where usename = $1 and pid <> pg_backend_pid()', [name]);
  await run(tx, 'drop owned by %I', name);
  await run(tx, 'drop role %I', name);
  await tx.query('delete from sql_logins where name = $1', [name]);
}

/**
 * Ends the sessions this database's logins have opened in any other database of the cluster: a
 * login connects to its own database only (PostgreSQL lets PUBLIC connect to a database whose
 * owner has not revoked it). Only logins made here (sql_logins, in the reader role), never another
 * member of the reader such as a Carrel user. Answers how many.
 */
export async function endSessionsElsewhere(tx: Queryable): Promise<number> {
  const rows = await tx.query<{ ended: boolean }>(
    `select pg_terminate_backend(a.pid) as ended
     from pg_stat_activity a
     join public.sql_logins l on l.name = a.usename
     join pg_roles r on r.oid = a.usesysid and r.rolcanlogin and not r.rolsuper
     join pg_auth_members m on m.member = r.oid
     join pg_roles g on g.oid = m.roleid and g.rolname = ${READER}
     where a.datname is distinct from current_database() and a.usename <> current_user and pg_has_role(r.oid, 'member')`,
  );
  return rows.filter((r) => r.ended).length;
}

/**
 * Cancels the statements of this database's logins that have run longer than timeoutMs (a login
 * can lift its own statement_timeout). Answers how many.
 */
export async function cancelOverdue(tx: Queryable, timeoutMs: number): Promise<number> {
  const rows = await tx.query<{ cancelled: boolean }>(
    `select pg_cancel_backend(a.pid) as cancelled
     from pg_stat_activity a
     join pg_auth_members m on m.member = a.usesysid
     join pg_roles g on g.oid = m.roleid and g.rolname = ${READER}
     where a.datname = current_database() and a.state = 'active' and a.usename <> current_user
       and clock_timestamp() - a.query_start > make_interval(secs => $1::double precision / 1000)`,
    [timeoutMs],
  );
  return rows.filter((r) => r.cancelled).length;
}
