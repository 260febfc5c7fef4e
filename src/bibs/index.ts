// Bibliographic records: /bibs (MARC kept whole, fields derived from it), `carrel import`.
import type { Domain } from '../domain.ts';
import { v6 } from '../domain.ts';
import { bibCommands } from './commands.ts';
import { BibSchema, bibRoutes } from './routes.ts';
import { BibService } from './service.ts';

declare module '../domain.ts' {
  interface Services {
    bibs: BibService;
  }
}

export const bibs: Domain = {
  name: 'bibs',
  services: ({ db, reads, services }) => ({ bibs: new BibService(db, services.items, reads) }),
  register: async (app, { services, config }) => {
    app.addSchema(BibSchema);
    await v6(app, (api) => bibRoutes(api, services.bibs, config.publicBaseUrl));
  },
  commands: bibCommands,
};
