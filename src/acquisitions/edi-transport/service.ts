// Sending orders to vendors as EDIFACT ORDERS and fetching the files vendors leave, with Carrel as
// the client of each vendor's server (README, "Sending orders and fetching files").
//
// Never sent twice: an interchange is recorded (prepared, with its bytes and orders) before it is
// uploaded and marked sent after the upload and its rename succeeded. An order is in at most one
// interchange. A failed upload whose file is surely absent from the server is forgotten (its
// orders are pending again); one whose outcome is unknown (the process died, the connection
// dropped during the rename) stays prepared, and the next run asks the server: the file there
// means it arrived (marked sent), no file means the same bytes are sent again.
//
// Collected by the vendor (its EDI settings' ordersPickup): the interchange is recorded the same
// way, with pickup set, and waits as a file in out/ of the vendor's SFTP account on Carrel's door;
// it is marked sent when the vendor has read every byte of it and closed it (src/sftp/session.ts),
// and then leaves out/. The bytes leave Carrel only then, so the vendor's own close after a whole
// read is the one sign that it has them; an interchange read in part stays waiting, whole.
//
// Never fetched twice: each file fetched is remembered by vendor, name, size and modification
// time, in the transaction that keeps it (Evergreen's way: vendors' servers often let a client
// read but not rename or delete, which Koha's way of renaming fetched files needs).
import { LOCK_KEYS } from '../../db/lock-keys.ts';
import type { Db } from '../../db/types.ts';
import { writeOrders } from '../../edifact/index.ts';
import type { FileService } from '../../files/index.ts';
import { fail } from '../../shared/errors.ts';
import type { SftpAccountService } from '../../sftp/index.ts';
import type { OrderService } from '../orders/index.ts';
import type { VendorEdiService } from '../vendors/edi.ts';
import type { VendorService } from '../vendors/service.ts';
import { fileName, orderBatch } from './batch.ts';
import * as repo from './repository.ts';
import { FtpSession } from './ftp-client.ts';
import { RemoteSession, remotePath, type Remote, type RemoteServer } from './sftp-client.ts';

/** Orders one interchange carries at most; more wait for the next run. */
const MAX_ORDERS = 500;
/** Files one fetch takes from a vendor at most; more wait for the next run. */
export const MAX_FILES = 100;
/** Interchanges waiting for collection that out/ lists at most: the oldest. */
const MAX_WAITING = 1000;

export interface SendResult {
  vendor: string;
  /** waiting: in out/ of the vendor's SFTP account, for it to collect. */
  outcome: 'sent' | 'kept' | 'waiting' | 'dry-run' | 'nothing' | 'refused' | 'failed';
  controlReference?: string;
  file?: string;
  orders?: string[];
  /** Interchanges left by an earlier run, now known to have arrived or sent again. */
  resolved?: string[];
  text?: string;
  error?: string;
}

export interface FetchedFile {
  name: string;
  size: number;
  fileId?: string;
  error?: string;
}

export interface FetchResult {
  vendor: string;
  outcome: 'fetched' | 'nothing' | 'refused' | 'failed';
  files: FetchedFile[];
  error?: string;
}

export interface Interchange {
  vendor: string;
  controlReference: string;
  file: string;
  status: 'prepared' | 'sent';
  preparedDate: string;
  sentDate: string | null;
  /** The folder of the vendor's server it was put in; null: kept in Carrel only. */
  deliveredTo: string | null;
  orders: string[];
}

type VendorServer = RemoteServer & { ordersFolder: string; filesFolder: string };

const openRemote = (server: RemoteServer): Promise<Remote> =>
  server.protocol === 'sftp' ? RemoteSession.open(server) : FtpSession.open(server);

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export class EdiTransportService {
  constructor(
    private readonly db: Db,
    private readonly s: {
      orders: OrderService;
      vendors: VendorService;
      vendorEdi: VendorEdiService;
      files: FileService;
      sftpAccounts: SftpAccountService;
    },
    private readonly maxFileBytes: number,
  ) {}

  private async vendorIdOf(code: string | undefined): Promise<string | undefined> {
    return code === undefined ? undefined : (await this.s.vendors.byCode(code)).id;
  }

  /** The vendor's server, when Carrel can reach it: undefined when none is set. */
  private async server(vendorId: string, code: string): Promise<VendorServer | undefined> {
    const connection = await this.s.vendorEdi.connectionWithPassword(vendorId);
    return connection && { ...connection, vendor: code };
  }

  /**
   * Logs in to the vendor's server. An SFTP server's host key is checked against the one expected;
   * with none expected yet, the key offered is recorded (OpenSSH's accept-new), so any later
   * connection to a server with another key is refused.
   */
  private async open(vendorId: string, server: VendorServer): Promise<Remote> {
    const session = await openRemote(server);
    try {
      if (session.hostKey && !server.hostKey) await this.s.vendorEdi.recordHostKey(vendorId, server, session.hostKey);
    } catch (error) {
      session.close();
      throw error;
    }
    return session;
  }

  /** Sends each vendor's orders not sent yet (one vendor's when given), one interchange per vendor. */
  async send(o: { vendor?: string; dryRun?: boolean; onlyRouted?: boolean } = {}): Promise<SendResult[]> {
    const vendorId = await this.vendorIdOf(o.vendor);
    const pending = await repo.vendorsWithPending(this.db, vendorId);
    const routed = await repo.vendorsWithRoute(this.db, vendorId);
    // A vendor with an interchange left prepared is visited even with nothing new to send.
    const vendors = new Map([...pending, ...routed].map((v) => [v.id, v.code]));
    const results: SendResult[] = [];
    for (const [id, code] of vendors) {
      if (o.onlyRouted && !routed.some((v) => v.id === id)) continue;
      results.push(
        await this.sendVendor(id, code, !!o.dryRun).catch((error: unknown) => ({
          vendor: code,
          outcome: 'failed' as const,
          error: message(error),
        })),
      );
    }
    if (o.vendor !== undefined && results.length === 0) results.push({ vendor: o.vendor, outcome: 'nothing' });
    return results.filter((r) => !(o.vendor === undefined && r.outcome === 'nothing' && !r.resolved?.length));
  }

  private async sendVendor(vendorId: string, code: string, dryRun: boolean): Promise<SendResult> {
    const edi = await this.s.vendorEdi.get(vendorId);
    const vendorParty = edi.partyIds[0];
    if (!vendorParty || !edi.libraryPartyId)
      return {
        vendor: code,
        outcome: 'refused',
        error: `vendor ${code} has no EDI identity: set its party id and the library's (carrel vendors edi set ${code} --party … --library-party …)`,
      };
    let server;
    try {
      // Orders the vendor collects are never uploaded, whatever server is set (it may be there for fetching).
      server = edi.ordersPickup ? undefined : await this.server(vendorId, code);
    } catch (error) {
      return { vendor: code, outcome: 'refused', error: message(error) };
    }
    if (edi.ordersPickup && !dryRun && (await this.s.sftpAccounts.forVendor(code)).length === 0)
      return {
        vendor: code,
        outcome: 'refused',
        error: `vendor ${code} collects its orders from the SFTP door but no SFTP account is tied to it (carrel sftp accounts create NAME --vendor ${code})`,
      };
    // EDItEUR's library ORDERS name the library's account with the supplier (RFF+API): a vendor
    // serving several libraries, or one library with several accounts, bills by it.
    const account = (await this.s.vendors.get(vendorId)).acct_num;
    const ids = await repo.pendingOrderIds(this.db, vendorId, MAX_ORDERS);
    const orders = await Promise.all(ids.map((id) => this.s.orders.get(id)));
    const prepared = new Date();
    if (dryRun) {
      if (orders.length === 0) return { vendor: code, outcome: 'nothing' };
      const { text } = writeOrders(
        orderBatch({ controlReference: '0', library: edi.libraryPartyId, vendor: vendorParty, account, orders, prepared }),
      );
      return { vendor: code, outcome: 'dry-run', orders: ids, file: fileName('0'), text };
    }
    // Logging in first: a server that refuses us leaves nothing recorded.
    const session = server ? await this.open(vendorId, server) : undefined;
    try {
      const resolved: string[] = [];
      if (session && server) {
        for (const left of await repo.preparedInterchanges(this.db, vendorId)) {
          await this.deliver(session, server.ordersFolder, left, true);
          resolved.push(left.file_name);
        }
      }
      if (orders.length === 0) return { vendor: code, outcome: 'nothing', resolved };
      const interchange = await this.db.transaction(async (tx) => {
        const controlReference = await repo.nextControlReference(tx);
        const { bytes } = writeOrders(
          orderBatch({ controlReference, library: edi.libraryPartyId!, vendor: vendorParty, account, orders, prepared }),
        );
        const name = fileName(controlReference);
        const id = await repo.insertPrepared(
          tx,
          { vendorId, controlReference, fileName: name, content: bytes, orderIds: ids, pickup: edi.ordersPickup },
          prepared,
        );
        if (!id) throw fail.conflict(0, `vendor ${code}: another run is sending these orders`);
        return {
          id,
          vendor_id: vendorId,
          control_reference: controlReference,
          file_name: name,
          status: 'prepared' as const,
          content: bytes,
        };
      });
      const base = { vendor: code, controlReference: interchange.control_reference, file: interchange.file_name, orders: ids, resolved };
      // Sent once the vendor has read it whole from out/ (ordersCollected).
      if (edi.ordersPickup) return { ...base, outcome: 'waiting' };
      if (!session || !server) {
        // No server: the interchange is kept in Carrel only, for the vendor (or staff) to collect.
        await repo.markSent(this.db, interchange.id, null, new Date());
        return { ...base, outcome: 'kept' };
      }
      try {
        await this.deliver(session, server.ordersFolder, interchange, false);
      } catch (error) {
        return { ...base, outcome: 'failed', error: message(error) };
      }
      return { ...base, outcome: 'sent' };
    } finally {
      session?.close();
    }
  }

  /** Uploads an interchange recorded as prepared and marks it sent; `resolving`: one an earlier run left, which may have arrived. */
  private async deliver(session: Remote, folder: string, row: repo.InterchangeRow, resolving: boolean): Promise<void> {
    const target = remotePath(folder, row.file_name);
    if (resolving) {
      if ((await session.size(target)) === row.content.byteLength) return repo.markSent(this.db, row.id, folder || '.', new Date());
      await session.remove(`${target}.part`).catch(() => undefined);
    }
    try {
      await session.put(target, row.content);
    } catch (error) {
      // Forgotten only when surely not there; otherwise the next run asks the server again.
      if ((await session.size(target).catch(() => -1)) === undefined) await repo.dropPrepared(this.db, row.id);
      throw error;
    }
    await repo.markSent(this.db, row.id, folder || '.', new Date());
  }

  /** Fetches the files each vendor with a server left in its files folder (one vendor's when given). */
  async fetch(o: { vendor?: string } = {}): Promise<FetchResult[]> {
    const vendorId = await this.vendorIdOf(o.vendor);
    const vendors = await repo.vendorsWithConnection(this.db, vendorId);
    if (o.vendor !== undefined && vendors.length === 0)
      return [{ vendor: o.vendor, outcome: 'refused', files: [], error: `vendor ${o.vendor} has no server set (carrel vendors edi set)` }];
    const results: FetchResult[] = [];
    for (const v of vendors) {
      results.push(
        await this.fetchVendor(v.id, v.code).catch((error: unknown) => ({
          vendor: v.code,
          outcome: 'failed' as const,
          files: [],
          error: message(error),
        })),
      );
    }
    if (results.some((r) => r.files.some((f) => f.fileId))) await this.s.files.processWaiting();
    return results;
  }

  private async fetchVendor(vendorId: string, code: string): Promise<FetchResult> {
    let server;
    try {
      server = (await this.server(vendorId, code))!;
    } catch (error) {
      return { vendor: code, outcome: 'refused', files: [], error: message(error) };
    }
    const session = await this.open(vendorId, server);
    try {
      const listed = (await session.list(server.filesFolder)).sort((a, b) => a.mtime - b.mtime || (a.name < b.name ? -1 : 1));
      const before = await repo.fetchedBefore(
        this.db,
        vendorId,
        listed.map((f) => f.name),
      );
      const fresh = listed.filter((f) => !before.has(`${f.name}/${f.size}/${f.mtime}`) && !f.name.endsWith('.part')).slice(0, MAX_FILES);
      const files: FetchedFile[] = [];
      for (const f of fresh) {
        if (f.size > this.maxFileBytes) {
          files.push({ name: f.name, size: f.size, error: `larger than ${this.maxFileBytes} bytes, not fetched` });
          continue;
        }
        try {
          const content = await session.get(remotePath(server.filesFolder, f.name), this.maxFileBytes);
          const fileId = await this.db.transaction(async (tx) => {
            const file = await this.s.files.receive(`edi:${code}`, f.name, content, tx);
            await repo.recordFetched(tx, { vendorId, name: f.name, size: f.size, mtime: f.mtime, fileId: file.id });
            return file.id;
          });
          files.push({ name: f.name, size: content.byteLength, fileId });
        } catch (error) {
          files.push({ name: f.name, size: f.size, error: message(error) });
        }
      }
      return { vendor: code, outcome: files.length ? 'fetched' : 'nothing', files };
    } finally {
      session.close();
    }
  }

  /** The id of the vendor an SFTP account names (--vendor), or undefined when there is no such vendor. */
  private async pickupVendorId(code: string): Promise<string | undefined> {
    try {
      return (await this.s.vendors.byCode(code)).id;
    } catch {
      return undefined;
    }
  }

  /** The interchanges waiting for the vendor to collect them (out/ of its SFTP accounts), oldest first. */
  async waitingOrders(vendorCode: string): Promise<{ id: string; name: string; size: number; prepared: Date }[]> {
    const vendorId = await this.pickupVendorId(vendorCode);
    if (!vendorId) return [];
    const rows = await repo.waitingForPickup(this.db, vendorId, MAX_WAITING);
    return rows.map((r) => ({ id: r.id, name: r.file_name, size: Number(r.size), prepared: r.prepared_date }));
  }

  /** One interchange waiting for the vendor to collect it, by its file name, with its bytes. */
  async waitingOrder(vendorCode: string, name: string): Promise<{ id: string; content: Uint8Array; prepared: Date } | undefined> {
    const vendorId = await this.pickupVendorId(vendorCode);
    const row = vendorId && (await repo.waitingByName(this.db, vendorId, name));
    return row ? { id: row.id, content: row.content, prepared: row.prepared_date } : undefined;
  }

  /** The vendor has read a waiting interchange whole through this SFTP account: its orders are sent. */
  async ordersCollected(id: string, account: string): Promise<void> {
    await repo.markSent(this.db, id, `sftp:${account}`, new Date());
  }

  /** The interchanges recorded, newest first (one vendor's when given). */
  async interchanges(o: { vendor?: string; limit: number }): Promise<Interchange[]> {
    const rows = await repo.listInterchanges(this.db, { vendorId: await this.vendorIdOf(o.vendor), limit: o.limit });
    return rows.map((r) => ({
      vendor: r.vendor_code,
      controlReference: r.control_reference,
      file: r.file_name,
      status: r.status,
      preparedDate: r.prepared_date.toISOString(),
      sentDate: r.sent_date?.toISOString() ?? null,
      deliveredTo: r.delivered_to,
      orders: r.orders,
    }));
  }

  /** An interchange's bytes as sent (or as kept, for a vendor without a server). */
  async interchangeBytes(controlReference: string): Promise<Uint8Array> {
    const content = /^\d{1,14}$/.test(controlReference) ? await repo.interchangeContent(this.db, controlReference) : undefined;
    if (!content) throw fail.notFound(`no interchange has control reference ${controlReference}`);
    return content;
  }

  /**
   * The scheduled run: send for every vendor with a server or collecting its orders, fetch for every
   * vendor with a server, by one process at a time
   * (an advisory lock; a process finding it held skips this turn).
   */
  async scheduled(): Promise<{ sent: SendResult[]; fetched: FetchResult[] } | undefined> {
    const release = await this.db.tryLock(LOCK_KEYS.ediTransport);
    if (!release) return undefined;
    try {
      return { sent: await this.send({ onlyRouted: true }), fetched: await this.fetch() };
    } finally {
      await release();
    }
  }
}
