// A bearer token for a new key with the given roles, from the real token endpoint.
import type { BuiltApp } from '../../src/app.ts';

export async function bearer(t: Pick<BuiltApp, 'app' | 'services'>, roles: string[]): Promise<string> {
  // Unlimited: tests send bursts no client should (test/http/rate-limit.test.ts tests the limits).
  const key = await t.services.auth.createKey(`test ${roles.join(',')}`, roles, 0);
  const res = await t.app.inject({
    method: 'POST',
    url: '/v6/token',
    headers: { authorization: `Basic ${Buffer.from(`${key.key}:${key.secret}`).toString('base64')}` },
  });
  return `Bearer ${res.json().access_token as string}`;
}
