// Idempotent writes (the Idempotency-Key header): claims, kept answers and their expiry.
import type { Domain } from '../domain.ts';
import { installIdempotency } from '../http/idempotency.ts';
import { IdempotencyService } from './service.ts';

declare module '../domain.ts' {
  interface Services {
    idempotency: IdempotencyService;
  }
}

export const idempotency: Domain = {
  name: 'idempotency',
  services: ({ db }) => ({ idempotency: new IdempotencyService(db) }),
  register: async (app, { services }) => installIdempotency(app, services.idempotency),
};
