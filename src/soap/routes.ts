// POST /soap/{service}: one SOAP call a request; GET /soap/{service}?wsdl: its WSDL. Each call
// reads the envelope, finds the operation, authenticates (WS-Security UsernameToken, HTTP Basic
// or a bearer token), checks the permission of the operation's REST twin, reads and validates
// the arguments, then runs the operation, which calls the same services as REST. Every failure is
// a fault in the client's SOAP version; one before the service call has written nothing.
import type { FastifyRequest } from 'fastify';
import { Compile } from 'typebox/compile';
import type { Validator } from 'typebox/compile';
import type { TProperties } from 'typebox';
import type { Config } from '../config.ts';
import type { Deps } from '../domain.ts';
import { access } from '../http/access.ts';
import { parseBasic, parseBearer } from '../http/authorization.ts';
import { answerFor, toApiError } from '../http/error-handler.ts';
import { errors } from '../http/errors.ts';
import { problemIn } from '../http/input-guard.ts';
import { apiBase, origin } from '../http/links.ts';
import { overRateLimit } from '../http/rate-limit.ts';
import type { App } from '../http/types.ts';
import { valueFromXml, XmlValueError, writeXml, type SchemaRefs, type XmlElement } from '../shared/xml/index.ts';
import {
  envelopeXml,
  EnvelopeFault,
  PASSWORD_TEXT,
  readEnvelope,
  requestedAction,
  versionOfContentType,
  WSSE_NS,
  type SoapVersion,
} from './envelope.ts';
import { faultStatus, faultXml } from './faults.ts';
import type { SoapOperation, SoapService } from './operation.ts';
import { soapAction, wsdl } from './wsdl.ts';

/** The largest request body: an envelope past it is refused before it is read. */
export const SOAP_BODY_LIMIT = 2 * 1024 * 1024;

const PASSWORD_DIGEST = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordDigest';
const REALM = 'Basic realm="Carrel SOAP", charset="UTF-8"';

interface SoapRouteOptions {
  services: Deps['services'];
  config: Config;
  /** The schemas registered by every domain (Patron, ErrorBody, …), for Type.Ref in operations' schemas. */
  refs: () => SchemaRefs;
}

export function soapRoutes(app: App, soapServices: readonly SoapService[], o: SoapRouteOptions): void {
  // SOAP 1.1's text/xml and SOAP 1.2's application/soap+xml, as text (app.ts reads text/xml so already).
  for (const type of ['text/xml', 'application/soap+xml']) {
    if (!app.hasContentTypeParser(type)) app.addContentTypeParser(type, { parseAs: 'string' }, (_request, body, done) => done(null, body));
  }

  const versions = new WeakMap<FastifyRequest, SoapVersion>();
  app.setErrorHandler((error: unknown, request, reply) => {
    // The route's service (a body too large is refused before the handler runs).
    const service = soapServices.find((s) => `/soap/${s.name}` === request.routeOptions.url) ?? soapServices[0]!;
    const version = versions.get(request) ?? versionOfContentType(request.headers['content-type']);
    const apiError = answerFor(error, request, reply, error instanceof EnvelopeFault ? error.apiError : toApiError(error));
    if (apiError.httpStatus === 401) void reply.header('www-authenticate', REALM);
    const fault =
      error instanceof EnvelopeFault ? { apiError, faultCode: error.faultCode, notUnderstood: error.notUnderstood } : { apiError };
    return reply
      .code(faultStatus(apiError, version, o.config.soapFaultStatus))
      .type(version.contentType)
      .send(faultXml(version, fault, service.namespace));
  });

  const validators = new Map<SoapOperation, Validator>();
  const validatorOf = (op: SoapOperation): Validator => {
    let validator = validators.get(op);
    if (!validator) {
      validator = Compile(Object.fromEntries(o.refs()) as TProperties, op.input);
      validators.set(op, validator);
    }
    return validator;
  };
  const documents = new Map<string, string>();

  for (const service of soapServices) {
    const byName = new Map(service.operations.map((op) => [op.name, op]));
    const path = `/soap/${service.name}`;

    app.get(path, { config: { access: access.docs }, schema: { hide: true } }, async (request, reply) => {
      // The address in the WSDL is this server's as the client reached it (or CARREL_PUBLIC_URL).
      const location = `${origin(request, o.config.publicBaseUrl)}${path}`;
      let document = documents.get(location);
      if (!document) {
        document = wsdl(service, o.refs(), location);
        if (documents.size < 16) documents.set(location, document);
      }
      return reply.type('text/xml; charset=utf-8').send(document);
    });

    app.post(path, { config: { access: access.open }, bodyLimit: SOAP_BODY_LIMIT, schema: { hide: true } }, async (request, reply) => {
      if (typeof request.body !== 'string') {
        throw errors.unsupportedMediaType('send a SOAP envelope as text/xml (SOAP 1.1) or application/soap+xml (SOAP 1.2)');
      }
      const envelope = readEnvelope(request.body);
      versions.set(request, envelope.version);
      const op = operationOf(service, byName, envelope.operation);
      const action = requestedAction(request.headers);
      if (action !== '' && action !== soapAction(service, op.name) && action !== op.name) {
        throw errors.validationFailed(`the action "${action}" is not the Body's operation, ${soapAction(service, op.name)}`);
      }
      const principal = await authenticate(request, envelope.headers, o.services);
      const over = o.services.rateLimits.take(principal.keyRowId, principal.rateLimit, `soap/${service.name}`);
      if (over) {
        void reply.header('retry-after', String(over.retryAfterSec));
        throw overRateLimit(over, path);
      }
      if (!principal.permissions.has(op.permission)) throw errors.forbidden(`this API key does not have the ${op.permission} permission`);
      const args = readArguments(op, envelope.operation, o.refs(), validatorOf(op));
      const result = await op.run(args, {
        principal,
        services: o.services,
        address: request.ip,
        base: apiBase(request, o.config.publicBaseUrl),
      });
      const answer = writeXml(`${op.name}Response`, result, op.output, o.refs(), { namespace: service.namespace });
      return reply.type(envelope.version.contentType).send(envelopeXml(envelope.version, answer));
    });
  }
}

function operationOf(service: SoapService, byName: ReadonlyMap<string, SoapOperation>, element: XmlElement): SoapOperation {
  const known = [...byName.keys()].join(', ');
  if (element.ns !== service.namespace) {
    throw errors.validationFailed(
      `the operation <${element.name}> is in the namespace "${element.ns}"; the operations of /soap/${service.name} (${known}) are in "${service.namespace}"`,
    );
  }
  const op = byName.get(element.name);
  if (!op) throw errors.validationFailed(`${element.name} is not an operation of /soap/${service.name}; its operations are ${known}`);
  return op;
}

/** The operation's arguments: read by its schema, then checked by it as REST checks a body, naming the member at fault. */
function readArguments(op: SoapOperation, element: XmlElement, refs: SchemaRefs, validator: Validator): Record<string, unknown> {
  let args: unknown;
  try {
    args = valueFromXml(element, op.input, refs, op.name);
  } catch (error) {
    if (error instanceof XmlValueError) throw errors.validationFailed(`${error.path} ${error.reason}`);
    throw error;
  }
  // Check is compiled; Errors (slower) only says why, once Check has refused.
  const first = validator.Check(args) ? undefined : validator.Errors(args)[0];
  if (first) {
    const path = [op.name, ...first.instancePath.split('/').slice(1)].join('.');
    if (first.keyword === 'required') {
      const missing = (first.params as { requiredProperties?: string[] }).requiredProperties ?? [];
      throw errors.validationFailed(`${path} is missing ${missing.join(', ')}`);
    }
    throw errors.validationFailed(`${path} ${first.message}`);
  }
  const problem = problemIn(op.name, args);
  if (problem) throw errors.invalidParameter(`${problem.path === op.name ? op.name : `${op.name}.${problem.path}`} ${problem.why}`);
  return args as Record<string, unknown>;
}

/** The caller: a UsernameToken in a WS-Security header, else the Authorization header (Basic with key and secret, or Bearer). */
async function authenticate(request: FastifyRequest, headers: readonly XmlElement[], services: Deps['services']) {
  const token = headers
    .filter((block) => block.ns === WSSE_NS && block.name === 'Security')
    .flatMap((block) => block.children)
    .find((child) => child.ns === WSSE_NS && child.name === 'UsernameToken');
  if (token) {
    const username = token.children.find((c) => c.ns === WSSE_NS && c.name === 'Username')?.text.trim();
    const password = token.children.find((c) => c.ns === WSSE_NS && c.name === 'Password');
    if (!username || !password) throw errors.unauthorized('the UsernameToken needs a Username (the API key) and a Password (its secret)');
    const type = password.attributes.Type?.trim() ?? PASSWORD_TEXT;
    if (type === PASSWORD_DIGEST) {
      throw errors.unauthorized(
        'a PasswordDigest cannot be checked (Carrel keeps only a slow hash of each secret): send the secret as PasswordText over HTTPS, or use HTTP Basic',
      );
    }
    if (type !== PASSWORD_TEXT) throw errors.unauthorized(`the Password's Type must be ${PASSWORD_TEXT}`);
    return services.auth.authenticateKey(username, password.text, request.ip);
  }
  const authorization = request.headers.authorization;
  if (authorization === undefined || authorization.trim() === '') {
    throw errors.unauthorized('authenticate with a WS-Security UsernameToken, HTTP Basic (key and secret) or a bearer token');
  }
  if (/^\s*bearer\s/i.test(authorization)) return services.auth.authenticate(parseBearer(authorization));
  if (/^\s*basic\s/i.test(authorization)) {
    const { key, secret } = parseBasic(authorization);
    return services.auth.authenticateKey(key, secret, request.ip);
  }
  throw errors.invalidScheme('SOAP calls take a WS-Security UsernameToken, or Authorization: Basic base64(key:secret) or Bearer <token>');
}
