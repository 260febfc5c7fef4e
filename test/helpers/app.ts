// An app on a fresh test database with its log lines captured, for app.inject tests.
import { Writable } from 'node:stream';
import { buildApp, type AppOptions, type BuiltApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { createTestDb, type TestDb } from './db.ts';

export interface TestApp extends BuiltApp {
  testDb: TestDb;
  config: Config;
  /** Every log line written so far, parsed. */
  logs: Record<string, unknown>[];
  /** The raw log text, for searching for leaked secrets. */
  logText(): string;
  close(): Promise<void>;
}

export function captureLogs(): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { stream, lines };
}

export async function createTestApp(env: Record<string, string> = {}, options: Pick<AppOptions, 'clock'> = {}): Promise<TestApp> {
  const testDb = await createTestDb();
  const config = loadConfig({ LOG_LEVEL: 'info', ...env });
  const { stream, lines } = captureLogs();
  const built = await buildApp({ config, db: testDb.db, logStream: stream, ...options });
  built.state.schemaReady = true; // the test database is migrated already
  return {
    ...built,
    testDb,
    config,
    get logs() {
      return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    logText: () => lines.join('\n'),
    async close() {
      await built.app.close();
      await testDb.drop();
    },
  };
}
