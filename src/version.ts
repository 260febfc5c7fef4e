// The four-part service version reported by GET /api and `carrel status`: major.minor.build.revision.
// package.json carries the first three parts (npm needs semver); the revision counts releases of that build.
export const SERVICE_NAME = 'Carrel.Api';
export const VERSION = { major: 1, minor: 0, build: 0, revision: 1 } as const;
export const VERSION_STRING = `${VERSION.major}.${VERSION.minor}.${VERSION.build}.${VERSION.revision}`;
