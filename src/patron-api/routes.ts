// GET /PATRONAPI/{id}/dump and /PATRONAPI/{id}/{pin}/pintest, as Sierra's Patron API answers them:
// always 200 with an HTML body (errors too, as ERRNUM/ERRMSG lines), for allowed addresses only.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { access } from '../http/access.ts';
import { setRetryAfter } from '../http/error-handler.ts';
import type { App } from '../http/types.ts';
import { addressKey } from '../shared/client-address.ts';
import { DomainError } from '../shared/errors.ts';
import { LogSampler } from '../shared/log-sample.ts';
import { answers, fieldLines, page } from './body.ts';
import type { PatronApiService } from './service.ts';

/** Calls from addresses not allowed that are logged each minute. */
const STRANGERS_LOGGED_PER_MINUTE = 10;

const HEADERS = { 'content-type': 'text/html; charset=UTF-8', pragma: 'no-cache', 'cache-control': 'no-store' };

function send(reply: FastifyReply, body: string, status = 200): FastifyReply {
  return reply.code(status).headers(HEADERS).send(body);
}

export function patronApiRoutes(app: App, service: PatronApiService, allowed: (address: string | undefined) => boolean): void {
  // Sierra limits the Patron API to the addresses the library lists; anyone else is refused before
  // any lookup, and logged a few times a minute (a flood of such calls writes the count of the rest).
  const strangers = new LogSampler(STRANGERS_LOGGED_PER_MINUTE);
  const refuseStrangers = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!allowed(request.socket.remoteAddress)) {
      const sampled = strangers.take('');
      if (sampled.write)
        request.log.warn(
          { remote: request.socket.remoteAddress, ...(sampled.heldBack ? { heldBack: sampled.heldBack } : {}) },
          'Patron API call from an address not allowed',
        );
      return send(reply, answers.forbidden(), 403);
    }
  };
  const doc = { tags: ['patron-api'], hide: false };

  app.get(
    '/PATRONAPI/:id/dump',
    {
      config: { access: access.open },
      preHandler: refuseStrangers,
      schema: {
        ...doc,
        summary: 'Patron API: a patron’s record',
        description:
          'Sierra’s Patron API dump: `LABEL[pNN]=value<BR>` lines (fixed fields by number, holds, variable fields by tag), for the addresses of CARREL_PATRONAPI_ALLOW. The id is a barcode, a unique id, or `.p` and the record number.',
        params: Type.Object({ id: Type.String() }),
      },
    },
    async (request, reply) => {
      const lines = await service.dump(request.params.id);
      return send(reply, lines ? page(fieldLines(lines)) : answers.notFound());
    },
  );

  app.get(
    '/PATRONAPI/:id/:pin/pintest',
    {
      config: { access: access.open },
      preHandler: refuseStrangers,
      schema: {
        ...doc,
        summary: 'Patron API: test a PIN',
        description:
          '`RETCOD=0` when the PIN (percent-encoded) is the patron’s; `RETCOD=1` and `ERRNUM=4` when it is not, `RETCOD=2` when the patron has none; `ERRNUM=1` when there is no such patron. Failures count against the limits of POST /patrons/validate.',
        params: Type.Object({ id: Type.String(), pin: Type.String() }),
      },
    },
    async (request, reply) => {
      try {
        const result = await service.pinTest(
          request.params.id,
          request.params.pin,
          `patronapi:${addressKey(request.socket.remoteAddress)}`,
        );
        const body = { ok: answers.pinOk, wrongPin: answers.pinWrong, noPin: answers.pinMissing, notFound: answers.notFound }[result]();
        return send(reply, body);
      } catch (error) {
        if (error instanceof DomainError && error.kind === 'tooManyAttempts') {
          setRetryAfter(reply, error);
          return send(reply, answers.tooMany(error.retryAfterSec ?? 60));
        }
        throw error;
      }
    },
  );
}
