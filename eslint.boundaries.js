// The layers' boundaries (CONTRIBUTING.md, "Layout"): they only point down. A domain asks another
// domain's service, never its repository; rules (services, repositories, helpers) know nothing of
// a door (src/http/, src/cli/), not even through a door's own file (present.ts and the like); the
// lowest layers (src/shared/, src/db/, src/marc/, src/edifact/) know no domain.
// eslint.config.js applies these; test/lint/boundaries.test.ts shows that each one fails a violation.

const otherRepository = {
  regex: String.raw`^(\.\./)+([\w-]+/)+[\w-]*repository(\.ts)?$`,
  message: 'a domain never imports another domain’s repository: ask its service (CONTRIBUTING.md, "Layout")',
};
const door = {
  regex: String.raw`^(\.\./)+(http|cli)/`,
  message:
    'rules know nothing of a door: throw a DomainError (src/shared/errors.ts) and let the door map it; only routes.ts, present.ts, commands.ts and index.ts import src/http/ or src/cli/',
};
// A door's own files may import src/http/ or src/cli/: a rule that imported one would reach them
// through it. What a rule and a door both need goes in a module of the domain (bibs/codes.ts).
const doorFile = {
  regex: String.raw`(^|/)(present|routes|commands)(\.ts)?$`,
  message:
    'rules never import a door’s file (present.ts, routes.ts, commands.ts), which may reach src/http/ or src/cli/: move what both need into a module of the domain',
};
// config.ts is read once at start-up and handed down; the lowest layers may take its types.
const within = (layer, allowed) => ({
  regex: String.raw`^\.\./(?!(${allowed.join('|')})/|config\.ts$)`,
  message: `src/${layer}/ is a lower layer: it imports only ${allowed.map((a) => `src/${a}/`).join(', ')} and src/config.ts`,
});

/** @param {...{ regex: string; message: string }} patterns */
const restrict = (...patterns) => ({
  'no-restricted-imports': /** @type {['error', { patterns: typeof patterns }]} */ (['error', { patterns }]),
});

/** Files that are a door of their domain (or the app itself): they may import src/http/ and src/cli/. */
export const DOOR_FILES = [
  'src/http/**',
  'src/cli/**',
  'src/soap/**',
  'src/app.ts',
  'src/server.ts',
  'src/cli.ts',
  'src/domain.ts',
  '**/routes.ts',
  '**/present.ts',
  '**/commands.ts',
  '**/index.ts',
];

export const boundaries = [
  { files: ['src/**/*.ts'], rules: restrict(otherRepository) },
  { files: ['src/**/*.ts'], ignores: DOOR_FILES, rules: restrict(otherRepository, door, doorFile) },
  { files: ['src/shared/**/*.ts'], rules: restrict(within('shared', ['shared'])) },
  { files: ['src/db/**/*.ts'], rules: restrict(within('db', ['db', 'shared'])) },
  { files: ['src/marc/**/*.ts'], rules: restrict(within('marc', ['marc', 'db', 'shared'])) },
  { files: ['src/edifact/**/*.ts'], rules: restrict(within('edifact', ['edifact', 'shared'])) },
];
