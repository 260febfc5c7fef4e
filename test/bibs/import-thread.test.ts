// The import's reading thread is sent a file's bytes a piece at a time; a piece of a file held in
// memory (a file received over SFTP) must go without the rest of the file.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { ownBytes } from '../../src/bibs/import-thread.ts';

/** What arrives on the other side of a thread's message port when `bytes` is posted. */
function posted(bytes: Uint8Array): Uint8Array {
  const { port1, port2 } = new MessageChannel();
  try {
    port1.postMessage(bytes);
    return receiveMessageOnPort(port2)!.message as Uint8Array;
  } finally {
    port1.close();
  }
}

describe('the import thread is sent pieces of a file', () => {
  const file = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < file.length; i++) file[i] = i % 251;

  it('a piece of a Buffer holding the whole file arrives as that piece only, the same bytes', () => {
    const piece = file.subarray(256 * 1024, 512 * 1024);
    const arrived = posted(ownBytes(piece));
    assert.equal(arrived.buffer.byteLength, piece.byteLength);
    assert.ok(Buffer.from(arrived).equals(piece), 'other bytes arrived');
  });

  it('a chunk that owns its bytes (as a file stream reads them) is sent as it is, not copied', () => {
    const chunk = new Uint8Array(64 * 1024);
    // assert.ok: a failing assert.equal would print a diff of 65,536 bytes.
    assert.ok(ownBytes(chunk) === chunk, 'the chunk was copied');
  });
});
