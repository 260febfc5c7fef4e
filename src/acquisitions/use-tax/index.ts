// Use tax codes and their rates: /invoices/useTax, GET /invoices/metadata; `carrel use-tax`.
import type { Domain } from '../../domain.ts';
import { v6 } from '../../domain.ts';
import { useTaxCommands } from './commands.ts';
import { useTaxRoutes } from './routes.ts';
import { UseTaxService } from './service.ts';

declare module '../../domain.ts' {
  interface Services {
    useTax: UseTaxService;
  }
}

export const useTax: Domain = {
  name: 'useTax',
  services: ({ db }) => ({ useTax: new UseTaxService(db) }),
  register: async (app, { services }) => v6(app, (api) => useTaxRoutes(api, services.useTax)),
  commands: useTaxCommands,
};
