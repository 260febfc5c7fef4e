// Key secrets are kept only as scrypt hashes (N=2^14, r=8, p=1: about 16 MB and tens of
// milliseconds per check, run on libuv's thread pool within the process's bound on scrypt work:
// src/shared/scrypt.ts). Tokens are 256 random bits, kept as SHA-256.
import crypto from 'node:crypto';
import { scrypt } from '../shared/scrypt.ts';

const PARAMS = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 32;

export function randomToken(bytes: number): string {
  return crypto.randomBytes(bytes).toString('base64url');
}

/**
 * A key id: a random token that does not start with '-' (or '_'), so that a command line such as
 * `carrel keys revoke KEY` never reads it as an option (one key in 32 did).
 */
export function randomKeyId(bytes: number): string {
  for (;;) {
    const id = randomToken(bytes);
    if (/^[A-Za-z0-9]/.test(id)) return id;
  }
}

/** Encoded as scrypt$N$r$p$salt$hash so the parameters can be raised later without breaking old keys. */
export async function hashSecret(secret: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scrypt(secret, salt, KEY_LENGTH, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

// A hash of a random secret, checked when the key is unknown so that the answer takes as long as
// for a known key with a wrong secret.
const DUMMY = hashSecret(randomToken(24));

export async function verifySecret(secret: string, encoded: string | undefined): Promise<boolean> {
  const parts = (encoded ?? (await DUMMY)).split('$');
  const [, n, r, p, salt, hash] = parts;
  if (parts[0] !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scrypt(secret, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: PARAMS.maxmem,
  });
  return crypto.timingSafeEqual(actual, expected) && encoded !== undefined;
}

export function tokenHash(token: string): Buffer {
  // One call rather than createHash().update().digest(): every request with a token pays it.
  return crypto.hash('sha256', token, 'buffer');
}
