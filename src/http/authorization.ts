// The Authorization header of the REST door: Basic base64(key:secret) for the token endpoint,
// Bearer <token> for every other protected call (docs/api-contract.md, "Keys, roles and permissions").
import { errors } from './errors.ts';

function splitScheme(authorization: string | undefined): { scheme: string; value: string } {
  if (!authorization?.trim()) throw errors.unauthorized();
  const match = /^(\S+)\s+(\S+)\s*$/.exec(authorization.trim());
  if (!match) throw errors.unauthorized('the Authorization header is malformed');
  return { scheme: match[1]!.toLowerCase(), value: match[2]! };
}

export function parseBasic(authorization: string | undefined): { key: string; secret: string } {
  const { scheme, value } = splitScheme(authorization);
  if (scheme !== 'basic') throw errors.invalidScheme('the token endpoint takes Basic authorization: base64(key:secret)');
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) throw errors.unauthorized('Basic credentials must be base64(key:secret)');
  return { key: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

export function parseBearer(authorization: string | undefined): string {
  const { scheme, value } = splitScheme(authorization);
  if (scheme !== 'bearer') throw errors.invalidScheme('API calls take Bearer authorization with a token from POST /token');
  return value;
}
