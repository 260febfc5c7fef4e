// The characters of an interchange into segments (ISO 9735 syntax version 3, as library EDI uses it).
// One pass over the text, no regular expression and no recursion: the work is linear in the input,
// and the segment bound stops it early.
import type { EdifactProblem } from './problems.ts';

/** The service characters: from the UNA service string advice, or the defaults `:+.? '`. */
export interface Delimiters {
  component: string;
  element: string;
  /** The decimal mark the sender announces; numbers are read with `.` or `,` either way. */
  decimal: string;
  /** The release (escape) character, or '' when the UNA says none is used (a space). */
  release: string;
  /** Reserved in syntax version 3 (a space); kept as given, never split on. */
  repetition: string;
  segment: string;
}

export const DEFAULT_DELIMITERS: Readonly<Delimiters> = {
  component: ':',
  element: '+',
  decimal: '.',
  release: '?',
  repetition: ' ',
  segment: "'",
};

/** One segment: its tag and its data elements, each a list of components, with release characters removed. */
export interface Segment {
  tag: string;
  elements: string[][];
  /** 1-based among the interchange's segments. */
  position: number;
  /** 1-based line of the file where the segment starts. */
  line: number;
}

export interface Tokens {
  delimiters: Delimiters;
  /** Whether the text began with a UNA service string advice. */
  serviceAdvice: boolean;
  /** The segments read, up to the first problem. */
  segments: Segment[];
  /** Why the reading stopped early; the segments before it are still given (detect() lists them). */
  problem?: EdifactProblem;
}

const CR = 13;
const LF = 10;

function isAlphanumeric(c: string): boolean {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/** A segment tag: three capital letters or digits, beginning with a letter. */
function isTag(tag: string): boolean {
  if (tag.length !== 3 || !(tag[0]! >= 'A' && tag[0]! <= 'Z')) return false;
  for (const c of tag) if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) return false;
  return true;
}

/** The UNA's six characters, or why they cannot serve. */
function readServiceAdvice(advice: string): Delimiters | string {
  if (advice.length < 6) return 'the UNA service string advice is cut short: it needs six characters after "UNA"';
  const [component, element, decimal, release, repetition, segment] = advice.split('') as [string, string, string, string, string, string];
  if (decimal !== '.' && decimal !== ',') return `the UNA gives "${decimal}" as the decimal mark: it must be "." or ","`;
  const named = { component, element, release, segment };
  for (const [name, c] of Object.entries(named)) {
    if (isAlphanumeric(c) || c === '\r' || c === '\n')
      return `the UNA gives "${c}" as the ${name} separator: it must not be a letter, digit or line break`;
  }
  if (segment === ' ' || component === ' ' || element === ' ') return 'the UNA gives a space as a separator';
  const used = [component, element, segment, ...(release === ' ' ? [] : [release])];
  if (new Set(used).size !== used.length) return 'the UNA gives the same character for two different separators';
  return { component, element, decimal, release: release === ' ' ? '' : release, repetition, segment };
}

/**
 * Splits `text` into segments. An optional UNA gives the service characters; CR and LF between
 * segments are skipped (files broken into lines), and inside a segment they are dropped (files
 * wrapped at a fixed width). Stops with a problem at a bad UNA, a release character with nothing
 * after it, a final segment with no terminator, a segment with no valid tag, or more than
 * `maxSegments` segments.
 */
export function tokenize(text: string, maxSegments: number): Tokens {
  let i = 0;
  let line = 1;
  const n = text.length;
  const skipBreaks = () => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === LF) line++;
      else if (c !== CR) return;
      i++;
    }
  };
  skipBreaks();
  let delimiters: Delimiters = { ...DEFAULT_DELIMITERS };
  const segments: Segment[] = [];
  const tokens = (problem?: EdifactProblem): Tokens => ({ delimiters, serviceAdvice, segments, ...(problem ? { problem } : {}) });
  const serviceAdvice = text.startsWith('UNA', i);
  if (serviceAdvice) {
    const read = readServiceAdvice(text.slice(i + 3, i + 9));
    // The UNA is not a segment: the problem has no segment number.
    if (typeof read === 'string') return tokens({ kind: 'syntax', tag: 'UNA', line, text: read });
    delimiters = read;
    i += 9;
  }
  const { component, element, release, segment } = delimiters;
  // Character codes, compared in the loop below (-1 for no release character: no code matches it).
  const COMPONENT = component.charCodeAt(0);
  const ELEMENT = element.charCodeAt(0);
  const SEGMENT = segment.charCodeAt(0);
  const RELEASE = release === '' ? -1 : release.charCodeAt(0);
  for (;;) {
    skipBreaks();
    if (i >= n) return tokens();
    const position = segments.length + 1;
    const startLine = line;
    if (position > maxSegments) {
      return tokens({
        kind: 'limit',
        segment: position,
        line,
        text: `more than ${maxSegments} segments: the interchange is refused`,
      });
    }
    const elements: string[][] = [];
    let components: string[] = [];
    let value = '';
    let run = i;
    let terminated = false;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === RELEASE) {
        if (i + 1 >= n) {
          const tag = (elements[0]?.[0] ?? value).slice(0, 3);
          return tokens({
            kind: 'syntax',
            segment: position,
            tag,
            line: startLine,
            text: `segment ${position} ends the input with a release character "${release}" that releases nothing`,
          });
        }
        value += text.slice(run, i) + text[i + 1]!;
        if (text[i + 1] === '\n') line++;
        i += 2;
        run = i;
      } else if (c === SEGMENT || c === ELEMENT || c === COMPONENT) {
        value += text.slice(run, i);
        components.push(value);
        value = '';
        i++;
        run = i;
        if (c === COMPONENT) continue;
        elements.push(components);
        components = [];
        if (c === SEGMENT) {
          terminated = true;
          break;
        }
      } else if (c === LF || c === CR) {
        if (c === LF) line++;
        value += text.slice(run, i);
        i++;
        run = i;
      } else {
        i++;
      }
    }
    if (!terminated) {
      value += text.slice(run, i);
      components.push(value);
      elements.push(components);
    }
    const tag = elements[0]![0]!;
    if (!terminated) {
      return tokens({
        kind: 'syntax',
        segment: position,
        tag,
        line: startLine,
        text: `segment ${position} (${tag.slice(0, 3)}) has no segment terminator "${segment}": the input is cut short`,
      });
    }
    if (!isTag(tag) || elements[0]!.length > 1) {
      const shown = tag.length > 12 ? `${tag.slice(0, 12)}…` : tag;
      return tokens({
        kind: 'syntax',
        segment: position,
        tag: shown,
        line: startLine,
        text: `segment ${position} does not begin with a segment tag (three capital letters or digits): "${shown}"`,
      });
    }
    segments.push({ tag, elements: elements.slice(1), position, line: startLine });
  }
}
