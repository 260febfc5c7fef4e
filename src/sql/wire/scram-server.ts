// The server's half of SCRAM-SHA-256 (RFC 5802, RFC 7677) as PostgreSQL runs it, against a
// role's stored verifier: the password never crosses the wire, and is never known here.
import crypto from 'node:crypto';

export interface Verifier {
  iterations: number;
  salt: string;
  storedKey: Buffer;
  serverKey: Buffer;
}

/** PostgreSQL's `SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>`, or undefined when it is not one. */
export function parseVerifier(stored: string | null | undefined): Verifier | undefined {
  const match = /^SCRAM-SHA-256\$(\d+):([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+):([A-Za-z0-9+/=]+)$/.exec(stored ?? '');
  if (!match) return undefined;
  return {
    iterations: Number(match[1]),
    salt: match[2]!,
    storedKey: Buffer.from(match[3]!, 'base64'),
    serverKey: Buffer.from(match[4]!, 'base64'),
  };
}

// A secret of this process, so that an unknown user's made-up salt is the same at every attempt
// (a salt that changed would tell that the user is not there).
const FAKE_SALT_KEY = crypto.randomBytes(32);

/** A verifier no password matches, for a user who is not there (the exchange runs the same way, and fails). */
export function unmatchableVerifier(user: string): Verifier {
  const salt = crypto.createHmac('sha256', FAKE_SALT_KEY).update(user).digest().subarray(0, 16).toString('base64');
  return { iterations: 4096, salt, storedKey: crypto.randomBytes(32), serverKey: crypto.randomBytes(32) };
}

const hmac = (key: Buffer, text: string) => crypto.createHmac('sha256', key).update(text).digest();

/** One exchange: the client's first message answered, then its final message checked. */
export class ScramExchange {
  private clientFirstBare = '';
  private serverFirst = '';
  private nonce = '';

  constructor(private readonly verifier: Verifier) {}

  /** The server-first-message for the client-first-message; throws on a malformed one. */
  first(clientFirst: string): string {
    // gs2 header: n (no channel binding) or y (the client could, the server offered none), no authzid.
    const match = /^([ny]),,(n=[^,]*,r=([\x21-\x2b\x2d-\x7e]+)(?:,.*)?)$/.exec(clientFirst);
    if (!match) throw new Error('malformed SCRAM client-first-message');
    this.clientFirstBare = match[2]!;
    this.nonce = match[3]! + crypto.randomBytes(18).toString('base64');
    this.serverFirst = `r=${this.nonce},s=${this.verifier.salt},i=${this.verifier.iterations}`;
    return this.serverFirst;
  }

  /** The server-final-message when the client's proof holds; undefined when it does not. */
  final(clientFinal: string): string | undefined {
    const match = /^(c=[A-Za-z0-9+/=]+,r=([^,]+))(?:,.*)?,p=([A-Za-z0-9+/=]+)$/.exec(clientFinal);
    if (!match || match[2] !== this.nonce) return undefined;
    const authMessage = `${this.clientFirstBare},${this.serverFirst},${match[1]}`;
    const proof = Buffer.from(match[3]!, 'base64');
    const signature = hmac(this.verifier.storedKey, authMessage);
    if (proof.length !== signature.length) return undefined;
    const clientKey = Buffer.from(proof.map((byte, i) => byte ^ signature[i]!));
    const stored = crypto.createHash('sha256').update(clientKey).digest();
    if (!crypto.timingSafeEqual(stored, this.verifier.storedKey)) return undefined;
    return `v=${hmac(this.verifier.serverKey, authMessage).toString('base64')}`;
  }
}
