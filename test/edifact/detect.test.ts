// detect(): EDIFACT told from the bytes, not from a file name.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detect } from '../../src/edifact/index.ts';
import { interchange, invoiceBody, message, orderResponseBody } from './messages.ts';

describe('EDIFACT detect', () => {
  it('recognises an interchange with or without UNA, after a BOM and blank lines, and lists its message types', () => {
    const text = interchange([
      message('M1', 'INVOIC', invoiceBody()),
      message('R1', 'ORDRSP', orderResponseBody()),
      message('M2', 'INVOIC', invoiceBody()),
    ]);
    assert.deepEqual(detect(Buffer.from(text)), { edifact: true, messageTypes: ['INVOIC', 'ORDRSP'] });
    assert.deepEqual(detect(Buffer.from(`\ufeff\r\n  ${text}`)).messageTypes, ['INVOIC', 'ORDRSP']);
    assert.deepEqual(detect(Buffer.from(interchange([message('M1', 'ORDERS', ['BGM+220+1+9'])], { una: false }))).messageTypes, ['ORDERS']);
  });

  it('lists what it can read of a broken interchange, and says why it stopped', () => {
    const text = interchange([message('M1', 'INVOIC', invoiceBody())]);
    const result = detect(Buffer.from(text.slice(0, 200)));
    assert.equal(result.edifact, true);
    assert.deepEqual(result.messageTypes, ['INVOIC']);
    assert.equal(result.problem?.kind, 'syntax');
  });

  it('says no to MARC, to text, and to words that begin with UNB', () => {
    const marc = Buffer.from('00714cam a2200205 a 4500001001300000003000400013\x1e12345\x1e\x1d', 'latin1');
    for (const bytes of [
      marc,
      Buffer.from('Dear supplier, UNB+ please'),
      Buffer.from('UNBELIEVABLE'),
      Buffer.from(''),
      Buffer.from('UNA:+.? '),
      Buffer.from([0xff, 0xfe, 0x55, 0x00]),
    ]) {
      assert.deepEqual(detect(bytes), { edifact: false, messageTypes: [] }, bytes.toString('latin1'));
    }
  });

  it('does not list the messages of an input over the size limit', () => {
    const text = interchange([message('M1', 'INVOIC', invoiceBody())]);
    const result = detect(Buffer.from(text), { maxBytes: 100 });
    assert.equal(result.edifact, true);
    assert.deepEqual(result.messageTypes, []);
    assert.equal(result.problem?.kind, 'limit');
  });
});
