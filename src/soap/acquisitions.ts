// The operations of /soap/acquisitions (SubmitInvoice, InvoiceStatus, OrderStatus, FundBalance).
import type { SoapOperation } from './operation.ts';

export const ACQUISITIONS_OPERATIONS: SoapOperation[] = [];
