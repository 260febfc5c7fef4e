// SCRAM-SHA-256 (RFC 5802, RFC 7677) as PostgreSQL keeps it: a password's verifier, computed here so
// that the password itself never reaches the database or its log.
import crypto from 'node:crypto';

const ITERATIONS = 4096;

function hmac(key: Buffer, text: string): Buffer {
  return crypto.createHmac('sha256', key).update(text).digest();
}

/**
 * PostgreSQL's stored form, `SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>`, which
 * CREATE ROLE … PASSWORD takes as it is. The password must be ASCII without controls (SASLprep
 * leaves such a text unchanged, so clients derive the same keys).
 */
export function scramVerifier(password: string, salt = crypto.randomBytes(16)): string {
  if (!/^[\x21-\x7e]+$/.test(password)) throw new Error('a SCRAM password here is printable ASCII');
  const salted = crypto.pbkdf2Sync(password, salt, ITERATIONS, 32, 'sha256');
  const storedKey = crypto.createHash('sha256').update(hmac(salted, 'Client Key')).digest();
  const serverKey = hmac(salted, 'Server Key');
  return `SCRAM-SHA-256$${ITERATIONS}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`;
}

/** The client's side of the exchange: its final message for the server's first, and the signature the server must answer with. */
export function scramClientFinal(
  password: string,
  clientFirstBare: string,
  serverFirst: string,
): { clientFinal: string; serverSignature: string; serverNonce: string } {
  const params: Record<string, string> = Object.fromEntries(serverFirst.split(',').map((kv) => [kv.slice(0, 1), kv.slice(2)]));
  const salted = crypto.pbkdf2Sync(password, Buffer.from(params.s ?? '', 'base64'), Number(params.i), 32, 'sha256');
  const clientKey = hmac(salted, 'Client Key');
  const withoutProof = `c=biws,r=${params.r ?? ''}`;
  const authMessage = `${clientFirstBare},${serverFirst},${withoutProof}`;
  const signature = hmac(crypto.createHash('sha256').update(clientKey).digest(), authMessage);
  const proof = Buffer.from(clientKey.map((b, i) => b ^ signature[i]!)).toString('base64');
  return {
    clientFinal: `${withoutProof},p=${proof}`,
    serverSignature: `v=${hmac(hmac(salted, 'Server Key'), authMessage).toString('base64')}`,
    serverNonce: params.r ?? '',
  };
}
