// Absolute record URLs (docs/api-contract.md, "Records"), from the configured public base URL or the request's host.
import type { FastifyRequest } from 'fastify';
import { collapseSlashes } from './tolerance.ts';

export function origin(request: FastifyRequest, publicBaseUrl: string | undefined): string {
  return publicBaseUrl ?? `${request.protocol}://${request.host}`;
}

/** The URL of a record of `resource` under the same API prefix the request came in on (/v6, /iii/sierra-api/v5, …). */
export function recordLink(request: FastifyRequest, publicBaseUrl: string | undefined, resource: string, id: string): string {
  const path = collapseSlashes(request.originalUrl.split('?')[0]!); // the prefix the client used, before canonicalUrl
  const prefix = path.slice(0, path.indexOf(`/${resource}`));
  return `${origin(request, publicBaseUrl)}${prefix}/${resource}/${id}`;
}

/** The API's absolute base for this request, up to its version: https://host/iii/sierra-api/v6. */
export function apiBase(request: FastifyRequest, publicBaseUrl: string | undefined): string {
  const path = collapseSlashes(request.originalUrl.split('?')[0]!); // the prefix the client used, before canonicalUrl
  const match = /^(.*?\/v[56])(?:\/|$)/.exec(path);
  return `${origin(request, publicBaseUrl)}${match ? match[1] : '/v6'}`;
}
