// Ed25519 key pairs (the SFTP door's host key, and the tests' keys) that ssh2 can read back: about
// one in 250 that ssh2 generates it then refuses, and a host key kept so would keep the door shut.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import ssh2 from 'ssh2';
import { ed25519KeyPair } from '../../src/sftp/key-pair.ts';

it('makes key pairs ssh2 reads back, every one of 2,000', () => {
  for (let i = 0; i < 2000; i++) {
    const made = ed25519KeyPair();
    const key = ssh2.utils.parseKey(made.private);
    assert.ok(!(key instanceof Error), `key ${i}: ${key instanceof Error ? key.message : ''}`);
    assert.equal(key.type, 'ssh-ed25519');
    assert.ok(!(ssh2.utils.parseKey(made.public) instanceof Error));
  }
});
