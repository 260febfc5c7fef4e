import ssh2 from 'ssh2';

/** Tries before giving up: one key in about 250 fails, so ten in a row does not happen. */
const TRIES = 10;

/**
 * A new Ed25519 key pair, in OpenSSH's format, that ssh2 itself can read back. About one in 250 of
 * the private keys ssh2 1.x generates it then refuses to parse ("Malformed OpenSSH private key",
 * 12 of 3,000 here): a host key kept in the database would keep the SFTP door from starting for good.
 */
export function ed25519KeyPair(): { private: string; public: string } {
  for (let i = 0; i < TRIES; i++) {
    const made = ssh2.utils.generateKeyPairSync('ed25519');
    if (!(ssh2.utils.parseKey(made.private) instanceof Error)) return made;
  }
  throw new Error(`ssh2 could not read back any of ${TRIES} Ed25519 keys it generated`);
}
