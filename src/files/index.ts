// Files received (README, "SFTP door and files"): MARC and EDIFACT files dropped by vendors and
// libraries, kept, recognised by content and processed exactly once; /files and `carrel files`.
import type { Domain } from '../domain.ts';
import { v6 } from '../domain.ts';
import { fileCommands } from './commands.ts';
import { FileSchema, fileRoutes } from './routes.ts';
import { FileService } from './service.ts';

export { listReports, overQuota, quotaRoom, readReport, reportName, reportSize, takeUpload, type Taken } from './account-folders.ts';
export { FILE_KINDS, type FileKind } from './kinds.ts';
export { pathOf, place, type Place } from './paths.ts';
export type { FileOutcome, FileProcessor, FileToProcess, LoadSettings } from './processors.ts';
export { FileService, type ProcessedFile } from './service.ts';
export { StoreQueue } from './store-queue.ts';

declare module '../domain.ts' {
  interface Services {
    files: FileService;
  }
}

export const files: Domain = {
  name: 'files',
  services: ({ db, services }) => ({ files: new FileService(db, (account) => services.sftpAccounts.loadSettings(account)) }),
  register: async (app, { services }) => {
    app.addSchema(FileSchema);
    await v6(app, (api) => fileRoutes(api, services.files));
  },
  commands: fileCommands,
};
