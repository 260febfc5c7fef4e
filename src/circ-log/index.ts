// The circulation transaction log (sierra_view.circ_trans): written by circulation, holds and fines.
import type { Domain } from '../domain.ts';
import { CircLogService } from './service.ts';

declare module '../domain.ts' {
  interface Services {
    circLog: CircLogService;
  }
}

export const circLog: Domain = {
  name: 'circLog',
  services: ({ db, config }) => ({ circLog: new CircLogService(db, config.circulation.circTransDays) }),
};
