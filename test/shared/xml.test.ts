// XML as Carrel writes and reads it (src/shared/xml/): a value written by its schema reads back as
// the same value, the XSD made from the same schema accepts what is written (checked by libxml2
// through Python's lxml, a validator nobody wrote for Carrel) and refuses what breaks it, and the
// reader refuses what could cost the server: a DTD, deep nesting, huge texts, too many elements.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { Type } from 'typebox';
import {
  readXmlTree,
  valueFromXml,
  writeXml,
  XmlLimitError,
  XmlValueError,
  xsdTypes,
  DEFAULT_XML_LIMITS,
} from '../../src/shared/xml/index.ts';

const Phone = Type.Object({ number: Type.String(), type: Type.Optional(Type.String()) });
const Person = Type.Object(
  {
    id: Type.String(),
    names: Type.Optional(Type.Array(Type.String())),
    patronType: Type.Optional(Type.Integer()),
    moneyOwed: Type.Optional(Type.Number()),
    suppressed: Type.Optional(Type.Boolean()),
    phones: Type.Optional(Type.Array(Phone)),
    fixedFields: Type.Optional(
      Type.Record(Type.String(), Type.Object({ label: Type.String(), value: Type.Union([Type.String(), Type.Number(), Type.Boolean()]) })),
    ),
    note: Type.Optional(Type.Union([Type.Null(), Type.String()])),
    varFields: Type.Optional(
      Type.Array(
        Type.Union([
          Type.Object({ fieldTag: Type.String(), content: Type.String() }),
          Type.Object({
            fieldTag: Type.String(),
            marcTag: Type.String(),
            subfields: Type.Array(Type.Object({ tag: Type.String(), content: Type.String() })),
          }),
        ]),
      ),
    ),
    grid: Type.Optional(Type.Array(Type.Array(Type.Integer()))),
  },
  { $id: 'Person' },
);
const PersonList = Type.Object({ total: Type.Integer(), entries: Type.Array(Type.Ref('Person')) });
const refs = new Map<string, unknown>([['Person', Person]]);
const NS = 'urn:carrel:test';

const person = {
  id: '1000123',
  names: ['Doe, Jane', 'Roe & <Richard> "R"'],
  patronType: 3,
  moneyOwed: 12.5,
  suppressed: false,
  phones: [{ number: '555-0100', type: 't' }, { number: '555-0101' }],
  fixedFields: { '47': { label: 'P TYPE', value: 3 }, '48': { label: 'TOT CHKOUT', value: 'x' }, '99': { label: 'FLAG', value: true } },
  note: null,
  varFields: [
    { fieldTag: 'z', content: 'jane@example.org' },
    { fieldTag: 'n', marcTag: '100', subfields: [{ tag: 'a', content: 'Doe, Jane' }] },
  ],
  grid: [[1, 2], [3]],
};

function validateWithLxml(xsd: string, xml: string): Promise<{ ok: boolean; message: string }> {
  const program = [
    'import sys, json',
    'from lxml import etree',
    'data = json.loads(sys.stdin.read())',
    'schema = etree.XMLSchema(etree.fromstring(data["xsd"].encode()))',
    'ok = schema.validate(etree.fromstring(data["xml"].encode()))',
    'print(json.dumps({"ok": ok, "message": str(schema.error_log.last_error) if not ok else ""}))',
  ].join('\n');
  return new Promise((resolve, reject) => {
    // Debian's python3 (with lxml), not whatever python3 comes first on PATH.
    const child = execFile('/usr/bin/python3', ['-c', program], { timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout) as { ok: boolean; message: string });
    });
    child.stdin!.end(JSON.stringify({ xsd, xml }));
  });
}

describe('writing a value by its schema', () => {
  it('makes an element of each member, repeats array members, keys map entries and marks null as nil', () => {
    const xml = writeXml('person', person, Type.Ref('Person'), refs, { namespace: NS });
    assert.match(xml, /^<person xmlns="urn:carrel:test" xmlns:xsi="http:\/\/www\.w3\.org\/2001\/XMLSchema-instance"><id>1000123<\/id>/);
    assert.match(xml, /<names>Doe, Jane<\/names><names>Roe &amp; &lt;Richard&gt; &quot;R&quot;<\/names>/);
    assert.match(xml, /<phones><number>555-0101<\/number><\/phones>/);
    assert.match(xml, /<fixedFields><entry key="47"><label>P TYPE<\/label><value>3<\/value><\/entry>/);
    assert.match(xml, /<note xsi:nil="true"\/>/);
    assert.match(xml, /<grid><item>1<\/item><item>2<\/item><\/grid><grid><item>3<\/item><\/grid>/);
  });

  it('writes only the members the schema names, as the JSON answers do', () => {
    const xml = writeXml('person', { ...person, pin: 'secret-hash' }, Type.Ref('Person'), refs);
    assert.doesNotMatch(xml, /pin|secret-hash/);
  });

  it('replaces characters XML cannot carry instead of writing an unreadable document', () => {
    const xml = writeXml('person', { id: 'a\u0001b\ud800c' }, Person, refs);
    assert.equal(xml, '<person><id>a\ufffdb\ufffdc</id></person>');
    readXmlTree(xml);
  });
});

describe('reading a value back by its schema', () => {
  it('reads what it wrote as the same value', () => {
    const list = { total: 2, entries: [person, { id: '2', names: [] }] };
    const tree = readXmlTree(writeXml('people', list, PersonList, refs, { namespace: NS }));
    // An empty array writes no element: it reads back as an absent member. A member that may be
    // text, a number or true/false reads back as its text: XML cannot tell "3" from 3.
    const asText = {
      ...person,
      fixedFields: {
        '47': { label: 'P TYPE', value: '3' },
        '48': { label: 'TOT CHKOUT', value: 'x' },
        '99': { label: 'FLAG', value: 'true' },
      },
    };
    assert.deepEqual(valueFromXml(tree, PersonList, refs), { total: 2, entries: [asText, { id: '2' }] });
  });

  it('refuses an element the schema does not name, naming its path', () => {
    const tree = readXmlTree('<person><id>1</id><phones><number>1</number><extension>2</extension></phones></person>');
    assert.throws(
      () => valueFromXml(tree, Person, refs),
      (e: unknown) => e instanceof XmlValueError && e.path === 'person.phones[0].extension' && /number, type/.test(e.message),
    );
  });

  it('takes a member in its parent’s namespace or in none, and refuses one in another', () => {
    assert.deepEqual(valueFromXml(readXmlTree('<p xmlns="urn:a"><id>1</id></p>'), Person, refs), { id: '1' });
    assert.deepEqual(valueFromXml(readXmlTree('<a:p xmlns:a="urn:a"><id>1</id></a:p>'), Person, refs), { id: '1' });
    assert.throws(
      () => valueFromXml(readXmlTree('<p xmlns="urn:a"><id xmlns="urn:b">1</id></p>'), Person, refs),
      /p\.id: is in the namespace "urn:b", not "urn:a"/,
    );
  });

  it('refuses a second element where one is allowed, a number that is not one, and text among elements', () => {
    assert.throws(() => valueFromXml(readXmlTree('<p><id>1</id><id>2</id></p>'), Person, refs), /p\.id: is given more than once/);
    assert.throws(
      () => valueFromXml(readXmlTree('<p><id>1</id><patronType>3.5</patronType></p>'), Person, refs),
      /p\.patronType: "3\.5" is not a whole number/,
    );
    assert.throws(() => valueFromXml(readXmlTree('<p><id>1</id><moneyOwed>1e400</moneyOwed></p>'), Person, refs), /is not a number/);
    assert.throws(() => valueFromXml(readXmlTree('<p>hello<id>1</id></p>'), Person, refs), /p: holds text where elements were expected/);
    assert.throws(
      () => valueFromXml(readXmlTree('<p><id xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:nil="true"/></p>'), Person, refs),
      /p\.id: cannot be nil/,
    );
  });
});

describe('the XSD made from the same schema', () => {
  const xsd = xsdTypes(
    NS,
    [
      { name: 'people', schema: PersonList },
      { name: 'person', schema: Type.Ref('Person') },
    ],
    refs,
  );

  it('accepts what the writer writes (libxml2)', async () => {
    assert.match(xsd, /<xs:complexType name="Person">/);
    assert.equal((xsd.match(/<xs:complexType name="Person">/g) ?? []).length, 1);
    const one = await validateWithLxml(xsd, writeXml('person', person, Type.Ref('Person'), refs, { namespace: NS }));
    assert.deepEqual(one, { ok: true, message: '' });
    const list = await validateWithLxml(xsd, writeXml('people', { total: 1, entries: [person] }, PersonList, refs, { namespace: NS }));
    assert.deepEqual(list, { ok: true, message: '' });
  });

  it('refuses a document that breaks it: a member missing, a word for a number, an unknown element', async () => {
    const open = `<person xmlns="${NS}">`;
    assert.equal((await validateWithLxml(xsd, `${open}<names>x</names></person>`)).ok, false);
    assert.equal((await validateWithLxml(xsd, `${open}<id>1</id><patronType>three</patronType></person>`)).ok, false);
    assert.equal((await validateWithLxml(xsd, `${open}<id>1</id><pin>1234</pin></person>`)).ok, false);
    assert.equal((await validateWithLxml(xsd, `${open}<id>1</id><note/></person>`)).ok, true);
  });
});

describe('what the reader refuses', () => {
  it('refuses any document type declaration, so no entity can expand (billion laughs, external entities)', () => {
    const laughs = [
      '<?xml version="1.0"?>',
      '<!DOCTYPE lolz [<!ENTITY lol "lol">',
      ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`),
      ']>',
      '<lolz>&lol9;</lolz>',
    ].join('\n');
    assert.throws(
      () => readXmlTree(laughs),
      (e: unknown) => e instanceof XmlLimitError && /document type declaration/.test(e.message),
    );
    const external = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>';
    assert.throws(() => readXmlTree(external), XmlLimitError);
    assert.throws(() => readXmlTree('<x>&undefined;</x>'), /undefined/);
  });

  it('bounds depth, elements, attributes, text and size', () => {
    const deep = `${'<a>'.repeat(DEFAULT_XML_LIMITS.maxDepth + 1)}${'</a>'.repeat(DEFAULT_XML_LIMITS.maxDepth + 1)}`;
    assert.throws(() => readXmlTree(deep), /nested deeper than 32/);
    readXmlTree(`${'<a>'.repeat(DEFAULT_XML_LIMITS.maxDepth)}${'</a>'.repeat(DEFAULT_XML_LIMITS.maxDepth)}`);
    const limits = { ...DEFAULT_XML_LIMITS, maxElements: 10, maxTextLength: 100, maxAttributes: 3, maxBytes: 1000 };
    assert.throws(() => readXmlTree(`<r>${'<e/>'.repeat(10)}</r>`, limits), /more than 10 elements/);
    readXmlTree(`<r>${'<e/>'.repeat(9)}</r>`, limits);
    assert.throws(() => readXmlTree(`<r>${'x'.repeat(60)}<![CDATA[${'y'.repeat(41)}]]></r>`, limits), /longer than 100 characters in <r>/);
    assert.throws(() => readXmlTree('<r a="1" b="2" c="3" d="4"/>', limits), /more than 3 attributes/);
    assert.throws(() => readXmlTree(`<r>${'é'.repeat(500)}</r>`, limits), /larger than 1000 bytes/);
  });

  it('refuses processing instructions, and tells malformed XML from a refused construct', () => {
    assert.throws(() => readXmlTree('<r><?evil stuff?></r>'), XmlLimitError);
    assert.throws(
      () => readXmlTree('<r><a></r>'),
      (e: unknown) => e instanceof Error && !(e instanceof XmlLimitError),
    );
    assert.throws(() => readXmlTree(''), /no element|end|root/i);
  });

  it('resolves namespaces and keeps namespaced attributes by their URI', () => {
    const tree = readXmlTree('<s:E xmlns:s="urn:s" xmlns:i="urn:i"><s:B i:nil="true" plain="p">t</s:B></s:E>');
    assert.equal(tree.name, 'E');
    assert.equal(tree.ns, 'urn:s');
    assert.deepEqual({ ...tree.children[0]!.attributes }, { '{urn:i}nil': 'true', nil: 'true', plain: 'p' });
    assert.equal(tree.children[0]!.text, 't');
  });
});
