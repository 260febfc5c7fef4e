// Patron PINs are kept only as scrypt hashes. A PIN is checked at every login of a PC reservation
// or print system, so the cost is set lower than for API key secrets (src/auth/secrets.ts) but
// still slow for an offline guesser: N=2^12, r=8, p=1 (4 MiB, about 9 ms of one core measured on
// the development machine). Hashing runs on libuv's thread pool, within the process's bound on
// scrypt work (src/shared/scrypt.ts); comparison is constant-time.
import crypto from 'node:crypto';
import { scrypt } from '../shared/scrypt.ts';

export const PIN_PARAMS = { N: 4096, r: 8, p: 1 } as const;
const MAXMEM = 64 * 1024 * 1024;
const KEY_LENGTH = 32;

/** The PIN as it is hashed: Unicode NFC, so the same PIN typed on two keyboards matches. */
const normalize = (pin: string) => pin.normalize('NFC');

/**
 * Encoded as scrypt$N$r$p$salt$hash. verifyPin accepts only PIN_PARAMS and a 32-byte hash (raising
 * the parameters later means accepting the old set alongside the new).
 */
export async function hashPin(pin: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scrypt(normalize(pin), salt, KEY_LENGTH, { ...PIN_PARAMS, maxmem: MAXMEM });
  return ['scrypt', PIN_PARAMS.N, PIN_PARAMS.r, PIN_PARAMS.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

// Checked when the barcode is unknown or the patron has no PIN, so that the answer takes as long as
// for a known barcode with a wrong PIN. Built when the module loads; a failed build is retried
// rather than remembered.
let dummy: Promise<string> | undefined;
function dummyHash(): Promise<string> {
  dummy ??= hashPin(crypto.randomBytes(18).toString('base64url')).catch((error: unknown) => {
    dummy = undefined;
    throw error;
  });
  return dummy;
}
dummyHash().catch(() => undefined); // eager; a failure here is retried on first use

interface Decoded {
  salt: Buffer;
  hash: Buffer;
}

/** The salt and hash of a PIN hash made with PIN_PARAMS; undefined for anything else. */
function decode(encoded: string): Decoded | undefined {
  const parts = encoded.split('$');
  const [scheme, n, r, p, salt, hash] = parts;
  if (parts.length !== 6 || scheme !== 'scrypt' || !salt || !hash) return undefined;
  if (n !== String(PIN_PARAMS.N) || r !== String(PIN_PARAMS.r) || p !== String(PIN_PARAMS.p)) return undefined;
  const decodedHash = Buffer.from(hash, 'base64');
  const decodedSalt = Buffer.from(salt, 'base64');
  if (decodedHash.length !== KEY_LENGTH || decodedSalt.length === 0) return undefined;
  return { salt: decodedSalt, hash: decodedHash };
}

/**
 * True when `pin` matches `encoded`. With no hash (unknown barcode, no PIN) or one that cannot be
 * read, does the same work against the dummy hash and answers false.
 */
export async function verifyPin(pin: string, encoded: string | null | undefined): Promise<boolean> {
  const real = encoded ? decode(encoded) : undefined;
  const used = real ?? decode(await dummyHash())!;
  const actual = await scrypt(normalize(pin), used.salt, KEY_LENGTH, { ...PIN_PARAMS, maxmem: MAXMEM });
  return crypto.timingSafeEqual(actual, used.hash) && real !== undefined;
}
