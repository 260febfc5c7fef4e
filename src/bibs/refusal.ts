// Why a MARC record cannot become a bib: one answer for both doors that write bibs, `carrel import`
// (a failed record in its summary) and POST/PUT /bibs (a 400), in the same words.
import { LEADER } from '../marc/positions.ts';
import type { MarcRecord } from '../marc/record.ts';
import { marcProblem } from '../marc/validate.ts';

const OTHER_KINDS: Record<string, string> = {
  u: 'holdings',
  v: 'holdings',
  x: 'holdings',
  y: 'holdings',
  z: 'authority',
  q: 'community information',
};

/** Why a record that can be kept is not a bib, or undefined when it is one. */
export function notBibliographic(record: MarcRecord): string | undefined {
  const type = record.leader[LEADER.recordType] ?? '';
  const kind = OTHER_KINDS[type];
  if (kind === 'holdings')
    return `a holdings record (leader/06 "${type}"), not a bibliographic record: load it with carrel import, which links it to the bib its 004 names`;
  if (kind) return `a ${kind} record (leader/06 "${type}"), not a bibliographic record; Carrel keeps bibliographic and holdings records`;
  if (record.fields.some((f) => f.tag === '245')) return undefined;
  if (record.fields.some((f) => f.tag === '200')) return 'no title (245); the title is in 200, as in UNIMARC: Carrel takes MARC 21';
  return 'no title (245)';
}

/** Why a record read from any format cannot be written as a bib, or undefined when it can. */
export function bibRefusal(record: MarcRecord): string | undefined {
  return marcProblem(record) ?? notBibliographic(record);
}
