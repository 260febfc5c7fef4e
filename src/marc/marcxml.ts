// MARCXML (MARC 21 slim), read as a stream: a malformed record is reported with its line and
// the reading goes on with the next record.
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { isControlField, type Field, type MarcRecord } from './record.ts';
import type { ReadResult } from './read-result.ts';

export async function* readMarcXml(chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>): AsyncGenerator<ReadResult> {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const ready: ReadResult[] = [];
  let index = 0;
  let current: { leader?: string; fields: Field[]; error?: string; line: number } | undefined;
  let field: Field | undefined;
  let subfieldCode: string | undefined;
  let text = '';
  const local = (name: string) => name.slice(name.indexOf(':') + 1);

  const fail = (message: string) => {
    if (current) current.error ??= message;
    else ready.push({ position: `line ${parser.line}`, error: message });
  };
  parser.on('error', (error) => fail(error.message.replace(/^[^:]*:\d+:\d+: /, '')));
  parser.on('opentag', (tag: SaxesTagPlain) => {
    const name = local(tag.name);
    const attr = (key: string) => tag.attributes[key] ?? '';
    text = '';
    if (name === 'record') {
      index++;
      current = { fields: [], line: parser.line };
    } else if (!current) {
      return;
    } else if (name === 'controlfield') {
      field = { tag: attr('tag'), value: '' };
    } else if (name === 'datafield') {
      field = { tag: attr('tag'), ind1: attr('ind1') || ' ', ind2: attr('ind2') || ' ', subfields: [] };
    } else if (name === 'subfield') {
      subfieldCode = attr('code');
    }
  });
  parser.on('text', (t) => (text += t));
  parser.on('closetag', (tag) => {
    const name = local(tag.name);
    if (!current) return;
    if (name === 'leader') current.leader = text;
    else if (name === 'controlfield' && field && isControlField(field)) {
      field.value = text;
      current.fields.push(field);
      field = undefined;
    } else if (name === 'subfield' && field && !isControlField(field)) {
      field.subfields.push({ code: subfieldCode ?? '', value: text });
    } else if (name === 'datafield' && field) {
      current.fields.push(field);
      field = undefined;
    } else if (name === 'record') {
      const position = `record ${index} (line ${current.line})`;
      // What the record may hold (the leader's length, tags, codes) is checked by validate.ts.
      const error = current.error ?? (current.leader === undefined ? 'leader missing' : undefined);
      ready.push(error !== undefined ? { position, error } : { position, record: { leader: current.leader!, fields: current.fields } });
      current = undefined;
    }
  });

  const decoder = new TextDecoder('utf-8');
  for await (const chunk of chunks) {
    parser.write(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    yield* ready.splice(0);
  }
  parser.close();
  yield* ready.splice(0);
}

function escapeXml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

/** One record as a MARCXML <record> element (wrap several in <collection>). */
export function toMarcXml(record: MarcRecord, withNamespace = true): string {
  const lines = [
    `<record${withNamespace ? ' xmlns="http://www.loc.gov/MARC21/slim"' : ''}>`,
    `  <leader>${escapeXml(record.leader)}</leader>`,
  ];
  for (const f of record.fields) {
    if (isControlField(f)) lines.push(`  <controlfield tag="${escapeXml(f.tag)}">${escapeXml(f.value)}</controlfield>`);
    else {
      lines.push(`  <datafield tag="${escapeXml(f.tag)}" ind1="${escapeXml(f.ind1)}" ind2="${escapeXml(f.ind2)}">`);
      for (const sf of f.subfields) lines.push(`    <subfield code="${escapeXml(sf.code)}">${escapeXml(sf.value)}</subfield>`);
      lines.push('  </datafield>');
    }
  }
  lines.push('</record>');
  return lines.join('\n');
}
