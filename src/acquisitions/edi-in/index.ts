// Vendors' EDIFACT files (README, "EDIFACT from vendors"): INVOIC into invoices, ORDRSP into the
// orders' vendor statuses, as the processors of those kinds of received file.
import type { Domain } from '../../domain.ts';
import { EdiInService } from './service.ts';

export { EdiInService } from './service.ts';

declare module '../../domain.ts' {
  interface Services {
    ediIn: EdiInService;
  }
}

export const ediIn: Domain = {
  name: 'ediIn',
  services: ({ services }) => {
    const ediIn = new EdiInService(services.invoices, services.orders, services.vendorEdi);
    // Files received before this point are processed with these too: processing starts after start-up.
    services.files.register('edifact-invoic', (file) => ediIn.processInvoices(file));
    services.files.register('edifact-ordrsp', (file) => ediIn.processResponses(file));
    return { ediIn };
  },
};
