// The one shape of a domain module: each src/<domain>/index.ts exports a Domain, and app.ts lists
// them in order. A domain builds its services, registers its schemas and routes (each with its
// permission), and adds its `carrel` commands; every door reaches the same services through Deps.
import type { Command } from 'commander';
import type { Cli } from './cli/kit.ts';
import type { Config } from './config.ts';
import type { Db } from './db/types.ts';
import type { App } from './http/types.ts';
import type { Clock } from './shared/calendar.ts';

/** What every service is built from. */
export interface Core {
  config: Config;
  db: Db;
  /**
   * For reads that tolerate a little lag (search, harvests, JSON queries, the library's SQL): a
   * read replica where there is one and the client's last write has reached it, else db.
   */
  reads: Db;
  /** "Today" for circulation; tests move it. */
  clock: Clock;
}

/**
 * Every domain's services, by name. Each domain adds its own in its index.ts:
 * `declare module '../domain.ts' { interface Services { holds: HoldService } }`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging, one domain at a time
export interface Services {}

export interface Deps extends Core {
  services: Services;
}

export interface Domain {
  name: string;
  /** Builds the domain's services; the services of domains listed before it are in deps.services. */
  services?(deps: Deps): Partial<Services>;
  /** Registers its schemas and routes on the root app (REST routes under the /v6 prefix: see v6()). */
  register?(app: App, deps: Deps): Promise<void>;
  /** Adds its `carrel` commands. */
  commands?(program: Command, cli: Cli): void;
}

/** Builds every domain's services in list order. Asking for one not built yet says which. */
export function buildDeps(core: Core, domains: readonly Domain[]): Deps {
  const built: Record<string, unknown> = {};
  const services = new Proxy(built, {
    get(target, name) {
      if (typeof name === 'string' && !(name in target)) {
        throw new Error(`the ${name} service is not built yet: list its domain earlier in app.ts`);
      }
      return target[name as string];
    },
  }) as unknown as Services;
  const deps: Deps = { ...core, services };
  for (const domain of domains) Object.assign(built, domain.services?.(deps));
  return deps;
}

/** Registers routes under /v6 (every other REST prefix is rewritten to it: app.ts, canonicalUrl). */
export async function v6(app: App, routes: (api: App) => void | Promise<void>): Promise<void> {
  await app.register(async (api: App) => routes(api), { prefix: '/v6' });
}
