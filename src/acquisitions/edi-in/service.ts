// Vendors' EDIFACT files into Carrel: each INVOIC message becomes an invoice, each ORDRSP message
// records its lines' statuses on their orders. A message is refused or written whole, in one
// transaction; the other messages of the file stand on their own. A file is loaded when every
// message loaded, refused when any was; retried, it loads only what it had not loaded: an invoice
// names the file it came from, so the same vendor's invoice number found from this file counts as
// loaded, and from any other file as a duplicate.
import {
  readInterchange,
  readInvoices,
  readOrderResponses,
  type EdifactProblem,
  type Interchange,
  type OrderResponse,
  type Party,
  type SegmentAt,
} from '../../edifact/index.ts';
import type { FileOutcome, FileToProcess } from '../../files/index.ts';
import { DomainError } from '../../shared/errors.ts';
import type { InvoiceService } from '../invoices/service.ts';
import type { OrderService } from '../orders/service.ts';
import type { VendorEdiService } from '../vendors/edi.ts';
import { invoiceInput } from './invoic.ts';
import { fileOutcome, MessageRefusal, refused, unreadable, type MessageOutcome } from './report.ts';

/** The statuses an order records, and the one that cancels it. */
const RECORDED = new Set(['accepted', 'changed', 'back-ordered', 'cancelled', 'not-found']);

type Vendor = { id: string; code: string };

export class EdiInService {
  constructor(
    private readonly invoices: InvoiceService,
    private readonly orders: OrderService,
    private readonly vendorEdi: VendorEdiService,
  ) {}

  /** The vendor a message comes from: its NAD+SU party id, else the interchange's sender; refused naming the NAD (else the UNB). */
  private async vendorOf(interchange: Interchange, supplier: Party | undefined): Promise<Vendor> {
    const bySupplier = supplier?.id ? await this.vendorEdi.findByParty(supplier.id) : undefined;
    const vendor = bySupplier ?? (await this.vendorEdi.findByParty(interchange.header.sender.id));
    if (vendor) return vendor;
    const named = supplier?.id
      ? `NAD+SU ${supplier.id} nor the UNB sender ${interchange.header.sender.id}`
      : `the UNB sender ${interchange.header.sender.id}`;
    throw new MessageRefusal(
      supplier?.at ?? interchange.header.at,
      `no vendor has ${named} among its party ids or as its code`,
      supplier?.id ?? interchange.header.sender.id,
    );
  }

  private async orderOf(vendor: Vendor, ref: string) {
    return this.orders.findOpenByLineReference(vendor.code, ref);
  }

  /**
   * Reads the interchange (the whole file is refused when its envelope is in doubt) and applies
   * `load` to each message that reads, each on its own: a refusal costs that message only.
   */
  private async each<M extends { messageReference: string; messageIndex: number; at: SegmentAt }, T>(
    file: FileToProcess,
    read: (interchange: Interchange) => { messages: M[]; problems: EdifactProblem[] },
    load: (interchange: Interchange, message: M) => Promise<T>,
  ): Promise<FileOutcome> {
    const opened = readInterchange(startOf(file.content));
    const interchange = opened.interchange;
    if (!interchange || !opened.envelopeOk)
      return {
        status: 'refused',
        report: { reason: 'the interchange envelope is not sound: nothing was loaded', problems: opened.problems },
      };
    const references = interchange.messages.map((m) => m.reference);
    const { messages, problems } = read(interchange);
    const outcomes: MessageOutcome<T>[] = problems.map((p) => unreadable(p, references));
    for (const m of messages) {
      // Between messages, each its own transaction: a lost claim stops here, and the new holder
      // counts the messages loaded so far as loaded.
      await file.checkpoint?.();
      file.signal?.throwIfAborted();
      const { messageReference: message, messageIndex: index } = m;
      try {
        outcomes.push({ message, index, status: 'loaded', ...(await load(interchange, m)) });
      } catch (error) {
        outcomes.push(refusal(message, index, m.at, error));
      }
    }
    return fileOutcome(outcomes);
  }

  /** An INVOIC file: an invoice per message (open, not paid: staff pay it as any other). */
  processInvoices(file: FileToProcess): Promise<FileOutcome> {
    const marker = `EDIFACT file ${file.id}`;
    const read = (interchange: Interchange) => {
      const { invoices, problems } = readInvoices(interchange);
      return { messages: invoices, problems };
    };
    return this.each(file, read, async (interchange, invoice) => {
      const vendor = await this.vendorOf(interchange, invoice.supplier);
      const invoiceNumber = invoice.invoiceNumber;
      const before = (await this.invoices.list({ invNum: [invoiceNumber], deleted: false, limit: 100, offset: 0 })).find(
        (row) => row.vendor_id === vendor.id && row.inv_num === invoiceNumber && row.note?.startsWith(`${marker},`),
      );
      if (before) return { invoice: before.id, invoiceNumber, loadedBefore: true };
      const note = `${marker}, ${file.name.slice(0, 200)}, message ${invoice.messageReference}`;
      const input = await invoiceInput(invoice, vendor.code, (ref) => this.orderOf(vendor, ref), note);
      return { invoice: await this.invoices.create(input), invoiceNumber };
    });
  }

  /** An ORDRSP file: each line's status on its order; a cancelled line cancels an order nothing of which was received or paid. */
  processResponses(file: FileToProcess): Promise<FileOutcome> {
    const read = (interchange: Interchange) => {
      const { responses, problems } = readOrderResponses(interchange);
      return { messages: responses, problems };
    };
    return this.each(file, read, async (interchange, response) => ({ lines: await this.applyResponse(interchange, response) }));
  }

  private async applyResponse(interchange: Interchange, response: OrderResponse): Promise<unknown[]> {
    const vendor = await this.vendorOf(interchange, response.supplier);
    const entries: { id: string; status: string; cancel: boolean; line: string; ref: string }[] = [];
    const skipped: unknown[] = [];
    for (const line of response.lines) {
      const ref = line.item.references.find((r) => r.qualifier === 'LI');
      if (!ref) throw new MessageRefusal(line.item.at, `line ${line.lineNumber} has no RFF+LI naming the order it answers`);
      const order = await this.orderOf(vendor, ref.value);
      // The same cancellation again (a file retried, a response resent): the order it cancelled is no longer open.
      if (!order && line.status === 'cancelled') {
        const [gone] = await this.orders.list({
          vendorId: vendor.id,
          lineReference: ref.value,
          status: ['z'],
          deleted: false,
          limit: 1,
          offset: 0,
        });
        if (gone?.vendor_status === 'cancelled') {
          skipped.push({
            line: line.lineNumber,
            reference: ref.value,
            order: gone.id,
            status: line.status,
            recorded: false,
            notCancelled: 'already cancelled',
          });
          continue;
        }
      }
      if (!order)
        throw new MessageRefusal(
          ref.at,
          `line ${line.lineNumber}: no open order of vendor ${vendor.code} has line reference ${ref.value}`,
          ref.value,
        );
      if (!RECORDED.has(line.status)) {
        skipped.push({ line: line.lineNumber, reference: ref.value, order: order.id, status: line.status, recorded: false });
        continue;
      }
      entries.push({ id: order.id, status: line.status, cancel: line.status === 'cancelled', line: line.lineNumber, ref: ref.value });
    }
    const done = await this.orders.recordVendorResponse(entries);
    const applied = entries.map((e, i) => ({
      line: e.line,
      reference: e.ref,
      order: e.id,
      status: e.status,
      recorded: true,
      ...(e.cancel ? { cancelled: done[i]!.cancelled } : {}),
      ...(done[i]!.kept ? { notCancelled: done[i]!.kept } : {}),
    }));
    return [...applied, ...skipped];
  }
}

/** A refusal for the report: the segment a MessageRefusal names, or the rule a service refused on. */
function refusal(message: string, index: number, at: SegmentAt, error: unknown) {
  if (error instanceof MessageRefusal) return refused(message, index, error.at, error.message, error.reference);
  if (error instanceof DomainError) return refused(message, index, at, error.message);
  throw error;
}

/** The bytes from the interchange's first character: a file is recognised as EDIFACT after a byte order mark and white space, so it is read after them too. */
function startOf(bytes: Uint8Array): Uint8Array {
  let at = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (at < bytes.length && (bytes[at] === 0x20 || bytes[at] === 0x09 || bytes[at] === 0x0d || bytes[at] === 0x0a)) at++;
  return bytes.subarray(at);
}
