// Calling the API in tests: a caller with a token, creating a record, and checking a refusal's
// error body (Sierra's shape: code, specificCode, httpStatus, name, description).
import assert from 'node:assert/strict';
import type { TestApp } from './app.ts';

export interface Caller {
  get(url: string): Promise<{ statusCode: number; json(): any; body: string }>;
  send(method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown): Promise<{ statusCode: number; json(): any; body: string }>;
}

export function caller(t: TestApp, token: string): Caller {
  return {
    get: (url) => t.app.inject({ method: 'GET', url, headers: { authorization: token } }),
    send: (method, url, payload) =>
      t.app.inject({ method, url, headers: { authorization: token }, ...(payload === undefined ? {} : { payload: payload as object }) }),
  };
}

/** Creates through the API; answers the new record's id (the last part of its link). */
export async function create(api: Caller, url: string, payload: unknown): Promise<string> {
  const res = await api.send('POST', url, payload);
  assert.equal(res.statusCode, 200, res.body);
  return (res.json().link as string).split('/').pop()!;
}

export function assertRefused(
  res: { statusCode: number; json(): any; body: string },
  httpStatus: number,
  code: number,
  specificCode?: number,
): void {
  assert.equal(res.statusCode, httpStatus, res.body);
  const body = res.json();
  assert.deepEqual(Object.keys(body).sort(), ['code', 'description', 'httpStatus', 'name', 'specificCode']);
  assert.equal(body.code, code, res.body);
  assert.equal(body.httpStatus, httpStatus);
  if (specificCode !== undefined) assert.equal(body.specificCode, specificCode, res.body);
}
