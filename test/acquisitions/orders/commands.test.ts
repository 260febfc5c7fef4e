// `carrel orders list|show|create|receive|cancel` through the real command, on a database of its
// own: the same service as the API, its refusals on standard error without a stack trace.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../../src/config.ts';
import { openClientDb } from '../../../src/db/open.ts';
import { addBib } from '../../helpers/circulation.ts';
import { childDatabase, ENGINE } from '../../helpers/db.ts';
import { carrel } from '../../helpers/process.ts';

describe(`carrel orders on ${ENGINE}`, () => {
  let child: Awaited<ReturnType<typeof childDatabase>>;
  let env: Record<string, string>;
  let bibId: string;
  let here: string;
  let there: string;
  before(async () => {
    child = await childDatabase();
    env = child.env;
    assert.equal((await carrel(['funds', 'create', 'books', '--name', 'Books', '--appropriation', '100.00'], env)).code, 0);
    assert.equal((await carrel(['vendors', 'create', 'ebsco', '--name', 'EBSCO'], env)).code, 0);
    const db = await openClientDb(loadConfig({ ...env, LOG_LEVEL: 'silent' }));
    try {
      // The locations the new database starts with.
      [here, there] = (await db.query<{ code: string }>('select code from locations order by code limit 2')).map((l) => l.code) as [
        string,
        string,
      ];
      bibId = await addBib(db, 'Ordered from the command line');
    } finally {
      await db.close();
    }
  });
  after(() => child.remove());

  it('places, shows, receives, lists and cancels orders', async () => {
    const created = await carrel(
      [
        'orders',
        'create',
        '--bib',
        bibId,
        '--vendor',
        'ebsco',
        '--fund',
        'books',
        '--location',
        `${here}:2`,
        '--location',
        `${there}:1`,
        '--price',
        '3.30',
        '--json',
      ],
      env,
    );
    assert.equal(created.code, 0, created.stderr);
    const order = JSON.parse(created.stdout);
    assert.equal(order.copies, 3);
    assert.equal(order.encumbrance, '9.90');
    assert.equal(order.lineReference, `o${order.id}`);
    const fund = JSON.parse((await carrel(['funds', 'list', '--json'], env)).stdout)[0];
    assert.equal(fund.encumbrance, '9.90');

    const received = await carrel(['orders', 'receive', order.id, '--copies', '2', '--json'], env);
    assert.equal(received.code, 0, received.stderr);
    const answer = JSON.parse(received.stdout);
    assert.equal(answer.order.receivedCopies, 2);
    assert.equal(answer.itemIds.length, 2);

    const shown = await carrel(['orders', 'show', order.id], env);
    assert.match(
      shown.stdout,
      new RegExp(`^order ${order.id} \\(o${order.id}\\): bib ${bibId}, 3 copies from ebsco on fund books at 3.30 USD`),
    );

    const refused = await carrel(['orders', 'cancel', order.id], env);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /status: order \d+ has received copies/);
    assert.doesNotMatch(refused.stderr, /at .*\.ts/, 'no stack trace');

    const second = JSON.parse(
      (
        await carrel(
          [
            'orders',
            'create',
            '--bib',
            bibId,
            '--vendor',
            'ebsco',
            '--fund',
            'books',
            '--location',
            `${there}:1`,
            '--price',
            '1.00',
            '--line-reference',
            'L-1',
            '--json',
          ],
          env,
        )
      ).stdout,
    );
    const cancelled = await carrel(['orders', 'cancel', second.id, '--json'], env);
    assert.equal(cancelled.code, 0, cancelled.stderr);
    assert.equal(JSON.parse(cancelled.stdout).status.code, 'z');
    assert.equal(JSON.parse((await carrel(['funds', 'list', '--json'], env)).stdout)[0].encumbrance, '9.90');

    const listed = JSON.parse((await carrel(['orders', 'list', '--status', 'z', '--json'], env)).stdout);
    assert.deepEqual(
      listed.map((o: { id: string }) => o.id),
      [second.id],
    );
    const bad = await carrel(
      ['orders', 'create', '--bib', bibId, '--vendor', 'nosuch', '--fund', 'books', '--location', `${here}:1`, '--price', '1'],
      env,
    );
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /vendor: no vendor nosuch/);
  });
});
