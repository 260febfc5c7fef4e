// The SFTP door (README, "SFTP door and files"): vendors and libraries drop MARC and EDIFACT files
// into in/ and read reports from out/; `carrel sftp accounts` makes their logins.
import { LoginLimiter } from '../auth/logins.ts';
import type { Domain } from '../domain.ts';
import { SecretBox } from '../shared/secret-box.ts';
import { SftpAccountService } from './accounts.ts';
import { sftpCommands } from './commands.ts';

export type { SftpAccountService } from './accounts.ts';
export { watchRevoked } from './revoked-watch.ts';
export { openSftpDoor, type SftpDoor } from './server.ts';
export type { OrderPickup } from './session.ts';

declare module '../domain.ts' {
  interface Services {
    sftpAccounts: SftpAccountService;
  }
}

export const sftp: Domain = {
  name: 'sftp',
  services: ({ db, config, services }) => ({
    sftpAccounts: new SftpAccountService(
      db,
      new LoginLimiter(services.attempts, config.loginLimits, 'sftp'),
      new SecretBox(config.secretsKey, config.dataDir),
    ),
  }),
  commands: sftpCommands,
};
