// The SOAP door's acquisitions operations through a SOAP client nobody wrote for Carrel
// (python3-zeep): the WSDL lists the four, each answer is the one REST gives for the same record,
// a refused invoice writes nothing and its fault carries REST's numbers naming the member, and a
// key without the REST twin's permission gets REST's 403.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setUpAcquisitions, snapshot } from '../helpers/acquisitions.ts';
import { assertRefused, caller, create, type Caller } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { addBib, setUpLibrary } from '../helpers/circulation.ts';
import { ENGINE } from '../helpers/db.ts';
import { bearer } from '../helpers/tokens.ts';
import { only, zeep, type ZeepOptions } from '../helpers/zeep.ts';

/**
 * zeep's answer and REST's for the same record agree: every member REST gives, at every depth, and
 * nothing else but what zeep fills in for an element absent from the answer (None, or [] for a
 * repeated one).
 */
function assertSame(soap: unknown, rest: unknown, path = 'answer'): void {
  if (Array.isArray(rest)) {
    assert.ok(Array.isArray(soap), `${path} is not a list`);
    assert.equal(soap.length, rest.length, `${path} has ${soap.length} entries, REST ${rest.length}`);
    rest.forEach((entry, i) => assertSame(soap[i], entry, `${path}[${i}]`));
  } else if (rest !== null && typeof rest === 'object') {
    assert.ok(soap !== null && typeof soap === 'object' && !Array.isArray(soap), `${path} is not a record`);
    const record = soap as Record<string, unknown>;
    for (const [name, value] of Object.entries(rest)) assertSame(record[name], value, `${path}.${name}`);
    for (const [name, value] of Object.entries(record)) {
      if (!(name in rest))
        assert.ok(value === null || (Array.isArray(value) && value.length === 0), `${path}.${name} is not in REST's answer`);
    }
  } else {
    assert.deepEqual(soap, rest, path);
  }
}

/** An error's numbers and name, without its description (which names the member as each door calls it). */
const numbersOf = (error: Record<string, unknown>) => Object.fromEntries(Object.entries(error).filter(([name]) => name !== 'description'));

const OPERATIONS = ['FundBalance', 'InvoiceStatus', 'OrderStatus', 'SubmitInvoice'];

describe(`SOAP acquisitions operations through zeep on ${ENGINE}`, () => {
  let t: TestApp;
  let base: string;
  let admin: Caller;
  let finance: { key: string; secret: string };
  let bibId: string;
  let orderId: string;
  let submitted: string;

  before(async () => {
    t = await createTestApp();
    await setUpLibrary(t.testDb.db);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    admin = caller(t, await bearer(t, ['all']));
    await setUpAcquisitions(admin);
    bibId = await addBib(t.testDb.db, 'Invoiced over SOAP');
    orderId = await create(admin, '/v6/orders', {
      bibId,
      vendor: 'ebsco',
      fund: 'books',
      copies: 3,
      location: [
        { locationCode: 'mn', copies: 2 },
        { locationCode: 'br', copies: 1 },
      ],
      estimatedPrice: '20.00',
      lineReference: 'PO-2724',
    });
    // A finance system's key: the role REST's invoice writes need.
    finance = await t.services.auth.createKey('finance system', ['Invoices_Write'], 0);
  });
  after(() => t.close());

  const acquisitions = (o: Partial<ZeepOptions> = {}): ZeepOptions => ({ wsdl: `${base}/soap/acquisitions?wsdl`, ...finance, ...o });
  const invoiceCount = async () => (await admin.get('/v6/invoices?limit=2000&fields=id')).json().total as number;

  it('loads the WSDL in zeep, listing the four operations on both ports', async () => {
    const run = only(
      await zeep(
        acquisitions({ auth: 'none' }),
        `svc = client().wsdl.services['acquisitions']
out(ports={name: sorted(port.binding._operations.keys()) for name, port in svc.ports.items()})`,
      ),
    );
    assert.deepEqual(run.ports, { acquisitionsSoap11: OPERATIONS, acquisitionsSoap12: OPERATIONS });
  });

  it('SubmitInvoice creates the invoice with its lines and use tax, answering what REST shows of it', async () => {
    const invoices = await invoiceCount();
    const run = only(
      await zeep(
        acquisitions(),
        `s = service(client())
out(r=call(s, 'SubmitInvoice', invNum='SOAP-1', invDate='2026-11-07', vendorCode='ebsco', useTaxCode='a', shipping='3.00',
    note='sent by the finance system', lineItems=[
        {'fund': 'books', 'amount': '20.00', 'quantity': 2, 'order': 'PO-2724', 'bibId': '${bibId}'},
        {'fund': 'serials', 'amount': '12.35', 'useTax': False, 'note': 'a year of serials'}]))`,
      ),
    );
    const answer = run.r.ok as Record<string, any>;
    assert.ok(answer, JSON.stringify(run.r));
    submitted = answer.id as string;
    assert.equal(await invoiceCount(), invoices + 1);
    const rest = (await admin.get(`/v6/invoices/${submitted}?fields=default,lineItems`)).json();
    assertSame(answer, rest);
    // The figures are REST's pricing: use tax 7.75% on the first line only, shipping shared out by subtotal.
    assert.deepEqual(
      [rest.status.code, rest.subtotal, rest.useTaxAmount, rest.shipping, rest.total, rest.lineItemCount],
      ['o', '52.35', '3.10', '3.00', '58.45', 2],
    );
    assert.deepEqual(
      rest.lineItems.map((l: Record<string, unknown>) => [l.fund, l.useTaxAmount, l.order ?? null, l.bibId ?? null, l.note ?? null]),
      [
        [{ code: 'books', name: 'Books' }, '3.10', 'PO-2724', bibId, null],
        [{ code: 'serials', name: 'Serials' }, '0.00', null, null, 'a year of serials'],
      ],
    );
  });

  it('InvoiceStatus answers GET /v6/invoices/{id}, before and after paying, on SOAP 1.1 and 1.2', async () => {
    const status = (port: string) => `call(service(client(), '${port}'), 'InvoiceStatus', invoiceId='${submitted}')`;
    const open = only(await zeep(acquisitions(), `out(s11=${status('acquisitionsSoap11')}, s12=${status('acquisitionsSoap12')})`));
    const restOpen = (await admin.get(`/v6/invoices/${submitted}`)).json();
    assertSame(open.s11.ok, restOpen);
    assertSame(open.s12.ok, restOpen);
    assert.equal(open.s11.ok.paidDate, null);

    assert.equal((await admin.send('POST', `/v6/invoices/${submitted}/pay`)).statusCode, 204);
    const paid = only(await zeep(acquisitions(), `out(s11=${status('acquisitionsSoap11')})`));
    const restPaid = (await admin.get(`/v6/invoices/${submitted}`)).json();
    assertSame(paid.s11.ok, restPaid);
    assert.deepEqual(paid.s11.ok.status, { code: 'p', name: 'Paid' });
    assert.match(paid.s11.ok.paidDate, /^\d{4}-\d{2}-\d{2}T/);
  });

  it('OrderStatus and FundBalance answer GET /v6/orders/{id} and GET /v6/funds/{code}', async () => {
    const run = only(
      await zeep(
        acquisitions(),
        `s = service(client())
out(order=call(s, 'OrderStatus', orderId='${orderId}'), books=call(s, 'FundBalance', fundCode='books'),
    serials=call(s, 'FundBalance', fundCode='serials'))`,
      ),
    );
    const order = (await admin.get(`/v6/orders/${orderId}`)).json();
    assertSame(run.order.ok, order);
    // The paid invoice's line paid two of the order's three copies.
    assert.deepEqual([order.paidCopies, order.encumbrance], [2, '20.00']);
    for (const code of ['books', 'serials']) assertSame(run[code].ok, (await admin.get(`/v6/funds/${code}`)).json());
    assert.deepEqual(
      [run.books.ok.appropriation, run.books.ok.expenditure, run.books.ok.encumbrance, run.books.ok.freeBalance],
      ['10000.00', '45.39', '20.00', '9934.61'],
    );
  });

  it('a record not found or a malformed id is REST’s fault for it', async () => {
    const run = only(
      await zeep(
        acquisitions(),
        `s = service(client())
out(invoice=call(s, 'InvoiceStatus', invoiceId='9999999'), order=call(s, 'OrderStatus', orderId='9999999'),
    fund=call(s, 'FundBalance', fundCode='nosuch'), letters=call(s, 'OrderStatus', orderId='12ab'),
    badCode=call(s, 'FundBalance', fundCode='No Such'))`,
      ),
    );
    assert.deepEqual(run.invoice.fault.detail, (await admin.get('/v6/invoices/9999999')).json());
    assert.deepEqual(run.order.fault.detail, (await admin.get('/v6/orders/9999999')).json());
    assert.deepEqual(run.fund.fault.detail, (await admin.get('/v6/funds/nosuch')).json());
    // The same numbers as REST, the description naming the SOAP argument.
    for (const [soap, url, member] of [
      [run.letters, '/v6/orders/12ab', 'orderId'],
      [run.badCode, '/v6/funds/No%20Such', 'fundCode'],
    ] as const) {
      assert.deepEqual(numbersOf(soap.fault.detail), numbersOf((await admin.get(url)).json()), url);
      assert.match(soap.fault.detail.description, new RegExp(`^${member}: `));
    }
  });

  it('SubmitInvoice refuses a bad line as REST does, naming it, and writes nothing', async () => {
    const good = `{'fund': 'books', 'amount': '10.00'}`;
    const body = (line: Record<string, unknown>) => ({
      invNum: 'SOAP-BAD',
      invDate: '2026-11-07',
      vendorCode: 'ebsco',
      lineItems: [{ fund: 'books', amount: '10.00' }, line],
    });
    const before = await snapshot(t.testDb.db);
    const invoices = await invoiceCount();
    const run = only(
      await zeep(
        acquisitions(),
        `s = service(client())
def submit(line, **header):
    return call(s, 'SubmitInvoice', invNum='SOAP-BAD', invDate='2026-11-07', vendorCode='ebsco', lineItems=[${good}, line], **header)
out(fund=submit({'fund': 'nosuch', 'amount': '1.00'}), bib=submit({'fund': 'books', 'amount': '1.00', 'bibId': '9999999'}),
    decimals=submit({'fund': 'books', 'amount': '10.005'}), currency=submit({'fund': 'euro', 'amount': '1.00'}),
    quantity=submit({'fund': 'books', 'amount': '1.00', 'quantity': 0}), taxCode=submit({'fund': 'books', 'amount': '1.00'}, useTaxCode='q'))`,
      ),
    );
    const rest = async (line: Record<string, unknown>, header: Record<string, unknown> = {}) =>
      admin.send('POST', '/v6/invoices', { ...body(line), ...header });
    // The service's refusals: the same error, word for word.
    const fund = await rest({ fund: 'nosuch', amount: '1.00' });
    assertRefused(fund, 400, 132, 5);
    assert.deepEqual(run.fund.fault.detail, fund.json());
    assert.equal(run.fund.fault.detail.description, 'lineItems.1.fund: no fund nosuch');
    assert.equal(run.fund.fault.code, 'soap:Client');
    const bib = await rest({ fund: 'books', amount: '1.00', bibId: '9999999' });
    assert.deepEqual(run.bib.fault.detail, bib.json());
    assert.equal(run.bib.fault.detail.description, 'lineItems.1.bibId: no bib 9999999');
    const decimals = await rest({ fund: 'books', amount: '10.005' });
    assertRefused(decimals, 400, 126);
    assert.deepEqual(run.decimals.fault.detail, decimals.json());
    assert.match(run.decimals.fault.detail.description, /^lineItems\.1\.amount: /);
    assert.deepEqual(run.currency.fault.detail, (await rest({ fund: 'euro', amount: '1.00' })).json());
    assert.deepEqual(run.taxCode.fault.detail, (await rest({ fund: 'books', amount: '1.00' }, { useTaxCode: 'q' })).json());
    // The schema's refusal: REST's numbers, the description naming the element.
    const quantity = await rest({ fund: 'books', amount: '1.00', quantity: 0 });
    assertRefused(quantity, 400, 126);
    assert.deepEqual(numbersOf(run.quantity.fault.detail), numbersOf(quantity.json()));
    assert.match(run.quantity.fault.detail.description, /^SubmitInvoice\.lineItems\.1\.quantity /);

    assert.equal(await invoiceCount(), invoices, 'REST lists no new invoice');
    assert.deepEqual(await snapshot(t.testDb.db), before, 'nothing was written: not the invoice, not its good line, no balance');
  });

  it('a key without the REST twin’s permission gets REST’s 403 numbers, and nothing is written', async () => {
    // Acquisitions_Read reads orders and funds but not invoices; Patrons_Read reads none of them.
    const selector = await t.services.auth.createKey('selector', ['Acquisitions_Read'], 0);
    const desk = await t.services.auth.createKey('desk', ['Patrons_Read'], 0);
    const before = await snapshot(t.testDb.db);
    const calls = `s = service(client())
out(submit=call(s, 'SubmitInvoice', invNum='SOAP-NO', invDate='2026-11-07', vendorCode='ebsco', lineItems=[{'fund': 'books', 'amount': '1.00'}]),
    invoice=call(s, 'InvoiceStatus', invoiceId='${submitted}'), order=call(s, 'OrderStatus', orderId='${orderId}'),
    fund=call(s, 'FundBalance', fundCode='books'))`;
    const asSelector = only(await zeep(acquisitions(selector), calls));
    const asDesk = only(await zeep(acquisitions(desk), calls));

    const restSelector = caller(t, await bearer(t, ['Acquisitions_Read']));
    const restDesk = caller(t, await bearer(t, ['Patrons_Read']));
    const refusedPost = await restSelector.send('POST', '/v6/invoices', { invNum: 'REST-NO', invDate: '2026-11-07', vendorCode: 'ebsco' });
    assertRefused(refusedPost, 403, 116);
    assert.deepEqual(asSelector.submit.fault.detail, refusedPost.json());
    const refusedGet = await restSelector.get(`/v6/invoices/${submitted}`);
    assertRefused(refusedGet, 403, 116);
    assert.deepEqual(asSelector.invoice.fault.detail, refusedGet.json());
    assertSame(asSelector.order.ok, (await restSelector.get(`/v6/orders/${orderId}`)).json());
    assertSame(asSelector.fund.ok, (await restSelector.get('/v6/funds/books')).json());

    assert.deepEqual(asDesk.order.fault.detail, (await restDesk.get(`/v6/orders/${orderId}`)).json());
    assert.deepEqual(asDesk.fund.fault.detail, (await restDesk.get('/v6/funds/books')).json());
    assert.equal(asDesk.submit.fault.detail.httpStatus, 403);
    assert.equal(asDesk.invoice.fault.detail.code, 116);
    assert.deepEqual(await snapshot(t.testDb.db), before, 'nothing was written');
  });
});
