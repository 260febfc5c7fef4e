// The public catalogue's patron sessions: sign-in through the patron service's PIN validation,
// time-outs, CSRF tokens. The catalogue's pages (src/catalog/) are their door.
import type { Domain } from '../domain.ts';
import { PatronSessionService } from './service.ts';

declare module '../domain.ts' {
  interface Services {
    patronSessions: PatronSessionService;
  }
}

export const patronSessions: Domain = {
  name: 'patronSessions',
  services: ({ db, config, services }) => ({ patronSessions: new PatronSessionService(db, config.catalogSessions, services.patrons) }),
};

export type { Session, SessionLimits } from './service.ts';
export { PatronSessionService } from './service.ts';
