// Funds: /funds, their appropriation and balances; `carrel funds`.
import type { Domain } from '../../domain.ts';
import { v6 } from '../../domain.ts';
import { fundCommands } from './commands.ts';
import { FundSchema, fundRoutes } from './routes.ts';
import { FundService } from './service.ts';

declare module '../../domain.ts' {
  interface Services {
    funds: FundService;
  }
}

export const funds: Domain = {
  name: 'funds',
  services: ({ db }) => ({ funds: new FundService(db) }),
  register: async (app, { services, config }) => {
    app.addSchema(FundSchema);
    await v6(app, (api) => fundRoutes(api, services.funds, config.publicBaseUrl));
  },
  commands: fundCommands,
};
