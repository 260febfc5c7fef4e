// The tokenizer: service string advice, release characters, decimal marks, line breaks, and the
// strict refusals (each naming the segment's position).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tokenize } from '../../src/edifact/index.ts';
import { decimalText } from '../../src/edifact/numbers.ts';

const read = (text: string) => tokenize(text, 1000);

describe('EDIFACT tokenizer', () => {
  it('splits elements and components with the default service characters', () => {
    const tokens = read("UNB+UNOC:3+5099999000017:14'QTY+47:2'");
    assert.equal(tokens.problem, undefined);
    assert.equal(tokens.serviceAdvice, false);
    assert.deepEqual(
      tokens.segments.map((s) => [s.tag, s.elements, s.position]),
      [
        [
          'UNB',
          [
            ['UNOC', '3'],
            ['5099999000017', '14'],
          ],
          1,
        ],
        ['QTY', [['47', '2']], 2],
      ],
    );
  });

  it('takes a released character as data, the release character included', () => {
    const tokens = read("IMD+L+050+:::50?% off?: a ?'deal?'?? ?+ more'");
    assert.equal(tokens.problem, undefined);
    assert.deepEqual(tokens.segments[0]!.elements[2], ['', '', '', "50% off: a 'deal'? + more"]);
  });

  it('reads the service characters a UNA announces', () => {
    const tokens = read('UNA|^,! ~UNB^UNOC|3~FTX^AAB^^^a!~b!^c!|d!!~');
    assert.equal(tokens.problem, undefined);
    assert.equal(tokens.serviceAdvice, true);
    assert.deepEqual(tokens.delimiters, { component: '|', element: '^', decimal: ',', release: '!', repetition: ' ', segment: '~' });
    assert.deepEqual(tokens.segments[1]!.elements[3], ['a~b^c|d!']);
  });

  it('a space as the UNA release character means none: "?" is then data', () => {
    const tokens = read("UNA:+.  'FTX+AAB+++why?'");
    assert.equal(tokens.problem, undefined);
    assert.equal(tokens.delimiters.release, '');
    assert.deepEqual(tokens.segments[0]!.elements[3], ['why?']);
  });

  for (const [what, una] of [
    ['cut short', 'UNA:+.'],
    ['a letter as the decimal mark', "UNA:+x? '"],
    ['the same character twice', "UNA::.? '"],
    ['a digit as a separator', "UNA1+.? '"],
    ['a space as the terminator', 'UNA:+.?  '],
  ] as const) {
    it(`refuses a UNA with ${what}`, () => {
      const tokens = read(`${una}UNB+UNOC:3'`);
      assert.equal(tokens.problem?.kind, 'syntax');
      assert.equal(tokens.problem?.tag, 'UNA');
      assert.deepEqual(tokens.segments, []);
    });
  }

  it('tolerates CR/LF between segments and counts lines', () => {
    const tokens = read("UNA:+.? '\r\nUNB+UNOC:3'\r\nUNH+1+INVOIC:D:96A:UN'\n\nBGM+380+X+9'\r\n");
    assert.equal(tokens.problem, undefined);
    assert.deepEqual(
      tokens.segments.map((s) => [s.tag, s.position, s.line]),
      [
        ['UNB', 1, 2],
        ['UNH', 2, 3],
        ['BGM', 3, 5],
      ],
    );
  });

  it('drops line breaks inside a segment (files wrapped at a fixed width)', () => {
    const tokens = read("FTX+AAB+++a long\r\n text'");
    assert.deepEqual(tokens.segments[0]!.elements[3], ['a long text']);
  });

  it('refuses an unterminated final segment, naming its position', () => {
    const tokens = read("UNB+UNOC:3'UNH+1+INVOIC'BGM+380");
    assert.equal(tokens.problem?.kind, 'syntax');
    assert.equal(tokens.problem?.segment, 3);
    assert.equal(tokens.problem?.tag, 'BGM');
    assert.match(tokens.problem.text, /segment 3 \(BGM\) has no segment terminator/);
    assert.equal(tokens.segments.length, 2, 'the segments before it are kept');
  });

  it('refuses a release character at the end of the input', () => {
    const tokens = read("UNB+UNOC:3'FTX+AAB+++text?");
    assert.equal(tokens.problem?.kind, 'syntax');
    assert.equal(tokens.problem?.segment, 2);
    assert.match(tokens.problem.text, /release character/);
  });

  it('refuses a segment that does not begin with a tag', () => {
    for (const text of ["UNB+UNOC:3'qty+1'", "UNB+UNOC:3''", "UNB+UNOC:3'QTYX+1'", "UNB+UNOC:3'QT:Y+1'"]) {
      const tokens = read(text);
      assert.equal(tokens.problem?.kind, 'syntax', text);
      assert.equal(tokens.problem?.segment, 2, text);
    }
  });

  it('stops at the segment bound', () => {
    const tokens = tokenize("A01'".repeat(50), 10);
    assert.equal(tokens.problem?.kind, 'limit');
    assert.equal(tokens.segments.length, 10);
  });

  it('reads numbers with either decimal mark and nothing else', () => {
    assert.equal(decimalText('7,40'), '7.40');
    assert.equal(decimalText('7.40'), '7.40');
    assert.equal(decimalText(',5'), '0.5');
    assert.equal(decimalText('12.'), '12');
    assert.equal(decimalText('-3.2'), '-3.2');
    for (const bad of ['', '1,000.00', '1e5', '12a', '-', '.', '+3', ' 3', '1.2.3']) assert.equal(decimalText(bad), undefined, bad);
  });
});
