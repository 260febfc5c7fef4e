// Vendors: /vendors, who invoices come from, and their EDI settings; `carrel vendors`.
import type { Domain } from '../../domain.ts';
import { v6 } from '../../domain.ts';
import { SecretBox } from '../../shared/secret-box.ts';
import { vendorCommands } from './commands.ts';
import { VendorEdiService } from './edi.ts';
import { VendorEdiSchema, VendorSchema, vendorEdiRoutes, vendorRoutes } from './routes.ts';
import { VendorService } from './service.ts';

declare module '../../domain.ts' {
  interface Services {
    vendors: VendorService;
    vendorEdi: VendorEdiService;
  }
}

export const vendors: Domain = {
  name: 'vendors',
  services: ({ db, config }) => ({
    vendors: new VendorService(db),
    vendorEdi: new VendorEdiService(db, new SecretBox(config.secretsKey, config.dataDir)),
  }),
  register: async (app, { services, config }) => {
    app.addSchema(VendorSchema);
    app.addSchema(VendorEdiSchema);
    await v6(app, (api) => {
      vendorRoutes(api, services.vendors, config.publicBaseUrl);
      vendorEdiRoutes(api, services.vendors, services.vendorEdi);
    });
  },
  commands: vendorCommands,
};
