// /files: files received through the SFTP door and what became of them (README, "SFTP door and
// files"). Reading needs Files_Read; processing one again, Files_Write.
import { Type } from 'typebox';
import { access } from '../http/access.ts';
import { DEFAULT_LIMIT, pagingQuery } from '../http/params.ts';
import { errorRef } from '../http/schemas.ts';
import type { App } from '../http/types.ts';
import { parseRecordId } from '../shared/filters.ts';
import { FILE_KINDS } from './kinds.ts';
import type { FileService } from './service.ts';

export const FileSchema = Type.Object(
  {
    id: Type.String(),
    account: Type.String({ description: 'The SFTP account that sent it.' }),
    name: Type.String({ description: 'Its name as sent (its kind is read from its content, never from its name).' }),
    sha256: Type.String(),
    size: Type.Integer({ description: 'Bytes.' }),
    kind: Type.Union(
      FILE_KINDS.map((k) => Type.Literal(k)),
      { description: 'marc, edifact-invoic, edifact-ordrsp, edifact-orders or unknown' },
    ),
    status: Type.Union(
      ['received', 'processing', 'loaded', 'refused', 'failed'].map((s) => Type.Literal(s)),
      { description: 'received (waiting), processing, loaded, refused (its report says why) or failed (an error while processing)' },
    ),
    receivedDate: Type.String(),
    processedDate: Type.Union([Type.String(), Type.Null()]),
    report: Type.Unknown({
      description: 'What processing found: records loaded, and the first 100 refused with their positions and their total; at most 64 KB.',
    }),
  },
  { $id: 'File', additionalProperties: false },
);

const IdParams = Type.Object({ id: Type.String() });

export function fileRoutes(app: App, files: FileService): void {
  app.get(
    '/files',
    {
      config: { access: access.need('Files_Read') },
      schema: {
        summary: 'List files received',
        description: 'Newest first.',
        tags: ['files'],
        querystring: Type.Object(
          { ...pagingQuery, account: Type.Optional(Type.String({ maxLength: 64, description: 'Only the files of this SFTP account.' })) },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ total: Type.Integer(), start: Type.Integer(), entries: Type.Array(Type.Ref('File')) }) },
      },
    },
    async (request) => {
      const offset = request.query.offset ?? 0;
      const { total, entries } = await files.list({ account: request.query.account, limit: request.query.limit ?? DEFAULT_LIMIT, offset });
      return { total, start: offset, entries };
    },
  );

  app.post(
    '/files/:id/retry',
    {
      config: { access: access.need('Files_Write') },
      schema: {
        summary: 'Process a refused or failed file again',
        description: 'The file waits to be processed again (by this server at once); 409 when it is not refused or failed.',
        tags: ['files'],
        params: IdParams,
        response: { 202: Type.Ref('File'), 404: errorRef, 409: errorRef },
      },
    },
    async (request, reply) => {
      const file = await files.retry(parseRecordId('id', request.params.id));
      void files.processWaiting().catch((error: unknown) => request.log.error({ err: error }, 'processing files failed'));
      return reply.code(202).send(file);
    },
  );
}
