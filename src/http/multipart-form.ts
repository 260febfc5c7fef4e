// multipart/form-data bodies of a few short text fields (a token request: DCB, a resource-sharing
// hub, logs in this way), read into an object as a urlencoded form would be. Files are refused.
import { Busboy } from '@fastify/busboy';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors } from './errors.ts';

const LIMITS = { fields: 20, fieldSize: 4096, fieldNameSize: 100, files: 0, parts: 20 };

function readForm(request: FastifyRequest, payload: NodeJS.ReadableStream): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    const form: Record<string, string> = {};
    let refused: Error | undefined;
    const refuse = (why: string) => (refused ??= errors.validationFailed(`the multipart form ${why}`));
    let busboy: InstanceType<typeof Busboy>;
    try {
      busboy = new Busboy({ headers: request.headers as { 'content-type': string }, limits: LIMITS });
    } catch {
      reject(errors.validationFailed('the multipart form has no boundary in its Content-Type'));
      return;
    }
    busboy.on('field', (name, value, nameTruncated, valueTruncated) => {
      if (nameTruncated || valueTruncated) refuse('has a field too long');
      else form[name] = value;
    });
    // With files: 0, busboy skips a file part and says so here.
    busboy.on('filesLimit', () => refuse('holds a file; only text fields are read'));
    busboy.on('fieldsLimit', () => refuse(`has more than ${LIMITS.fields} fields`));
    busboy.on('partsLimit', () => refuse(`has more than ${LIMITS.parts} parts`));
    busboy.on('error', () => refuse('is malformed'));
    busboy.on('finish', () => (refused ? reject(refused) : resolve(form)));
    payload.on('error', reject);
    payload.pipe(busboy);
  });
}

/** Lets the routes of this context take multipart/form-data bodies of text fields. */
export function acceptMultipartForms(app: FastifyInstance): void {
  app.addContentTypeParser('multipart/form-data', (request: FastifyRequest, payload: NodeJS.ReadableStream) => readForm(request, payload));
}
