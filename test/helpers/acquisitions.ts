// Acquisitions set up through the API, and a snapshot of everything invoices write (to show that a
// refused request wrote nothing).
import assert from 'node:assert/strict';
import type { Queryable } from '../../src/db/types.ts';
import { create, type Caller } from './api.ts';

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
