// Health: GET /api, the status report of the seed (answers even while the database is down).
import type { Domain } from '../domain.ts';
import { healthRoutes } from './routes.ts';
import { HealthService } from './service.ts';

declare module '../domain.ts' {
  interface Services {
    health: HealthService;
  }
}

export const health: Domain = {
  name: 'health',
  services: ({ db, config }) => ({ health: new HealthService(db, config.healthTimeoutMs, config.healthMaxAgeMs) }),
  register: async (app, { services }) => healthRoutes(app, services.health),
};
