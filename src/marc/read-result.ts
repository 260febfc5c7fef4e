// What a reader yields for each record of a file: the record, or why it could not be read.
import type { MarcRecord } from './record.ts';

export type ReadResult = { position: string; record: MarcRecord; error?: undefined } | { position: string; error: string; record?: undefined };
