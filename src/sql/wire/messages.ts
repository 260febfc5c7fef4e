// PostgreSQL's wire protocol (version 3), as much of it as the SQL door speaks: reading frontend
// messages field by field, writing backend messages, and walking a run of backend messages.
// https://www.postgresql.org/docs/current/protocol-message-formats.html

/** Reads one message's body, field by field. */
export class FieldReader {
  private at = 0;
  constructor(private readonly body: Buffer) {}

  byte(): number {
    return this.body[this.at++]!;
  }
  int16(): number {
    const value = this.body.readInt16BE(this.at);
    this.at += 2;
    return value;
  }
  int32(): number {
    const value = this.body.readInt32BE(this.at);
    this.at += 4;
    return value;
  }
  cstring(): string {
    const end = this.body.indexOf(0, this.at);
    if (end < 0) throw new Error('a string in the message has no end');
    const text = this.body.toString('utf8', this.at, end);
    this.at = end + 1;
    return text;
  }
  bytes(n: number): Buffer {
    const value = this.body.subarray(this.at, this.at + n);
    this.at += n;
    return value;
  }
  rest(): Buffer {
    return this.body.subarray(this.at);
  }
}

/** A field of a message being written: text as a C string, a number as its Int32, bytes as they are. */
export type Field = string | Buffer | { int16: number } | { int32: number };

function fieldBytes(field: Field): Buffer {
  if (typeof field === 'string') return Buffer.from(`${field}\0`, 'utf8');
  if (Buffer.isBuffer(field)) return field;
  const out = Buffer.alloc('int16' in field ? 2 : 4);
  if ('int16' in field) out.writeInt16BE(field.int16);
  else out.writeInt32BE(field.int32);
  return out;
}

/** One typed message: its type byte, its length, its fields. */
export function message(type: string, ...fields: Field[]): Buffer {
  const body = Buffer.concat(fields.map(fieldBytes));
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

export interface Message {
  type: string;
  body: Buffer;
  /** The whole message, type and length included. */
  whole: Buffer;
}

/** The typed messages of a buffer of whole messages. */
export function* messagesIn(buffer: Uint8Array): Generator<Message> {
  const bytes = Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  let at = 0;
  while (at + 5 <= bytes.length) {
    const length = bytes.readInt32BE(at + 1);
    yield {
      type: String.fromCharCode(bytes[at]!),
      body: bytes.subarray(at + 5, at + 1 + length),
      whole: bytes.subarray(at, at + 1 + length),
    };
    at += 1 + length;
  }
}

export type TransactionStatus = 'I' | 'T' | 'E';

/** An ErrorResponse or NoticeResponse's fields: severity, SQLSTATE, message. */
function report(type: 'E' | 'N', severity: string, code: string, text: string): Buffer {
  // Each field: its one-byte kind, then its text as a C string; a zero byte ends them.
  const field = (kind: string, value: string) => Buffer.from(`${kind}${value}\0`, 'utf8');
  return message(type, field('S', severity), field('V', severity), field('C', code), field('M', text), Buffer.from([0]));
}

export const backend = {
  error: (code: string, text: string, severity = 'ERROR') => report('E', severity, code, text),
  notice: (code: string, text: string, severity = 'NOTICE') => report('N', severity, code, text),
  ready: (status: TransactionStatus) => message('Z', Buffer.from(status, 'latin1')),
  parameterStatus: (name: string, value: string) => message('S', name, value),
  commandComplete: (tag: string) => message('C', tag),
  parseComplete: () => message('1'),
  bindComplete: () => message('2'),
  closeComplete: () => message('3'),
  noData: () => message('n'),
  noParameters: () => message('t', { int16: 0 }),
  authentication: (code: number, data?: string) =>
    message('R', { int32: code }, ...(data === undefined ? [] : [Buffer.from(data, 'utf8')])),
  backendKeyData: (pid: number, secret: number) => message('K', { int32: pid }, { int32: secret }),
};

/** An ErrorResponse's SQLSTATE and message. */
export function errorFields(body: Buffer): { code: string; text: string } {
  const fields = new FieldReader(body);
  let code = '';
  let text = '';
  for (let kind = fields.byte(); kind !== 0 && kind !== undefined; kind = fields.byte()) {
    const value = fields.cstring();
    if (kind === 0x43) code = value; // 'C'
    if (kind === 0x4d) text = value; // 'M'
  }
  return { code, text };
}

/**
 * Bytes received and not yet taken, kept as the chunks they came in: a long message is copied
 * once, when it is whole (joining each chunk to the ones before made a 30 MB statement cost
 * hundreds of copies of itself).
 */
export class Received {
  private chunks: Buffer[] = [];
  length = 0;

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  /** The first n bytes (n ≤ length), without taking them. */
  peek(n: number): Buffer {
    while (this.chunks[0]!.length < n) this.chunks.splice(0, 2, Buffer.concat([this.chunks[0]!, this.chunks[1]!]));
    return this.chunks[0]!.subarray(0, n);
  }

  /** The first n bytes (n ≤ length), taken: a buffer of their own. */
  take(n: number): Buffer {
    this.length -= n;
    const first = this.chunks[0]!;
    if (first.length === n) return this.chunks.shift()!;
    if (first.length > n) {
      this.chunks[0] = first.subarray(n);
      return Buffer.from(first.subarray(0, n));
    }
    const out = Buffer.allocUnsafe(n);
    for (let at = 0; at < n;) {
      const chunk = this.chunks[0]!;
      const part = Math.min(chunk.length, n - at);
      chunk.copy(out, at, 0, part);
      at += part;
      if (part === chunk.length) this.chunks.shift();
      else this.chunks[0] = chunk.subarray(part);
    }
    return out;
  }

  clear(): void {
    this.chunks = [];
    this.length = 0;
  }
}
