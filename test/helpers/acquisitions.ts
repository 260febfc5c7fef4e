// Acquisitions set up through the API, and a snapshot of everything invoices write (to show that a
// refused request wrote nothing).
import assert from 'node:assert/strict';
import type { Queryable } from '../../src/db/types.ts';
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

/** Funds books and serials (USD), euro (EUR); vendor ebsco; use tax a 7.75, c 8.125, z 0. */
export async function setUpAcquisitions(api: Caller): Promise<{ vendorId: string }> {
  for (const [code, rate] of [
    ['a', '7.75'],
    ['c', '8.125'],
    ['z', '0'],
  ]) {
    const res = await api.send('PUT', `/v6/invoices/useTax/${code}`, { rate });
    assert.equal(res.statusCode, 204, res.body);
  }
  await create(api, '/v6/funds', { code: 'books', fundName: 'Books', appropriation: '10000.00' });
  await create(api, '/v6/funds', { code: 'serials', fundName: 'Serials', appropriation: '5000.00' });
  await create(api, '/v6/funds', { code: 'euro', fundName: 'European books', appropriation: '2000.00', currency: 'EUR' });
  const vendorId = await create(api, '/v6/vendors', { code: 'ebsco', vendorName: 'EBSCO Information Services' });
  return { vendorId };
}

/** Every row invoices and funds hold, for comparing before and after. */
export async function snapshot(db: Queryable): Promise<unknown> {
  return {
    invoices: await db.query('select * from invoices order by id'),
    lines: await db.query('select * from invoice_lines order by id'),
    funds: await db.query('select * from funds order by id'),
    useTax: await db.query('select * from use_tax_codes order by code'),
  };
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
