// Patron PINs are kept only as scrypt hashes. A PIN is checked at every login of a PC reservation
// or print system, so the cost is set lower than for API key secrets (src/auth/secrets.ts) but
// still slow for an offline guesser: N=2^12, r=8, p=1 (4 MiB, about 9 ms of one core measured on
// the development machine). Hashing runs on libuv's thread pool; comparison is constant-time.
import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify<crypto.BinaryLike, crypto.BinaryLike, number, crypto.ScryptOptions, Buffer>(crypto.scrypt);
export const PIN_PARAMS = { N: 4096, r: 8, p: 1 } as const;
const MAXMEM = 64 * 1024 * 1024;
const KEY_LENGTH = 32;

/** The PIN as it is hashed: Unicode NFC, so the same PIN typed on two keyboards matches. */
const normalize = (pin: string) => pin.normalize('NFC');

/** Encoded as scrypt$N$r$p$salt$hash so the parameters can be raised later without breaking old PINs. */
export async function hashPin(pin: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scrypt(normalize(pin), salt, KEY_LENGTH, { ...PIN_PARAMS, maxmem: MAXMEM });
  return ['scrypt', PIN_PARAMS.N, PIN_PARAMS.r, PIN_PARAMS.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

// Checked when the barcode is unknown or the patron has no PIN, so that the answer takes as long as
// for a known barcode with a wrong PIN.
let dummy: Promise<string> | undefined;

/** True when `pin` matches `encoded`; with no hash (unknown barcode, no PIN) does the same work and answers false. */
export async function verifyPin(pin: string, encoded: string | null | undefined): Promise<boolean> {
  dummy ??= hashPin(crypto.randomBytes(18).toString('base64url'));
  const used = encoded ?? (await dummy);
  const parts = used.split('$');
  const [scheme, n, r, p, salt, hash] = parts;
  if (parts.length !== 6 || scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scrypt(normalize(pin), Buffer.from(salt, 'base64'), expected.length, { N: Number(n), r: Number(r), p: Number(p), maxmem: MAXMEM });
  return crypto.timingSafeEqual(actual, expected) && encoded !== null && encoded !== undefined;
}
