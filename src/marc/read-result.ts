// What a reader yields for each record of a file: the record, or why it could not be read.
import type { MarcRecord } from './record.ts';

// (bytes is named so that the raw reader's results, which may carry a record's bytes instead, narrow by it.)
export type ReadResult =
  | { position: string; record: MarcRecord; error?: undefined; bytes?: undefined }
  | { position: string; error: string; record?: undefined; bytes?: undefined };
