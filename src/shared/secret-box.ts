// Secrets Carrel must give back in clear to use them (a vendor's FTP password, say), kept sealed:
// AES-256-GCM with a key that is not in the database, so a copy of the database (a backup, a SQL
// login that reached a table) does not hold them. The key is CARREL_SECRETS_KEY (32 bytes, base64)
// where several servers share one database; otherwise a key file made once in the data directory
// (beside the embedded engine's files: a copy of the whole data directory holds both). Each secret
// is sealed for a purpose (what it is and whose), checked when it is opened, so a sealed value
// copied into another row or column does not open there.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const VERSION = 'v1';
const KEY_FILE = 'secrets.key';
const IV_BYTES = 12;
/** The whole GCM tag, always: a shorter one given at opening would be checked on fewer bits. */
const TAG_BYTES = 16;

export class SecretBox {
  private key: Buffer | undefined;

  /** `key`: CARREL_SECRETS_KEY when set; `dataDir`: where the key file is kept when it is not. */
  constructor(
    key: Buffer | undefined,
    private readonly dataDir: string,
  ) {
    this.key = key;
  }

  /** The key, read or made on first use: a server that keeps no secret never writes the file. */
  private keyNow(): Buffer {
    if (this.key) return this.key;
    const file = path.join(this.dataDir, KEY_FILE);
    if (!fs.existsSync(file)) {
      fs.mkdirSync(this.dataDir, { recursive: true });
      // 'wx': two processes making it at once do not overwrite each other's; the loser reads the winner's.
      try {
        fs.writeFileSync(file, crypto.randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
    const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte key (base64)`);
    this.key = key;
    return key;
  }

  /** `purpose`: what the secret is and whose (`vendor-edi-password:1000001`); open() must name the same. */
  seal(secret: string, purpose: string): string {
    const iv = crypto.randomBytes(IV_BYTES);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.keyNow(), iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(purpose, 'utf8'));
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64')}`;
  }

  /** The secret; throws when it was sealed with another key or for another purpose, or changed since. */
  open(sealed: string, purpose: string): string {
    const [version, body] = sealed.split(':', 2);
    if (version !== VERSION || !body) throw new Error('not a sealed secret');
    const bytes = Buffer.from(body, 'base64');
    if (bytes.length < IV_BYTES + TAG_BYTES) throw new Error('not a sealed secret');
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.keyNow(), bytes.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(purpose, 'utf8'));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}
