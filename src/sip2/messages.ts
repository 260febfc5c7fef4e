// SIP2 (3M Standard Interchange Protocol 2.00) framing: a message is a two-digit code, fixed-length
// fields, then `XX…|` fields, then (with error detection) `AY<digit>AZ<4 hex>`, ended by a CR. The
// checksum is the two's complement of the 16-bit sum of the bytes up to and including "AZ".
import { partsIn } from '../shared/calendar.ts';
import { FIELD, type FieldId } from './fields.ts';

/** The checksum of a message's bytes up to and including "AZ", as four upper-case hex digits. */
export function checksum(text: string): string {
  let sum = 0;
  for (const byte of Buffer.from(text, 'utf8')) sum = (sum + byte) & 0xffff;
  return (-sum & 0xffff).toString(16).toUpperCase().padStart(4, '0');
}

export interface Request {
  code: string;
  /** What follows the code: the fixed fields, then the `XX…|` fields. */
  body: string;
  /** The sequence number, when the message carried one. */
  sequence?: string;
  /** False when the message carried a checksum that does not match. */
  valid: boolean;
  /** Whether it carried a checksum (error detection on). */
  checked: boolean;
}

/** A message without its CR: its code, body, sequence number and whether its checksum holds. */
export function readRequest(raw: string): Request {
  // FIELD.sequenceNumber (AY) and FIELD.checksum (AZ), written out: a pattern the linter can check.
  const tail = /(?:AY(\d))?AZ([0-9A-Fa-f]{4})$/.exec(raw);
  if (!tail) return { code: raw.slice(0, 2), body: raw.slice(2), valid: true, checked: false };
  const upTo = raw.slice(0, tail.index + tail[0].length - 4);
  const valid = checksum(upTo) === tail[2]!.toUpperCase();
  return { code: raw.slice(0, 2), body: raw.slice(2, tail.index), sequence: tail[1], valid, checked: true };
}

/** A message to send: the text, with `AY<sequence>AZ<checksum>` when the request had error detection, and the CR. */
export function frame(text: string, request: Pick<Request, 'checked' | 'sequence'> | undefined): string {
  if (!request?.checked) return `${text}\r`;
  const head = `${text}${request.sequence === undefined ? '' : `${FIELD.sequenceNumber}${request.sequence}`}${FIELD.checksum}`;
  return `${head}${checksum(head)}\r`;
}

/** The `XX…|` fields of a body after `fixed` characters: each code's values, in order. */
export function fieldsOf(body: string, fixed: number): Map<string, string[]> {
  const fields = new Map<string, string[]>();
  for (const part of body.slice(fixed).split('|')) {
    if (part.length < 2) continue;
    const code = part.slice(0, 2);
    fields.set(code, [...(fields.get(code) ?? []), part.slice(2)]);
  }
  return fields;
}

/** A field to send: its code, its value (no `|`, no CR; at most 255 characters), and the `|`. */
export function field(code: FieldId, value: string | number | undefined | null): string {
  if (value === undefined || value === null) return '';
  return `${code}${String(value)
    .replace(/[|\r\n]/g, ' ')
    .slice(0, 255)}|`;
}

/** SIP2's date and time: YYYYMMDD, four spaces (local time), HHMMSS, in the library's time zone. */
export function sipDate(instant: Date, timeZone: string): string {
  const p = partsIn(instant, timeZone);
  return `${p.year}${p.month}${p.day}    ${p.hour}${p.minute}${p.second}`;
}

/** Y or N. */
export const yn = (value: boolean) => (value ? 'Y' : 'N');
