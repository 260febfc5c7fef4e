// XML on the REST door: a route that names its XML element (`config: { xml: 'bib' }`) answers the
// same record as XML when the client's Accept prefers it (negotiate.ts), made from the route's own
// 200 schema by src/shared/xml, so that the XML, its XSD (served at XML_SCHEMA_PATH) and the JSON
// answer cannot drift apart. JSON stays the default.
//
// The XML is written from the JSON the route has already serialized (in onSend), not from the
// handler's value: the JSON serializer (fast-json-stringify) is what drops members the schema does
// not name and coerces the rest, and answers such as a harvest page are sent as JSON bytes without
// it; reading its output back gives the XML exactly the JSON's content, whichever way it was made.
// An error on such a route is XML too (<error>, the ErrorBody schema) for a client that asked for XML.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { writeXml, xsdTypes, type SchemaRefs } from '../shared/xml/index.ts';
import { access } from './access.ts';
import { errors } from './errors.ts';
import { negotiate } from './negotiate.ts';
import { asList } from './route-hooks.ts';
import { errorRef } from './schemas.ts';

/** The namespace of every XML answer (its default namespace) and of the XSD (its targetNamespace). */
export const XML_NAMESPACE = 'urn:carrel:rest';
/** Where the XSD of every XML answer is served, without a token. */
export const XML_SCHEMA_PATH = '/v6/xml-schema';

/** What an XML-capable route can write, the default first. */
const REPRESENTATIONS = ['application/json', 'application/xml', 'text/xml'] as const;
const ERROR_ELEMENT = 'error';
const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The element an XML answer of this route is written as; the route answers XML when given. */
    xml?: string;
  }
}

/** The Accept header's choice, made once a request (the 406 hook and the answer both ask). */
const chosen = new WeakMap<FastifyRequest, string | undefined>();
function representation(request: FastifyRequest): string | undefined {
  if (!chosen.has(request)) chosen.set(request, negotiate(request.headers.accept, REPRESENTATIONS));
  return chosen.get(request);
}

/** Adds Accept to the answer's Vary: the answer depends on it, and caches must know. */
export function varyOnAccept(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  const list =
    vary === undefined
      ? []
      : String(vary)
          .split(',')
          .map((v) => v.trim());
  if (!list.some((v) => v === '*' || v.toLowerCase() === 'accept')) reply.header('vary', [...list.filter(Boolean), 'Accept'].join(', '));
}

/**
 * The schemas every domain registered (app.addSchema), by id, for `$ref` in the XML mapping: read
 * on the first call, once the app answers and every domain has added its own, then kept.
 */
export function registeredSchemas(app: FastifyInstance): () => SchemaRefs {
  let refs: SchemaRefs | undefined;
  return () => (refs ??= new Map(Object.entries(app.getSchemas())));
}

export function installXmlAnswers(app: FastifyInstance): void {
  /** Each XML element an answer can be, and the schema it is written by. */
  const roots = new Map<string, unknown>();
  const schemas = registeredSchemas(app);
  let xsd: string | undefined;

  app.addHook('onRoute', (route: RouteOptions) => {
    const root = route.config?.xml;
    if (root === undefined) return;
    const response = (route.schema?.response ?? {}) as Record<string, unknown>;
    const schema = response[200];
    if (schema === undefined) throw new Error(`route ${route.url} answers XML but declares no 200 answer to write it from`);
    const known = roots.get(root);
    if (root === ERROR_ELEMENT || (known !== undefined && JSON.stringify(known) !== JSON.stringify(schema))) {
      throw new Error(`route ${route.url}: the XML element <${root}> is already another answer's`);
    }
    roots.set(root, schema);
    const description = [
      route.schema?.description,
      `As XML with Accept: application/xml (or text/xml): the element <${root}> in the namespace ${XML_NAMESPACE}, its XML Schema at ${XML_SCHEMA_PATH}; errors as <${ERROR_ELEMENT}>. 406 when Accept allows neither JSON nor XML.`,
    ]
      .filter(Boolean)
      .join(' ');
    route.schema = {
      ...route.schema,
      description,
      produces: ['application/json', 'application/xml'],
      response: { ...response, 406: response[406] ?? errorRef },
    };
    route.onRequest = [
      ...asList(route.onRequest),
      async (request: FastifyRequest) => {
        if (representation(request) === undefined) {
          throw errors.notAcceptable('Accept must allow application/json or application/xml (or text/xml)');
        }
      },
    ];
    route.onSend = [
      ...asList(route.onSend),
      async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
        varyOnAccept(reply);
        const type = representation(request);
        if (type === undefined || type === REPRESENTATIONS[0]) return payload;
        if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return payload;
        const ok = reply.statusCode === 200;
        if (!ok && reply.statusCode < 400) return payload;
        const json = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;
        if (json === undefined) return payload;
        const value: unknown = JSON.parse(json);
        const xml = writeXml(ok ? root : ERROR_ELEMENT, value, ok ? schema : errorRef, schemas(), { namespace: XML_NAMESPACE });
        reply.type(`${type}; charset=utf-8`);
        return `${DECLARATION}${xml}\n`;
      },
    ];
  });

  app.get(XML_SCHEMA_PATH, { config: { access: access.docs }, schema: { hide: true } }, async (_request, reply) => {
    xsd ??= xsdTypes(
      XML_NAMESPACE,
      [...roots.keys(), ERROR_ELEMENT].sort().map((name) => ({ name, schema: roots.get(name) ?? errorRef })),
      schemas(),
    );
    return reply.type('application/xml; charset=utf-8').send(`${DECLARATION}${xsd}\n`);
  });
}
