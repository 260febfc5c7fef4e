// Invoices: /invoices with their line items, paying them; `carrel invoices export`.
import type { Domain } from '../../domain.ts';
import { v6 } from '../../domain.ts';
import { invoiceCommands } from './commands.ts';
import { InvoiceSchema, invoiceRoutes, LineItemSchema } from './routes.ts';
import { InvoiceService } from './service.ts';

declare module '../../domain.ts' {
  interface Services {
    invoices: InvoiceService;
  }
}

export const invoices: Domain = {
  name: 'invoices',
  services: ({ db, services }) => ({
    invoices: new InvoiceService(db, services.funds, services.vendors, services.useTax, services.orders),
  }),
  register: async (app, { services, config }) => {
    app.addSchema(LineItemSchema);
    app.addSchema(InvoiceSchema);
    await v6(app, (api) => invoiceRoutes(api, services.invoices, config.publicBaseUrl));
  },
  commands: invoiceCommands,
};
