// Holdings: /holdings, Sierra's checkin records, from MARC holdings records and bibs' holdings fields.
import type { Domain } from '../domain.ts';
import { v6 } from '../domain.ts';
import { HoldingSchema, holdingRoutes } from './routes.ts';
import { HoldingsService } from './service.ts';

declare module '../domain.ts' {
  interface Services {
    holdings: HoldingsService;
  }
}

export const holdings: Domain = {
  name: 'holdings',
  services: ({ db, reads }) => ({ holdings: new HoldingsService(db, reads) }),
  register: async (app, { services, config }) => {
    app.addSchema(HoldingSchema);
    await v6(app, (api) => holdingRoutes(api, services.holdings, config.publicBaseUrl));
  },
};
