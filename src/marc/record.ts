// A MARC 21 record kept whole: the leader and every field in its original order. Control fields
// (tags 001-009) hold a value; data fields hold two indicators and subfields.
export interface Subfield {
  code: string;
  value: string;
}

export interface ControlField {
  tag: string;
  value: string;
}

export interface DataField {
  tag: string;
  ind1: string;
  ind2: string;
  subfields: Subfield[];
}

export type Field = ControlField | DataField;

export interface MarcRecord {
  leader: string;
  fields: Field[];
}

export function isControlField(field: Field): field is ControlField {
  return 'value' in field;
}

/** Tags 001 to 009 are control fields; so is 00X in general. */
export function isControlTag(tag: string): boolean {
  return /^00[0-9A-Za-z]$/.test(tag);
}

/** Why a record could not be read: a position in the input and the reason. */
export class MarcError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MarcError';
  }
}
