// Files received (README, "SFTP door and files"): MARC and EDIFACT files dropped by vendors and
// libraries, kept, recognised by content and processed exactly once; /files and `carrel files`.
import type { Domain } from '../domain.ts';
import { v6 } from '../domain.ts';
import { fileCommands } from './commands.ts';
import { FileSchema, fileRoutes } from './routes.ts';
import { FileService } from './service.ts';

export { FILE_KINDS, type FileKind } from './kinds.ts';
export type { FileOutcome, FileProcessor, FileToProcess, LoadSettings } from './processors.ts';
export { FileService } from './service.ts';

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
