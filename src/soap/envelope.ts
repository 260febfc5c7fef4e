// The SOAP envelope as Carrel reads and writes it: SOAP 1.1 or 1.2, whichever the client sent,
// read strictly on readXmlTree (no DTD, bounded size, depth and text): an Envelope, an optional
// Header, a Body holding one element, the operation. What cannot be read is a fault, never a 5xx.
import { errors, type ApiError } from '../http/errors.ts';
import { escapeXmlText, readXmlTree, XmlLimitError, type XmlElement } from '../shared/xml/index.ts';

export interface SoapVersion {
  version: '1.1' | '1.2';
  /** The envelope's namespace. */
  ns: string;
  contentType: string;
}

export const SOAP11: SoapVersion = {
  version: '1.1',
  ns: 'http://schemas.xmlsoap.org/soap/envelope/',
  contentType: 'text/xml; charset=utf-8',
};
export const SOAP12: SoapVersion = {
  version: '1.2',
  ns: 'http://www.w3.org/2003/05/soap-envelope',
  contentType: 'application/soap+xml; charset=utf-8',
};

/** WS-Security's namespace: its Security header block is the one Carrel understands. */
export const WSSE_NS = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd';
/** The UsernameToken's Password Type for a secret sent as it is (the one Carrel can check). */
export const PASSWORD_TEXT = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordText';

/** The version a request's Content-Type stands for (SOAP 1.2's application/soap+xml; anything else 1.1). */
export function versionOfContentType(contentType: string | undefined): SoapVersion {
  return /^\s*application\/soap\+xml\s*(;|$)/i.test(contentType ?? '') ? SOAP12 : SOAP11;
}

/** The action a request names: SOAP 1.1's SOAPAction header, or SOAP 1.2's action parameter of the Content-Type; '' for none. */
export function requestedAction(headers: Record<string, string | string[] | undefined>): string {
  const soapAction = headers.soapaction;
  const raw =
    typeof soapAction === 'string'
      ? soapAction
      : (/;\s*action\s*=\s*("[^"]*"|[^;\s]*)/i.exec(String(headers['content-type'] ?? ''))?.[1] ?? '');
  return raw.trim().replace(/^"(.*)"$/, '$1');
}

/** A fault of the envelope itself, with SOAP's own fault code. */
export class EnvelopeFault extends Error {
  constructor(
    readonly faultCode: 'VersionMismatch' | 'MustUnderstand',
    readonly apiError: ApiError,
    /** MustUnderstand: the header blocks not understood (SOAP 1.2 names them in NotUnderstood). */
    readonly notUnderstood: readonly XmlElement[] = [],
  ) {
    super(apiError.message);
  }
}

export interface Envelope {
  version: SoapVersion;
  headers: readonly XmlElement[];
  /** The Body's one element. */
  operation: XmlElement;
}

const ROLES_FOR_US = new Set([
  '',
  'http://schemas.xmlsoap.org/soap/actor/next',
  'http://www.w3.org/2003/05/soap-envelope/role/next',
  'http://www.w3.org/2003/05/soap-envelope/role/ultimateReceiver',
]);

/** Reads a request's envelope, or throws: an ApiError (a Client/Sender fault) or an EnvelopeFault. */
export function readEnvelope(text: string): Envelope {
  let root: XmlElement;
  try {
    root = readXmlTree(text);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw errors.validationFailed(
      error instanceof XmlLimitError ? `the envelope was refused: ${why}` : `the envelope is not well-formed XML: ${why}`,
    );
  }
  if (root.name !== 'Envelope') throw errors.validationFailed(`the document is a <${root.name}>, not a SOAP Envelope`);
  const version = root.ns === SOAP11.ns ? SOAP11 : root.ns === SOAP12.ns ? SOAP12 : undefined;
  if (!version) {
    throw new EnvelopeFault(
      'VersionMismatch',
      errors.validationFailed(`the Envelope's namespace is "${root.ns}": Carrel reads SOAP 1.1 (${SOAP11.ns}) and SOAP 1.2 (${SOAP12.ns})`),
    );
  }
  const parts = root.children;
  const stray = parts.find((p) => p.ns !== version.ns || (p.name !== 'Header' && p.name !== 'Body'));
  if (stray) throw errors.validationFailed(`the Envelope holds <${stray.name}>: it holds a Header (optional) and a Body`);
  if (root.text.trim() !== '') throw errors.validationFailed('the Envelope holds text: it holds a Header (optional) and a Body');
  const header = parts[0]?.name === 'Header' ? parts[0] : undefined;
  const body = parts[header ? 1 : 0];
  if (!body || body.name !== 'Body' || parts.length > (header ? 2 : 1)) {
    throw errors.validationFailed('the Envelope must hold an optional Header, then one Body');
  }
  const headers = header?.children ?? [];
  const notUnderstood = headers.filter((block) => mustUnderstand(block, version) && !(block.ns === WSSE_NS && block.name === 'Security'));
  if (notUnderstood.length > 0) {
    const names = notUnderstood.map((b) => `{${b.ns}}${b.name}`).join(', ');
    throw new EnvelopeFault('MustUnderstand', errors.validationFailed(`header blocks not understood: ${names}`), notUnderstood);
  }
  if (body.text.trim() !== '') throw errors.validationFailed('the Body holds text: it holds one element, the operation');
  if (body.children.length !== 1) {
    throw errors.validationFailed(`the Body holds ${body.children.length} elements: it holds one, the operation`);
  }
  return { version, headers, operation: body.children[0]! };
}

/** A header block this node must process: mustUnderstand set, and meant for the last receiver (no actor or role, or next). */
function mustUnderstand(block: XmlElement, version: SoapVersion): boolean {
  const flag = block.attributes[`{${version.ns}}mustUnderstand`]?.trim();
  if (flag !== '1' && flag !== 'true') return false;
  const role = block.attributes[`{${version.ns}}${version === SOAP11 ? 'actor' : 'role'}`]?.trim() ?? '';
  return ROLES_FOR_US.has(role);
}

/** An envelope holding `body` (and header blocks, already written). */
export function envelopeXml(version: SoapVersion, body: string, header = ''): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<soap:Envelope xmlns:soap="${version.ns}">` +
    (header ? `<soap:Header>${header}</soap:Header>` : '') +
    `<soap:Body>${body}</soap:Body></soap:Envelope>`
  );
}

/** SOAP 1.2's NotUnderstood header blocks for a MustUnderstand fault. */
export function notUnderstoodXml(blocks: readonly XmlElement[]): string {
  return blocks.map((b, i) => `<soap:NotUnderstood qname="n${i}:${b.name}" xmlns:n${i}="${escapeXmlText(b.ns)}"/>`).join('');
}
