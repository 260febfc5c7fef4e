// The envelope: UNB/UNZ, UNG/UNE and UNH/UNT counts and references. A message that fails its own
// check is refused alone; an envelope that fails is a problem for the whole interchange.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readInterchange } from '../../src/edifact/index.ts';
import { interchange, invoiceBody, message, UNA } from './messages.ts';

const three = (count2?: number) => [
  message('M1', 'INVOIC', invoiceBody()),
  message('M2', 'INVOIC', invoiceBody(), count2),
  message('M3', 'INVOIC', invoiceBody()),
];

describe('EDIFACT interchange', () => {
  it('reads the header and every message of a sound interchange', () => {
    const result = readInterchange(Buffer.from(interchange(three(), { control: 'CTL7' }), 'latin1'));
    assert.deepEqual(result.problems, []);
    assert.equal(result.envelopeOk, true);
    const { header, messages, refused } = result.interchange!;
    assert.deepEqual(
      { ...header, at: undefined },
      {
        syntax: 'UNOC',
        syntaxVersion: '3',
        sender: { id: '5099999000017', qualifier: '14' },
        recipient: { id: '1234567', qualifier: '31B' },
        date: '261125',
        time: '0930',
        controlReference: 'CTL7',
        applicationReference: 'INVOIC',
        test: false,
        at: undefined,
      },
    );
    assert.equal(refused, 0);
    assert.deepEqual(
      messages.map((m) => [m.index, m.reference, m.type, m.version, m.release, m.agency, m.association, m.segments.length]),
      [0, 1, 2].map((i) => [i, `M${i + 1}`, 'INVOIC', 'D', '96A', 'UN', 'EAN008', invoiceBody().length + 2]),
    );
  });

  it('refuses only the message whose UNT count is wrong, naming its UNT', () => {
    const good = invoiceBody().length + 2;
    const result = readInterchange(interchange(three(good + 1)));
    assert.equal(result.envelopeOk, true);
    assert.deepEqual(
      result.interchange!.messages.map((m) => m.reference),
      ['M1', 'M3'],
    );
    assert.equal(result.interchange!.refused, 1);
    assert.equal(result.problems.length, 1);
    const [problem] = result.problems;
    assert.equal(problem!.kind, 'message');
    assert.equal(problem!.messageIndex, 1);
    assert.equal(problem!.tag, 'UNT');
    assert.equal(problem!.segment, 1 + good + good, 'UNB, message 1, then message 2 up to its UNT');
    assert.equal(problem!.messageSegment, good);
    assert.match(problem!.text, new RegExp(`UNT counts ${good + 1} segments but message M2 has ${good}`));
  });

  it('refuses a message whose UNT reference is not its UNH reference', () => {
    const bad = message('M2', 'INVOIC', invoiceBody());
    bad[bad.length - 1] = bad[bad.length - 1]!.replace('+M2', '+M9');
    const result = readInterchange(interchange([message('M1', 'INVOIC', invoiceBody()), bad]));
    assert.equal(result.envelopeOk, true);
    assert.deepEqual(
      result.interchange!.messages.map((m) => m.reference),
      ['M1'],
    );
    assert.match(result.problems[0]!.text, /UNT reference "M9" is not the UNH's "M2"/);
  });

  it('refuses a message cut short by the next UNH, and reads that next one', () => {
    const cut = message('M1', 'INVOIC', invoiceBody()).slice(0, -1);
    const result = readInterchange(interchange([cut, message('M2', 'INVOIC', invoiceBody())]));
    assert.deepEqual(
      result.interchange!.messages.map((m) => m.reference),
      ['M2'],
    );
    assert.equal(result.problems[0]!.kind, 'message');
    assert.equal(result.problems[0]!.tag, 'UNH');
    assert.match(result.problems[0]!.text, /has no UNT before UNH at segment/);
    assert.equal(result.envelopeOk, true, 'UNZ counts both messages the sender sent');
  });

  it('reports a wrong UNZ count or reference for the interchange', () => {
    const count = readInterchange(interchange(three(), { unzCount: 2 }));
    assert.equal(count.envelopeOk, false);
    assert.equal(count.problems[0]!.kind, 'envelope');
    assert.equal(count.problems[0]!.tag, 'UNZ');
    assert.match(count.problems[0]!.text, /UNZ counts 2 but the interchange holds 3 messages/);
    assert.equal(count.interchange!.messages.length, 3, 'the messages are still given, for the report');
    const reference = readInterchange(interchange(three()).replace(/UNZ\+3\+CTL000042'$/, "UNZ+3+CTL000043'"));
    assert.equal(reference.envelopeOk, false);
    assert.match(reference.problems[0]!.text, /UNZ control reference "CTL000043" is not the UNB's "CTL000042"/);
  });

  it('reports an interchange with no UNB, or no UNZ', () => {
    const noUnb = readInterchange(
      UNA +
        message('M1', 'INVOIC', invoiceBody())
          .map((s) => `${s}'`)
          .join(''),
    );
    assert.equal(noUnb.interchange, null);
    assert.equal(noUnb.problems[0]!.kind, 'envelope');
    assert.match(noUnb.problems[0]!.text, /begins with UNH, not UNB/);
    const noUnz = readInterchange(interchange(three()).replace(/UNZ[^']*'$/, ''));
    assert.equal(noUnz.envelopeOk, false);
    assert.match(noUnz.problems[0]!.text, /ends without UNZ/);
    assert.equal(readInterchange('').problems[0]!.kind, 'envelope');
  });

  it('reports segments outside a message, and after UNZ', () => {
    const text = interchange(three()).replace('UNH+M2', "FTX+AAB+++stray'UNH+M2") + "UNB+UNOC:3'";
    const result = readInterchange(text);
    assert.equal(result.envelopeOk, false);
    assert.deepEqual(
      result.problems.map((p) => p.tag),
      ['FTX', 'UNB'],
    );
  });

  it('checks UNG/UNE groups: UNE counts messages, UNZ counts groups', () => {
    const seg = (s: string[]) => s;
    const grouped = (uneCount: number, unzCount: number) =>
      UNA +
      [
        'UNB+UNOC:3+5099999000017:14+1234567:31B+261125:0930+CTL1',
        'UNG+INVOIC+5099999000017:14+1234567:31B+261125:0930+G1+UN+D:96A',
        ...seg(message('M1', 'INVOIC', invoiceBody())),
        ...seg(message('M2', 'INVOIC', invoiceBody())),
        `UNE+${uneCount}+G1`,
        `UNZ+${unzCount}+CTL1`,
      ]
        .map((s) => `${s}'`)
        .join('');
    const sound = readInterchange(grouped(2, 1));
    assert.deepEqual(sound.problems, []);
    assert.deepEqual(
      sound.interchange!.messages.map((m) => m.group),
      ['G1', 'G1'],
    );
    const badUne = readInterchange(grouped(3, 1));
    assert.equal(badUne.envelopeOk, false);
    assert.match(badUne.problems[0]!.text, /UNE counts 3 messages but group G1 holds 2/);
    const badUnz = readInterchange(grouped(2, 2));
    assert.match(badUnz.problems[0]!.text, /UNZ counts 2 but the interchange holds 1 groups/);
  });

  it('refuses an input over the size or segment limit before reading it', () => {
    const text = interchange(three());
    const big = readInterchange(Buffer.from(text), { maxBytes: 100 });
    assert.equal(big.interchange, null);
    assert.equal(big.problems[0]!.kind, 'limit');
    const many = readInterchange(text, { maxSegments: 10 });
    assert.equal(many.interchange, null);
    assert.equal(many.problems[0]!.kind, 'limit');
  });

  it('decodes UNOC as ISO 8859-1 and UNOY as UTF-8, and refuses UNOY bytes that are not UTF-8', () => {
    const body = ['BGM+380+X+9', 'LIN+1', 'IMD+L+050+:::Café', 'UNS+S'];
    const latin = readInterchange(Buffer.from(interchange([message('M1', 'INVOIC', body)]), 'latin1'));
    assert.equal(latin.interchange!.messages[0]!.segments[3]!.elements[2]![3], 'Café');
    const utf8Text = interchange([message('M1', 'INVOIC', body)]).replace('UNOC', 'UNOY');
    const utf8 = readInterchange(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(utf8Text, 'utf8')]));
    assert.deepEqual(utf8.problems, []);
    assert.equal(utf8.interchange!.messages[0]!.segments[3]!.elements[2]![3], 'Café');
    const broken = readInterchange(Buffer.from(utf8Text, 'latin1'));
    assert.equal(broken.interchange, null);
    assert.match(broken.problems[0]!.text, /not valid UTF-8/);
  });
});
