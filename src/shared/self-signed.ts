// A self-signed X.509 certificate for a TLS door that was given none (FTPS), made with node:crypto
// alone: an ECDSA P-256 key and the few DER structures RFC 5280 asks of a certificate. Clients
// cannot check it against an authority; they pin it, as SSH clients pin a host key, or the
// library gives the door a certificate of its own.
import crypto from 'node:crypto';

function der(tag: number, content: Buffer): Buffer {
  const n = content.length;
  const length = n < 0x80 ? Buffer.from([n]) : Buffer.concat([Buffer.from([0x80 | Math.ceil(n.toString(16).length / 2)]), bigEndian(n)]);
  return Buffer.concat([Buffer.from([tag]), length, content]);
}

function bigEndian(n: number): Buffer {
  const hex = n.toString(16);
  return Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
}

const seq = (...parts: Buffer[]) => der(0x30, Buffer.concat(parts));
const oid = (bytes: number[]) => der(0x06, Buffer.from(bytes));
/** ecdsa-with-SHA256 (1.2.840.10045.4.3.2), no parameters. */
const ECDSA_SHA256 = seq(oid([0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02]));
/** commonName (2.5.4.3). */
const COMMON_NAME = oid([0x55, 0x04, 0x03]);

/** UTCTime up to 2049, GeneralizedTime from 2050 (RFC 5280, 4.1.2.5). */
function time(at: Date): Buffer {
  const text = at.toISOString().replace(/[-:T]/g, '').slice(0, 14) + 'Z';
  return at.getUTCFullYear() < 2050 ? der(0x17, Buffer.from(text.slice(2))) : der(0x18, Buffer.from(text));
}

/** A certificate (PEM) for `commonName`, valid from now for `years`, and its private key (PKCS #8 PEM). */
export function selfSignedCertificate(commonName: string, years = 20): { cert: string; key: string } {
  const { publicKey, privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const name = seq(der(0x31, seq(COMMON_NAME, der(0x0c, Buffer.from(commonName)))));
  // A positive serial of 16 random bytes: its first bit clear, its first byte not zero.
  const serial = crypto.randomBytes(16);
  serial[0] = (serial[0]! & 0x7f) | 0x01;
  const now = new Date();
  const until = new Date(now);
  until.setUTCFullYear(now.getUTCFullYear() + years);
  const tbs = seq(
    der(0xa0, der(0x02, Buffer.from([2]))),
    der(0x02, serial),
    ECDSA_SHA256,
    name,
    seq(time(now), time(until)),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
  );
  const signature = crypto.sign('sha256', tbs, privateKey);
  const cert = seq(tbs, ECDSA_SHA256, der(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const lines = cert.toString('base64').match(/.{1,64}/g)!;
  return {
    cert: `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`,
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
  };
}
