// The catalogue's patron forms as a browser posts them, without a browser (app.inject): the sign-in
// form with its visitor cookie and token, and the form token a page carries.
import type { FastifyInstance } from 'fastify';

/** The CSRF token a catalogue page's form carries. */
export const formToken = (body: string): string => /name="csrf" value="([\w-]+)"/.exec(body)![1]!;

/**
 * Signs in through /catalog/signin as a browser at `remoteAddress` does: the form's page (its
 * visitor cookie and token), then the POST. Answers the POST's response (303 when signed in).
 */
export async function signInWithForm(app: FastifyInstance, barcode: string, pin: string, remoteAddress = '127.0.0.1') {
  const token = formToken((await app.inject({ method: 'GET', url: '/catalog/signin', remoteAddress })).body);
  return app.inject({
    method: 'POST',
    url: '/catalog/signin',
    remoteAddress,
    headers: { cookie: `carrel_signin=${token}`, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ csrf: token, barcode, pin }).toString(),
  });
}

/** The `name=value` of the session cookie a sign-in response sets, for the next requests' Cookie header. */
export const sessionCookie = (response: { headers: Record<string, unknown> }): string =>
  String(response.headers['set-cookie']).split(';')[0]!;
