// SIP2 accounts: who may log in (93) as a kiosk, for which institution, and on whose patrons it
// acts: its own institution's (patrons whose home library is a location of a branch the profile
// gives that institution) or every patron. Passwords are random, shown once, kept as scrypt hashes
// (as API key secrets are); failed logins are limited per client address and per account name, as
// token requests are (src/auth/logins.ts).
import type { Db } from '../db/types.ts';
import type { LoginLimiter, LoginReport } from '../auth/logins.ts';
import { hashSecret, randomToken, verifySecret } from '../auth/secrets.ts';
import type { BranchService } from '../branches/service.ts';
import { fail } from '../shared/errors.ts';
import * as repo from './accounts-repository.ts';

/** own: the account's institution's patrons only; all: every patron (a single library's kiosks). */
export type PatronScope = 'own' | 'all';

export interface SipAccount {
  name: string;
  institution: string;
  location: string | null;
  patrons: PatronScope;
  created: string;
}

/** The institution whose patrons the account acts on; undefined when it acts on every patron. */
export function patronInstitution(account: SipAccount): string | undefined {
  return account.patrons === 'own' ? account.institution : undefined;
}

const NAME = /^[A-Za-z0-9_.-]{1,64}$/;
// Characters a SIP2 field can carry: no `|`, no CR, nothing a kiosk's keypad would not send.
const FIELD = /^[\x20-\x7b\x7d\x7e]{1,64}$/;

const present = (row: repo.SipAccountRow): SipAccount => ({
  name: row.name,
  institution: row.institution,
  location: row.location,
  patrons: row.patrons,
  created: row.created_date.toISOString(),
});

function patronScope(patrons: string): PatronScope {
  if (patrons !== 'own' && patrons !== 'all')
    throw fail.invalidInput(`an account acts on its institution's patrons or on every patron: own or all, not ${JSON.stringify(patrons)}`);
  return patrons;
}

export class SipAccountService {
  constructor(
    private readonly db: Db,
    private readonly logins: LoginLimiter,
    private readonly branches: Pick<BranchService, 'homeLibrariesByInstitution'>,
  ) {}

  /** A new account, acting on its institution's patrons unless `patrons` is all. */
  async create(name: string, institution: string, location?: string, patrons: string = 'own'): Promise<{ name: string; password: string }> {
    if (!NAME.test(name))
      throw fail.invalidInput(`a SIP account's name is 1 to 64 letters, digits, '_', '.' or '-'; got ${JSON.stringify(name)}`);
    if (!FIELD.test(institution)) throw fail.invalidInput('--institution is 1 to 64 printable characters, no "|"');
    if (location !== undefined && !FIELD.test(location)) throw fail.invalidInput('--location is 1 to 64 printable characters, no "|"');
    const scope = patronScope(patrons);
    // Letters and digits only: kiosks' set-up screens take little else.
    const password = randomToken(18).replace(/[-_]/g, 'x');
    const created = await repo.insertAccount(this.db, {
      name,
      password_hash: await hashSecret(password),
      institution,
      location: location ?? null,
      patrons: scope,
    });
    if (!created) throw fail.conflict(0, `a SIP account named ${name} already exists`);
    return { name, password };
  }

  /** Every account, with the home libraries of the patrons it acts on (null: every patron's). */
  async list(): Promise<(SipAccount & { homeLibraries: string[] | null })[]> {
    const [rows, homes] = await Promise.all([repo.listAccounts(this.db), this.branches.homeLibrariesByInstitution()]);
    return rows.map(present).map((a) => ({ ...a, homeLibraries: a.patrons === 'own' ? (homes.get(a.institution) ?? []) : null }));
  }

  /** The home libraries of an institution's patrons, as the profile says now. */
  async homeLibrariesOf(institution: string): Promise<string[]> {
    return (await this.branches.homeLibrariesByInstitution()).get(institution) ?? [];
  }

  /** Whose patrons an account acts on, own or all: from its kiosk's next login (93), as a revocation is. */
  async scope(name: string, patrons: string): Promise<void> {
    const scope = patronScope(patrons);
    if (!(await repo.setPatrons(this.db, name, scope))) throw fail.notFound(`no SIP account is named ${JSON.stringify(name)}`);
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
