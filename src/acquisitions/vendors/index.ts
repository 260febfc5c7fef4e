// Vendors: /vendors, who invoices come from; `carrel vendors`.
import type { Domain } from '../../domain.ts';
import { v6 } from '../../domain.ts';
import { vendorCommands } from './commands.ts';
import { VendorSchema, vendorRoutes } from './routes.ts';
import { VendorService } from './service.ts';

declare module '../../domain.ts' {
  interface Services {
    vendors: VendorService;
  }
}

export const vendors: Domain = {
  name: 'vendors',
  services: ({ db }) => ({ vendors: new VendorService(db) }),
  register: async (app, { services, config }) => {
    app.addSchema(VendorSchema);
    await v6(app, (api) => vendorRoutes(api, services.vendors, config.publicBaseUrl));
  },
  commands: vendorCommands,
};
