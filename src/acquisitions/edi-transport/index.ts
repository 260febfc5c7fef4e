// Carrel as the client of vendors' servers: orders sent as EDIFACT ORDERS, vendors' files
// fetched into files received; `carrel edi send|fetch`, and a schedule (CARREL_EDI_INTERVAL_MS).
import type { Domain } from '../../domain.ts';
import { ediTransportCommands } from './commands.ts';
import { EdiTransportService } from './service.ts';

export type { FetchResult, SendResult } from './service.ts';
export { EdiTransportService } from './service.ts';

declare module '../../domain.ts' {
  interface Services {
    ediTransport: EdiTransportService;
  }
}

export const ediTransport: Domain = {
  name: 'ediTransport',
  services: ({ db, config, services }) => ({
    ediTransport: new EdiTransportService(
      db,
      {
        orders: services.orders,
        vendors: services.vendors,
        vendorEdi: services.vendorEdi,
        files: services.files,
        sftpAccounts: services.sftpAccounts,
      },
      config.sftpLimits.maxFileBytes,
    ),
  }),
  commands: ediTransportCommands,
};
