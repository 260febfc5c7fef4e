// The real MARC records in ../shared/data/marc (read in place, never copied into the project).
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';

export const MARC_DIR = path.resolve(import.meta.dirname, '../../../shared/data/marc');

export function marcFile(name: string): string {
  return path.join(MARC_DIR, name);
}

/** The file as a stream of small chunks, so record boundaries fall inside chunks. */
export function chunks(name: string, size = 4096): AsyncIterable<Uint8Array> {
  return fs.createReadStream(marcFile(name), { highWaterMark: size }) as Readable & AsyncIterable<Uint8Array>;
}
