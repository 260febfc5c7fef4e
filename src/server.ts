// Process entry: config, database, HTTP listener, graceful shutdown. With CARREL_WORKERS above 1
// this process becomes the primary of that many workers (src/operations/workers.ts), each of which
// runs the rest of this file.
import cluster from 'node:cluster';
import fs from 'node:fs';
import type http from 'node:http';
import tls from 'node:tls';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { DataDirBusyError } from './db/embedded-lock.ts';
import { openReadReplicas, openServerDb } from './db/open.ts';
import { ReadMarks } from './db/read-marks.ts';
import type { ReplicaState } from './db/replicas.ts';
import { Supervisor } from './operations/supervisor.ts';
import { holdExpiry } from './holds/expiry.ts';
import { loggable } from './shared/log.ts';
import { MemoryReturn } from './operations/memory-return.ts';
import { Periodic } from './operations/periodic.ts';
import { embeddedVacuum } from './operations/embedded-vacuum.ts';
import { drainQueue } from './search/indexer.ts';
import { loadDemoIfEmpty } from './demo/load.ts';
import { startSqlDoor } from './sql/wire/start.ts';
import { servePatronApi } from './patron-api/index.ts';
import { openSipDoor } from './sip2/server.ts';
import { openSftpDoor } from './sftp/index.ts';
import { openFtpDoor } from './ftp/index.ts';
import { VERSION_STRING } from './version.ts';
import { listen } from './shared/listen.ts';
import { isWorkerMessage, runPrimary, type WorkerMessage } from './operations/workers.ts';

function fail(message: string): never {
  process.stderr.write(`carrel: ${message}\n`);
  process.exit(1);
}

/** A certificate and key read from their PEM files, or a start refused that names the file. */
function readTlsFiles(files: { certFile: string; keyFile: string }, certName: string, keyName: string): { cert: Buffer; key: Buffer } {
  const read = (file: string, name: string) => {
    try {
      return fs.readFileSync(file);
    } catch (error) {
      return fail(`${name}: cannot read ${file} (${error instanceof Error ? error.message : String(error)})`);
    }
  };
  const pair = { cert: read(files.certFile, certName), key: read(files.keyFile, keyName) };
  try {
    tls.createSecureContext(pair);
  } catch (error) {
    fail(`${certName}, ${keyName}: not a PEM certificate and its key (${error instanceof Error ? error.message : String(error)})`);
  }
  return pair;
}

/** The doors besides REST that are open, one banner line each. */
interface OpenDoors {
  patronApiPort?: number;
  sqlPort?: number;
  sip2Port?: number;
  sftpPort?: number;
  ftpPort?: number;
}

/**
 * Stops an HTTP listener: no new connections, idle ones closed, requests in flight answered. Node
 * stops timing slow clients once a listener closes, so one whose request never ends would hold the
 * close for ever: what is still open after waitMs is cut.
 */
async function closeListener(server: http.Server, close: () => Promise<unknown>, waitMs: number): Promise<void> {
  const cut = setTimeout(() => server.closeAllConnections(), waitMs);
  try {
    await close();
  } finally {
    clearTimeout(cut);
  }
}

function banner(config: Config, address: string, demo: number, doors: OpenDoors): string {
  const host = new URL(address).hostname;
  const engine = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`;
  return [
    '',
    `  Carrel ${VERSION_STRING} is listening on ${address}`,
    `  database:  ${engine}${demo ? ` (new: loaded a demo catalogue of ${demo} bibs)` : ''}`,
    `  status:    ${address}/api`,
    `  API docs:  ${address}/docs`,
    '  API key:   npx carrel keys create --name demo --roles all',
    `  token:     curl -u KEY:SECRET -X POST ${address}/v6/token`,
    `  bibs:      curl -H "Authorization: Bearer TOKEN" ${address}/v6/bibs`,
    ...(doors.patronApiPort
      ? [`  Patron API: http://${host}:${doors.patronApiPort}/PATRONAPI/{barcode}/dump (and ${address}/PATRONAPI)`]
      : []),
    ...(doors.sqlPort ? [`  SQL:       postgres://LOGIN@${host}:${doors.sqlPort}/carrel (logins: npx carrel sql users create NAME)`] : []),
    ...(doors.sip2Port ? [`  SIP2:      ${host}:${doors.sip2Port} (accounts: npx carrel sip accounts create NAME --institution ID)`] : []),
    ...(doors.sftpPort ? [`  SFTP:      sftp -P ${doors.sftpPort} NAME@${host} (accounts: npx carrel sftp accounts create NAME)`] : []),
    ...(doors.ftpPort ? [`  FTP:       lftp -p ${doors.ftpPort} -u NAME ${host} (FTPS, AUTH TLS; the SFTP door's accounts)`] : []),
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
  if (cluster.isPrimary && config.workers > 1)
    return runPrimary(config.workers, config.logLevel, config.shutdownGraceMs + config.httpRequestTimeoutMs);
  const ftpTls = config.ftpTls ? readTlsFiles(config.ftpTls, 'CARREL_FTP_TLS_CERT', 'CARREL_FTP_TLS_KEY') : undefined;
  const sipTls = config.sip2Tls ? readTlsFiles(config.sip2Tls, 'CARREL_SIP2_TLS_CERT', 'CARREL_SIP2_TLS_KEY') : undefined;
  const db = await openServerDb(config).catch((error: unknown) => {
    if (error instanceof DataDirBusyError) {
      fail(`${error.message} (another Carrel server?). Stop it, or set CARREL_DATA_DIR to another directory.`);
    }
    throw error;
  });
  let announce = (_replica: ReplicaState): void => {};
  const replicas = await openReadReplicas(config, db, (replica) => announce(replica));
  const { app, state, services, flushLogs } = await buildApp({ config, db, ...(replicas && { replicas }) });
  announce = (replica) => {
    if (replica.inRotation) app.log.info({ replica: replica.name, lagMs: replica.lagMs }, 'read replica in rotation');
    else app.log.warn({ replica: replica.name, lagMs: replica.lagMs, reason: replica.reason }, 'read replica out of rotation');
  };
  for (const replica of replicas?.states() ?? []) announce(replica);
  const supervisor = new Supervisor(
    db,
    state,
    app.log,
    config.statePollMs,
    (error) => {
      app.log.fatal(error.message);
      flushLogs();
      fail(error.message);
    },
    async () => {
      // A starter that cannot be applied must not keep the library from being served.
      const started = await services.library.startIfNew().catch((error: unknown) => {
        app.log.error({ err: loggable(error) }, 'could not apply the starter profile');
        return false;
      });
      if (started) app.log.info('a new library: applied the starter profile (profiles/starter.yaml)');
    },
  );
  // Migrate now when the database answers; when it does not, the server still starts, reports
  // Unhealthy, and the supervisor migrates as soon as the database can be reached.
  await supervisor.tick();
  supervisor.start();
  const expiry = holdExpiry(services.holds, state, app.log, config.circulation.holdExpiryMs);
  expiry.start();
  const indexing = new Periodic('search indexing', state, app.log, config.searchIndexMs, async () => {
    // Stops between batches when the service is shutting down or switched off, or an import runs.
    await drainQueue(db, undefined, 1, () => !state.notRunningReason() && !state.importing);
  });
  indexing.start();
  // Answers kept for Idempotency-Key retries are forgotten after 24 h (src/idempotency/service.ts).
  const forgetting = new Periodic('idempotency expiry', state, app.log, 3_600_000, async () => {
    const forgotten = await services.idempotency.forgetOld();
    if (forgotten) app.log.info({ forgotten }, 'idempotency keys past their 24 h forgotten');
  });
  forgetting.start();
  // The circulation log keeps CARREL_CIRC_TRANS_DAYS (src/circ-log/service.ts).
  const circLogExpiry = new Periodic('circulation log expiry', state, app.log, 3_600_000, async () => {
    const forgotten = await services.circLog.forgetOld();
    if (forgotten) app.log.info({ forgotten }, 'circulation log events past their kept period deleted');
  });
  circLogExpiry.start();
  // Ended catalogue sessions are deleted when next read; those never read again, here.
  const sessionSweep = new Periodic('catalogue session sweep', state, app.log, 600_000, async () => {
    const swept = await services.patronSessions.sweep();
    if (swept) app.log.info({ swept }, 'ended catalogue sessions deleted');
  });
  sessionSweep.start();
  // A SQL login connected to PostgreSQL can lift its own statement_timeout: its statements are
  // also cancelled from here when they outrun it. It may connect to its own database only: its
  // sessions in any other database of the cluster are ended from here too.
  const sqlWatch = new Periodic('SQL login time-out', state, app.log, 5_000, async () => {
    const cancelled = await services.sqlLogins.cancelOverdue();
    if (cancelled) app.log.warn({ cancelled }, 'SQL login statements cancelled after CARREL_SQL_TIMEOUT_MS');
    const ended = await services.sqlLogins.endSessionsElsewhere();
    if (ended) app.log.warn({ ended }, 'SQL login sessions in other databases of the cluster ended');
  });
  if (config.databaseUrl) sqlWatch.start();
  // Clients' last writes, kept for read-your-writes: after ten minutes (or twice the lag a replica
  // in rotation may have) every replica in rotation has long since replayed them.
  const readMarks = new ReadMarks(db);
  const keepMarksSec = Math.max(600, Math.ceil((2 * config.replicaMaxLagMs) / 1000));
  const marksSweep = new Periodic('read-your-writes marks sweep', state, app.log, 600_000, () => readMarks.forgetOlderThan(keepMarksSec));
  if (replicas) marksSweep.start();
  const memoryReturn = new MemoryReturn();
  memoryReturn.start();
  let demo = 0;
  if (!config.databaseUrl && config.demoCatalogue && state.schemaReady) demo = await loadDemoIfEmpty(db);
  if (demo) app.log.info({ records: demo }, 'loaded the demo catalogue into the new embedded database');
  // PostgreSQL's autovacuum keeps its tables; the embedded engine has none (operations/embedded-vacuum.ts).
  const vacuumDeadRows = embeddedVacuum(db);
  const vacuuming =
    config.databaseUrl || config.embeddedVacuumMs === 0
      ? undefined
      : new Periodic('embedded vacuum', state, app.log, config.embeddedVacuumMs, async () => {
          const vacuumed = await vacuumDeadRows();
          if (vacuumed === 'all' || vacuumed.length > 0) app.log.info({ tables: vacuumed }, 'vacuumed');
        });
  void vacuuming?.tick();
  vacuuming?.start();
  const sqlDoor = state.schemaReady ? await startSqlDoor(config, db, services.sqlLogins, app.log) : undefined;
  const patronApiServer = config.patronApi.port === null ? undefined : servePatronApi(app, config);
  const sipDoor =
    config.sip2Port === null
      ? undefined
      : await openSipDoor({
          services,
          libraryName: config.libraryName,
          host: config.host,
          port: config.sip2Port,
          log: app.log,
          tls: sipTls,
          limits: config.sip2Limits,
        });
  if (sipDoor) app.log.info({ port: sipDoor.port }, 'SIP2 clients connect here');
  const sftpDoor =
    config.sftpPort === null || !state.schemaReady
      ? undefined
      : await openSftpDoor({
          accounts: services.sftpAccounts,
          files: services.files,
          orders: services.ediTransport,
          host: config.host,
          port: config.sftpPort,
          log: app.log,
          limits: config.sftpLimits,
        });
  if (sftpDoor) app.log.info({ port: sftpDoor.port }, 'SFTP clients connect here');
  const ftpDoor =
    config.ftpPort === null || !state.schemaReady
      ? undefined
      : await openFtpDoor({
          accounts: services.sftpAccounts,
          files: services.files,
          host: config.host,
          port: config.ftpPort,
          log: app.log,
          limits: config.ftpLimits,
          maxFileBytes: config.sftpLimits.maxFileBytes,
          quotaBytes: config.sftpLimits.quotaBytes,
          tls: ftpTls,
        });
  if (ftpDoor)
    app.log.info(
      { port: ftpDoor.port, passivePorts: config.ftpLimits.passivePorts, allowPlain: config.ftpLimits.allowPlain },
      'FTP clients connect here',
    );
  // Files waiting, and files whose process died while processing them (their lease ran out), are
  // processed here; each is claimed by one process only.
  const fileProcessing = new Periodic('file processing', state, app.log, 30_000, () => services.files.processWaiting());
  fileProcessing.start();
  // Orders out to vendors' servers and their files in, by one server process at a time.
  const ediTransport = new Periodic('EDI send and fetch', state, app.log, config.ediIntervalMs || 3_600_000, async () => {
    const run = await services.ediTransport.scheduled();
    for (const r of run?.sent ?? []) if (r.error) app.log.warn({ vendor: r.vendor, outcome: r.outcome, error: r.error }, 'EDI send');
    for (const r of run?.fetched ?? [])
      for (const problem of [...(r.error ? [r.error] : []), ...r.files.flatMap((f) => (f.error ? [`${f.name}: ${f.error}`] : []))])
        app.log.warn({ vendor: r.vendor, error: problem }, 'EDI fetch');
  });
  if (config.ediIntervalMs > 0) ediTransport.start();

  let stopping = false;
  const shutdown = (signal: string, graceMs: number) => {
    // A worker's primary asks once and kills it on a second signal of its own; a worker may hear
    // the same signal directly too (a terminal's Ctrl-C, systemd's stop reach every process).
    if (stopping && cluster.isWorker) return;
    if (stopping) {
      app.log.warn({ signal }, 'second signal: exiting now');
      flushLogs();
      process.exit(1);
    }
    stopping = true;
    state.draining = true; // GET /api answers 404 from now on, other routes 503
    app.log.info({ signal, graceMs }, 'shutting down: draining');
    setTimeout(() => {
      void (async () => {
        await Promise.all([
          closeListener(app.server, () => app.close(), config.httpRequestTimeoutMs),
          patronApiServer &&
            closeListener(patronApiServer, () => new Promise((resolve) => patronApiServer.close(resolve)), config.httpRequestTimeoutMs),
        ]);
        await sqlDoor?.close();
        await sipDoor?.close();
        await sftpDoor?.close();
        await ftpDoor?.close();
        await fileProcessing.stop();
        await ediTransport.stop();
        await supervisor.stop();
        await expiry.stop();
        await indexing.stop();
        await forgetting.stop();
        await circLogExpiry.stop();
        await sessionSweep.stop();
        await marksSweep.stop();
        await replicas?.stop();
        await sqlWatch.stop();
        await vacuuming?.stop();
        memoryReturn.stop();
        await db.close();
        app.log.info('stopped');
        flushLogs();
        process.exit(0);
      })().catch((error: unknown) => {
        app.log.error({ err: loggable(error) }, 'error while shutting down');
        flushLogs();
        process.exit(1);
      });
    }, graceMs);
  };
  process.on('SIGTERM', () => shutdown('SIGTERM', config.shutdownGraceMs));
  process.on('SIGINT', () => shutdown('SIGINT', 0));
  process.on('message', (message: unknown) => {
    if (isWorkerMessage(message) && message.carrel === 'stop')
      shutdown(message.signal, message.signal === 'SIGTERM' ? config.shutdownGraceMs : 0);
  });

  const address = await app.listen({ host: config.host, port: config.port });
  if (patronApiServer) {
    await listen(patronApiServer, config.patronApi.port!, config.host);
    app.log.info({ port: config.patronApi.port }, 'the Patron API answers on its own port too');
  }
  const text = banner(config, address, demo, {
    patronApiPort: config.patronApi.port ?? undefined,
    sqlPort: sqlDoor?.port,
    sip2Port: sipDoor?.port,
    sftpPort: sftpDoor?.port,
    ftpPort: ftpDoor?.port,
  });
  // A worker tells its primary, which writes the banner once every worker listens.
  const ready: WorkerMessage = { carrel: 'ready', banner: text };
  if (cluster.isWorker) process.send!(ready);
  else process.stderr.write(text + '\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`carrel: could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
