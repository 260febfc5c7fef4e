// Refusals of patron writes, a specificCode per reason (README, "Patrons"): refused when the request
// names something that does not exist, conflict when another record's state forbids it.
import { fail } from '../shared/errors.ts';

export const PATRON_SPECIFIC_CODES = { barcodeTaken: 1, unknownLocation: 2, unknownPatronType: 3, uniqueIdTaken: 4 } as const;
const c = PATRON_SPECIFIC_CODES;

export const refusePatron = {
  barcodeTaken: (barcodes: readonly string[]) => fail.conflict(c.barcodeTaken, `barcode ${barcodes.join(', ')} belongs to another patron`),
  uniqueIdTaken: (ids: readonly string[]) => fail.conflict(c.uniqueIdTaken, `unique id ${ids.join(', ')} belongs to another patron`),
  unknownLocation: (code: string) => fail.refused(c.unknownLocation, `homeLibraryCode: no location ${code}`),
  unknownPatronType: (code: number) => fail.refused(c.unknownPatronType, `patronType: no patron type ${code}`),
};

/** Too many failed PIN validations for a barcode or an API key, with the seconds to wait. */
export const tooManyAttempts = (retryAfterSec: number, what: string) =>
  fail.tooManyAttempts(retryAfterSec, `too many failed validations for this ${what}; try again in ${retryAfterSec} s`);

/** The one answer to a wrong PIN, an unknown barcode and a patron without a PIN alike. */
export const invalidBarcodeOrPin = () => fail.invalidParameter('Invalid barcode or PIN');
