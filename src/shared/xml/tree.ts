// Reads a whole XML document into elements, within limits a client cannot get round: its size, its
// depth, its number of elements and attributes, the length of any one text. A document type
// declaration is refused outright (SOAP forbids one), so no entity is ever defined and none can
// expand; saxes knows only XML's five named entities and character references, and reports any
// other reference as an error. Processing instructions other than the XML declaration are refused too.
import { SaxesParser, type SaxesTagNS } from 'saxes';

export interface XmlElement {
  /** The local name (no prefix). */
  name: string;
  /** The namespace URI ('' for none). */
  ns: string;
  /** Attributes by local name; those in a namespace also by `{uri}local` (xsi:nil as `{http://www.w3.org/2001/XMLSchema-instance}nil`). */
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own text (character data and CDATA), children's text excluded. */
  text: string;
}

export interface XmlLimits {
  maxBytes: number;
  maxDepth: number;
  maxElements: number;
  maxAttributes: number;
  maxTextLength: number;
}

/** Enough for an invoice of a thousand lines; far below what would cost the server anything. */
export const DEFAULT_XML_LIMITS: XmlLimits = {
  maxBytes: 2 * 1024 * 1024,
  maxDepth: 32,
  maxElements: 50_000,
  maxAttributes: 32,
  maxTextLength: 64 * 1024,
};

/** The document broke a limit or a rule of what Carrel reads (not merely malformed XML). */
export class XmlLimitError extends Error {}

/** The document element, or throws: XmlLimitError for a limit or a refused construct, Error for malformed XML. */
export function readXmlTree(xml: string, limits: XmlLimits = DEFAULT_XML_LIMITS): XmlElement {
  if (Buffer.byteLength(xml, 'utf8') > limits.maxBytes) throw new XmlLimitError(`the document is larger than ${limits.maxBytes} bytes`);
  const parser = new SaxesParser({ xmlns: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let elements = 0;
  let failure: Error | undefined;
  const stop = (error: Error) => {
    failure ??= error;
    throw failure;
  };

  parser.on('error', (error) => stop(new Error(error.message)));
  parser.on('doctype', () => stop(new XmlLimitError('a document type declaration is not accepted')));
  parser.on('processinginstruction', () => stop(new XmlLimitError('processing instructions are not accepted')));
  parser.on('opentag', (tag: SaxesTagNS) => {
    if (++elements > limits.maxElements) stop(new XmlLimitError(`more than ${limits.maxElements} elements`));
    if (stack.length >= limits.maxDepth) stop(new XmlLimitError(`elements nested deeper than ${limits.maxDepth}`));
    const attributes: Record<string, string> = Object.create(null) as Record<string, string>;
    const list = Object.values(tag.attributes);
    if (list.length > limits.maxAttributes) stop(new XmlLimitError(`more than ${limits.maxAttributes} attributes on <${tag.local}>`));
    for (const attribute of list) {
      if (attribute.prefix === 'xmlns' || attribute.name === 'xmlns') continue;
      if (attribute.uri) attributes[`{${attribute.uri}}${attribute.local}`] = attribute.value;
      attributes[attribute.local] ??= attribute.value;
    }
    const element: XmlElement = { name: tag.local, ns: tag.uri, attributes, children: [], text: '' };
    const parent = stack.at(-1);
    if (parent) parent.children.push(element);
    else root = element;
    stack.push(element);
  });
  const addText = (text: string) => {
    const current = stack.at(-1);
    if (!current) return; // whitespace around the document element
    // Whitespace between child elements is layout (indentation), not content: not kept, so a long
    // pretty-printed list is not taken for a long text.
    if (current.children.length > 0 && text.trim() === '') return;
    if (current.text.length + text.length > limits.maxTextLength) {
      stop(new XmlLimitError(`a text longer than ${limits.maxTextLength} characters in <${current.name}>`));
    }
    current.text += text;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', () => {
    stack.pop();
  });

  try {
    parser.write(xml).close();
  } catch (error) {
    throw failure ?? (error instanceof Error ? error : new Error(String(error)));
  }
  if (failure) throw failure;
  if (!root) throw new Error('the document has no element');
  return root;
}
