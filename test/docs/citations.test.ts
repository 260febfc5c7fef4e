// Comments and documents name repository files by path (`src/db/open.ts`, `docs/api-contract.md`); a
// file renamed or removed leaves them pointing at nothing. This reads the comments of src/, test/ and
// bench/ TypeScript and scripts/*.mjs, and the whole text of README.md, CONTRIBUTING.md, docs/*.md and
// bench/*.md, and checks that every file or folder they cite exists.
//
// A citation is a run of word characters, dots, dashes and slashes that starts (after a character not
// of that set) with a top-level folder and a slash, or is one of the top-level files. It is checked
// when it ends in a known extension (a file), in a slash (a folder), or lies under .ci/ (whose scripts
// have none); any other run ("src/sql/wire") is taken for prose and not checked. A glob is checked up to
// its first `*` (`src/**/*.ts` as the folder `src/`). One greedy character class and a look-behind
// that refuses a start inside a path keep the match linear in the text.
// Relative paths (`./messages.ts`, `../domain.ts`) are not read: in comments they are module specifiers
// of example code, relative to the file the example stands for, and real imports are checked by the
// type checker. Code outside comments is not read either (tests name files that need not exist).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';

const ROOT = path.resolve(import.meta.dirname, '../..');

const CITATION =
  /(?<![\w./-])(?:(?:\.ci|bench|bin|docs|patches|profiles|scripts|src|test)\/[\w./-]*|[A-Z][A-Z\d_-]*\.md|package(?:-lock)?\.json|tsconfig\.json|eslint\.(?:config|boundaries)\.js|\.prettierignore|\.prettierrc\.json|\.gitignore)(?![\w/-])/g;
const FILE = /(?:\.(?:ts|mjs|js|md|sql|json|yaml|tsv|patch)|^\.ci\/[\w.-]+|^\.prettierignore|^\.gitignore)$/;
/** CONTRIBUTING's `src/db/migrations/NNNN_name.sql`: a numbered file's pattern, whose folder is what can be checked. */
const NUMBERED = /\/NNNN_[\w.-]+$/;

/** Spelled in two parts so that this file does not mention it: the design notes are not in the repository. */
const DESIGN_NOTES = new RegExp(`\\b${['DESIGN', 'md'].join('\\.')}\\b`, 'i');

/**
 * The paths .prettierignore lists (generated files, dependencies, build and run output): not read,
 * and not checked when cited, since a checkout need not have them. Its entries are plain names: one
 * with no inner slash matches at any depth, as in .gitignore.
 */
const IGNORED = fs
  .readFileSync(path.join(ROOT, '.prettierignore'), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'));

function ignored(rel: string): boolean {
  return IGNORED.some((entry) => {
    const name = entry.replace(/\/$/, '');
    if (name.includes('/')) return rel === name || rel.startsWith(`${name}/`);
    return rel.split('/').includes(name);
  });
}

/** Repository-relative paths of the files under `dir` whose names end with `suffix`. */
function walk(dir: string, suffix: string, deep = true): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (ignored(rel)) return [];
    if (entry.isDirectory()) return deep ? walk(rel, suffix) : [];
    return entry.name.endsWith(suffix) ? [rel] : [];
  });
}

function sources(): string[] {
  return [
    ...walk('src', '.ts'),
    ...walk('test', '.ts'),
    ...walk('bench', '.ts'),
    ...walk('scripts', '.mjs', false),
    'README.md',
    'CONTRIBUTING.md',
    ...walk('docs', '.md', false),
    ...walk('bench', '.md', false),
  ];
}

/** Where each comment starts, and its text: every comment is trivia before some token, so each token's is read. */
function comments(file: string, text: string): { at: number; text: string }[] {
  const kind = file.endsWith('.mjs') ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  const found = new Map<number, string>();
  const visit = (node: ts.Node): void => {
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return; // read as its comment
    if (node.kind < ts.SyntaxKind.FirstNode) {
      // Trailing: the comments on the line the trivia starts on; leading: those after its first line break.
      for (const range of [...(ts.getTrailingCommentRanges(text, node.pos) ?? []), ...(ts.getLeadingCommentRanges(text, node.pos) ?? [])])
        found.set(range.pos, text.slice(range.pos, range.end));
      return;
    }
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return [...found].map(([at, comment]) => ({ at, text: comment }));
}

/** The passages of a file that are read: a document whole, a script's comments. */
function passages(file: string, text: string): { at: number; text: string }[] {
  return file.endsWith('.md') ? [{ at: 0, text }] : comments(file, text);
}

function lineOf(text: string, at: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

interface Citation {
  line: number;
  cited: string;
  exists: boolean;
}

/** The citations in one file's text that can be checked, and whether each names something that exists. */
function citations(file: string, text: string): Citation[] {
  const out: Citation[] = [];
  for (const passage of passages(file, text)) {
    for (const match of passage.text.matchAll(CITATION)) {
      const cited = match[0].replace(/\.+$/, ''); // a sentence's full stop
      if (ignored(cited)) continue;
      const line = lineOf(text, passage.at + match.index);
      if (NUMBERED.test(cited)) out.push({ line, cited, exists: isDirectory(path.dirname(cited)) });
      else if (cited.endsWith('/')) out.push({ line, cited, exists: isDirectory(cited) });
      else if (FILE.test(cited))
        out.push({ line, cited, exists: fs.statSync(path.join(ROOT, cited), { throwIfNoEntry: false })?.isFile() ?? false });
    }
  }
  return out;
}

function isDirectory(rel: string): boolean {
  return fs.statSync(path.join(ROOT, rel), { throwIfNoEntry: false })?.isDirectory() ?? false;
}

describe('files cited in comments and documents', () => {
  const files = sources().map((file) => ({ file, text: fs.readFileSync(path.join(ROOT, file), 'utf8') }));

  it('all exist', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const { file, text } of files) {
      for (const c of citations(file, text)) {
        checked++;
        if (!c.exists) missing.push(`${file}:${c.line} → ${c.cited}`);
      }
    }
    assert.ok(checked > 200, `only ${checked} citations found: the scan is not reading what it should`);
    assert.ok(missing.length === 0, `cited, but not in the repository:\n${missing.join('\n')}`);
  });

  it('never mention the design notes, which are not in the repository', () => {
    const mentions = files.flatMap(({ file, text }) =>
      text.split('\n').flatMap((line, i) => (DESIGN_NOTES.test(line) ? [`${file}:${i + 1}`] : [])),
    );
    assert.ok(mentions.length === 0, `mentioned in:\n${mentions.join('\n')}`);
  });

  it('reads comments, not code, and documents whole', () => {
    const script = [
      "const a = 'src/db/nowhere.ts'; // beside src/db/open.ts",
      '/** As src/db/gone.ts said, in',
      ' *  docs/gone.md. */',
      'function f() {',
      '  if (a) {',
      '    // an empty block still has src/shared/gone/',
      '  }',
      '  return `${a} test/gone.ts` + /src\\/gone.ts/.source; // ../relative/gone.ts',
      '}',
      '// last: CHANGELOG.md, src/db/migrations/NNNN_next.sql, src/none/NNNN_x.sql, src/sql/wire, .ci/gone',
    ].join('\n');
    const missing = (file: string, text: string) =>
      citations(file, text)
        .filter((c) => !c.exists)
        .map((c) => `${c.line} ${c.cited}`);
    assert.deepEqual(missing('src/x.ts', script), [
      '2 src/db/gone.ts',
      '3 docs/gone.md',
      '6 src/shared/gone/',
      '10 CHANGELOG.md',
      '10 src/none/NNNN_x.sql',
      '10 .ci/gone',
    ]);
    assert.deepEqual(
      citations('src/x.ts', script).map((c) => c.cited),
      [
        'src/db/open.ts',
        'src/db/gone.ts',
        'docs/gone.md',
        'src/shared/gone/',
        'CHANGELOG.md',
        'src/db/migrations/NNNN_next.sql',
        'src/none/NNNN_x.sql',
        '.ci/gone',
      ],
    );
    assert.deepEqual(missing('docs/x.md', "`const a = 'src/gone.ts'` (see bench/results/run.json and README.md)."), ['1 src/gone.ts']);
  });
});
