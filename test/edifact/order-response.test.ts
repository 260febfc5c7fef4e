// ORDRSP: each line's status from the LIN action code, the coded FTX+LIN (lists 12B and 8B) and
// the back-ordered quantity; the quantities, prices and references read with it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readInterchange, readOrderResponse, type OrderResponse } from '../../src/edifact/index.ts';
import { interchange, message, orderResponseBody } from './messages.ts';

function responseOf(body: string[]): OrderResponse {
  const { interchange: read, problems } = readInterchange(interchange([message('R1', 'ORDRSP', body)], { app: 'ORDRSP' }));
  assert.deepEqual(problems, []);
  const result = readOrderResponse(read!.messages[0]!);
  assert.ok('response' in result, JSON.stringify(result));
  return result.response;
}

describe('EDIFACT ORDRSP', () => {
  it('reads the response header', () => {
    const response = responseOf(orderResponseBody());
    assert.equal(response.responseNumber, 'RSP-88');
    assert.equal(response.documentName, '231');
    assert.equal(response.function, '4');
    assert.equal(response.responseType, 'AC');
    assert.equal(response.orderNumber, 'ORD-1');
    assert.equal(response.currency, 'GBP');
    assert.equal(response.supplier?.id, '5099999000017');
  });

  it('tells accepted, changed, back-ordered, cancelled, not found and unknown lines apart', () => {
    const response = responseOf(orderResponseBody());
    assert.deepEqual(
      response.lines.map((l) => [l.orderLineReference, l.status, l.action, l.statusNote?.code]),
      [
        ['ORD-1/1', 'accepted', '5', undefined],
        ['ORD-1/2', 'back-ordered', '24', 'RP'],
        ['ORD-1/3', 'cancelled', '2', 'OP'],
        ['ORD-1/4', 'changed', undefined, '110'],
        ['ORD-1/5', 'not-found', '10', undefined],
        ['ORD-1/6', 'unknown', undefined, '101'],
        ['ORD-1/7', 'back-ordered', undefined, '401'],
      ],
    );
  });

  it('reads quantities, price, availability date and references of a line', () => {
    const [one, two, , four] = responseOf(orderResponseBody()).lines;
    assert.equal(one!.isbn, '9781234567897');
    assert.equal(one!.ordered, '1');
    assert.equal(one!.price?.value, '12.50');
    assert.equal(one!.price?.type, 'CA');
    assert.equal(two!.isbn, '030640615X');
    assert.deepEqual([two!.ordered, two!.dispatched, two!.backOrdered], ['3', '1', '2']);
    assert.equal(two!.availabilityDate?.value, '20270115');
    assert.equal(two!.supplierLineReference, 'SUP-9');
    assert.equal(four!.notes[0]!.text, 'Paperback sent instead of hardback');
    assert.equal(four!.isbn, '9781111111113', 'the ordered item, not the substitute');
    assert.equal(four!.substitute?.id, '9782222222226');
  });

  it('a back-ordered quantity alone makes an accepted line back-ordered, never a cancelled one', () => {
    const lines = responseOf([
      'BGM+231+R+29',
      'LIN+1+5',
      'QTY+21:2',
      'QTY+83:1',
      'RFF+LI:A',
      'LIN+2+2',
      'QTY+83:1',
      'RFF+LI:B',
      'LIN+3+5',
      'QTY+83:0',
      'RFF+LI:C',
    ]).lines;
    assert.deepEqual(
      lines.map((l) => l.status),
      ['back-ordered', 'cancelled', 'accepted'],
    );
  });

  it('refuses a response with a quantity that is not a number', () => {
    const read = readInterchange(interchange([message('R1', 'ORDRSP', ['BGM+231+R+29', 'LIN+1+5', 'QTY+21:two'])]));
    const result = readOrderResponse(read.interchange!.messages[0]!);
    assert.ok('problems' in result);
    assert.equal(result.problems[0]!.tag, 'QTY');
    assert.equal(result.problems[0]!.messageSegment, 4);
  });
});
