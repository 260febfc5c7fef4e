// SIP2 accounts: who may log in (93) as a kiosk, and for which institution. Passwords are random,
// shown once, kept as scrypt hashes (as API key secrets are); failed logins are limited per
// client address and per account name, as token requests are (src/auth/logins.ts).
import type { Db } from '../db/types.ts';
import type { LoginLimiter, LoginReport } from '../auth/logins.ts';
import { hashSecret, randomToken, verifySecret } from '../auth/secrets.ts';
import { fail } from '../shared/errors.ts';
import * as repo from './accounts-repository.ts';

export interface SipAccount {
  name: string;
  institution: string;
  location: string | null;
  created: string;
}

const NAME = /^[A-Za-z0-9_.-]{1,64}$/;
// Characters a SIP2 field can carry: no `|`, no CR, nothing a kiosk's keypad would not send.
const FIELD = /^[\x20-\x7b\x7d\x7e]{1,64}$/;

const present = (row: repo.SipAccountRow): SipAccount => ({
  name: row.name,
  institution: row.institution,
  location: row.location,
  created: row.created_date.toISOString(),
});

export class SipAccountService {
  constructor(
    private readonly db: Db,
    private readonly logins: LoginLimiter,
  ) {}

  async create(name: string, institution: string, location?: string): Promise<{ name: string; password: string }> {
    if (!NAME.test(name))
      throw fail.invalidInput(`a SIP account's name is 1 to 64 letters, digits, '_', '.' or '-'; got ${JSON.stringify(name)}`);
    if (!FIELD.test(institution)) throw fail.invalidInput('--institution is 1 to 64 printable characters, no "|"');
    if (location !== undefined && !FIELD.test(location)) throw fail.invalidInput('--location is 1 to 64 printable characters, no "|"');
    // Letters and digits only: kiosks' set-up screens take little else.
    const password = randomToken(18).replace(/[-_]/g, 'x');
    const created = await repo.insertAccount(this.db, {
      name,
      password_hash: await hashSecret(password),
      institution,
      location: location ?? null,
    });
    if (!created) throw fail.conflict(0, `a SIP account named ${name} already exists`);
    return { name, password };
  }

  async list(): Promise<SipAccount[]> {
    return (await repo.listAccounts(this.db)).map(present);
  }

  async revoke(name: string): Promise<void> {
    if (!(await repo.deleteAccount(this.db, name))) throw fail.notFound(`no SIP account is named ${JSON.stringify(name)}`);
  }

  /**
   * The account when the name and password match (the same work either way); undefined otherwise.
   * Over a limit of failures (the kiosk's address, the account's name), or when the bound on
   * scrypt work is full: tooManyAttempts, without checking the password.
   */
  async login(name: string, password: string, address?: string, report?: (r: LoginReport) => void): Promise<SipAccount | undefined> {
    return this.logins.attempt(
      address,
      name,
      async () => {
        const [row] = await repo.findAccount(this.db, name);
        const ok = await verifySecret(password, row?.password_hash);
        return ok && row ? present(row) : undefined;
      },
      report,
    );
  }
}
