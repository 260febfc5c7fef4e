// The SIP2 door (README, "SIP2"): self-check kiosks, PC reservation and sorters speak SIP2 over TCP
// to the same services the REST API uses; `carrel sip accounts` makes their logins.
import { LoginLimiter } from '../auth/logins.ts';
import type { Domain } from '../domain.ts';
import { SipAccountService } from './accounts.ts';
import { sipCommands } from './commands.ts';

declare module '../domain.ts' {
  interface Services {
    sipAccounts: SipAccountService;
  }
}

export const sip2: Domain = {
  name: 'sip2',
  services: ({ db, config, services }) => ({
    sipAccounts: new SipAccountService(db, new LoginLimiter(services.attempts, config.loginLimits, 'sip'), services.branches),
  }),
  commands: sipCommands,
};
