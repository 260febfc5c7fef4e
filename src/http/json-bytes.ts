// Answers already written as JSON bytes (a harvest page: src/shared/json-bytes.ts).
import type { FastifyReply } from 'fastify';

/**
 * Sends JSON bytes as they are. The route's response schema still documents the answer; its
 * serializer is not run over bytes that are already JSON.
 */
export function sendJson(reply: FastifyReply, bytes: Buffer): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(bytes);
}
