// A patron's holds, loans and fines over SOAP (PatronHolds, PlaceHold, CancelHold, PatronCheckouts, Renew, PatronFines, PayFine).
import type { SoapOperation } from './operation.ts';

export const PATRON_CIRCULATION_OPERATIONS: SoapOperation[] = [];
