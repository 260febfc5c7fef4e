// Character positions in a MARC 21 record's fixed parts, counted from 0 as MARC 21 writes them
// ("leader/06" is LEADER.recordType). A single position is a number; a run of positions is
// [start, end), ready for slice (MARC 21's "07-10" is [7, 11]). Only the positions Carrel reads
// or writes are named. (Sierra's numbered fixed-length fields are another thing: see
// src/shared/fixed-fields.ts.)

/** The leader's length. */
export const LEADER_LENGTH = 24;

export const LEADER = {
  /** 00-04: the record's length in bytes, five digits. */
  recordLength: [0, 5],
  /** 05: record status (n new, c corrected, d deleted, …). */
  recordStatus: 5,
  /** 06: type of record (a language material, … u, v, x, y holdings, z authority). */
  recordType: 6,
  /** 07: bibliographic level (m monograph, s serial, …). */
  bibLevel: 7,
  /** 09: character coding scheme: a UCS/Unicode (UTF-8), blank MARC-8. */
  characterCoding: 9,
  /** 10: indicator count (2). */
  indicatorCount: 10,
  /** 12-16: base address of data (where the fields start), five digits. */
  baseAddress: [12, 17],
  /** 17: encoding level; from here to the leader's end it is kept as given. */
  encodingLevel: 17,
} as const;

/** A directory entry, one a field, after the leader: tag, field length, starting position. */
export const DIRECTORY_ENTRY = {
  /** 00-02: the field's tag. */
  tag: [0, 3],
  /** 03-06: the field's length, terminator counted, four digits. */
  fieldLength: [3, 7],
  /** 07-11: where the field starts, from the base address, five digits. */
  start: [7, 12],
  /** The entry's length. */
  length: 12,
} as const;

/** Positions in field 008 (fixed-length data elements) that Carrel derives columns from. */
export const F008 = {
  /** 07-10: date 1 (the year of publication, for most records). */
  date1: [7, 11],
  /** 15-17: place of publication (a MARC country code). */
  place: [15, 18],
  /** 23: form of item, for books (o online, q direct electronic, s electronic, …). */
  formOfItem: 23,
  /** 35-37: language (a MARC language code). */
  language: [35, 38],
} as const;
