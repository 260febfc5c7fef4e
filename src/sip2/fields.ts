// The two-letter identifiers of SIP2's variable-length fields that Carrel reads or writes, named
// as the SIP2 2.00 specification names them (PB and PC are vendors' extensions, not 2.00's).
// A message's fixed-length fields and its two-digit command codes are not here: they are
// positions, not identifiers.

export const FIELD = {
  /** AA: the patron's card barcode. */
  patronIdentifier: 'AA',
  /** AB: the item's barcode. */
  itemIdentifier: 'AB',
  /** AD: the patron's PIN. */
  patronPassword: 'AD',
  /** AE: the patron's name. */
  personalName: 'AE',
  /** AF: text for the kiosk's screen (why a request was refused). */
  screenMessage: 'AF',
  /** AH: a due date. */
  dueDate: 'AH',
  /** AJ: an item's title. */
  titleIdentifier: 'AJ',
  /** AL: why a kiosk blocks a card (Block Patron). */
  blockedCardMessage: 'AL',
  /** AM: the library's name (SC Status). */
  libraryName: 'AM',
  /** AN: the kiosk's location (SC Status). */
  terminalLocation: 'AN',
  /** AO: the institution a message is for. */
  institutionId: 'AO',
  /** AP: where an item is now. */
  currentLocation: 'AP',
  /** AQ: an item's home location; in Patron Information, the patron's home library. */
  permanentLocation: 'AQ',
  /** AS: the patron's holds ready for pickup (Patron Information). */
  holdItems: 'AS',
  /** AT: the patron's overdue items. */
  overdueItems: 'AT',
  /** AU: the patron's charged items. */
  chargedItems: 'AU',
  /** AV: the patron's fines. */
  fineItems: 'AV',
  /** AY: a message's sequence number (error detection). */
  sequenceNumber: 'AY',
  /** AZ: a message's checksum (error detection); always the last field. */
  checksum: 'AZ',
  /** BD: the patron's address. */
  homeAddress: 'BD',
  /** BE: the patron's e-mail address. */
  emailAddress: 'BE',
  /** BF: the patron's telephone number. */
  homePhoneNumber: 'BF',
  /** BG: the institution that owns an item: its location's branch's (Item Information, Checkin). */
  owner: 'BG',
  /** BH: the currency of amounts (USD). */
  currencyType: 'BH',
  /** BK: a payment's transaction id, given by the kiosk and echoed. */
  transactionId: 'BK',
  /** BL: whether the patron is known (Y or N). */
  validPatron: 'BL',
  /** BM: an item renewed (Renew All). */
  renewedItems: 'BM',
  /** BN: an item not renewed (Renew All). */
  unrenewedItems: 'BN',
  /** BP: the first item of a list asked for (Patron Information). */
  startItem: 'BP',
  /** BQ: the last item of a list asked for (Patron Information). */
  endItem: 'BQ',
  /** BR: a hold's place in its queue. */
  queuePosition: 'BR',
  /** BS: a hold's pickup location. */
  pickupLocation: 'BS',
  /** BU: the patron's recalled items. */
  recallItems: 'BU',
  /** BV: an amount: what the patron owes, or a payment. */
  feeAmount: 'BV',
  /** BX: which messages the server answers (SC Status). */
  supportedMessages: 'BX',
  /** BY: the kind of hold (3: on the copy itself). */
  holdType: 'BY',
  /** CA: how many overdue items block the patron (four digits; Patron Information). */
  overdueItemsLimit: 'CA',
  /** CC: what the patron may owe before being blocked (Patron Information). */
  feeLimit: 'CC',
  /** CD: the patron's holds not ready yet (Patron Information). */
  unavailableHoldItems: 'CD',
  /** CF: how many holds an item has. */
  holdQueueLength: 'CF',
  /** CG: the fine a payment is for. */
  feeIdentifier: 'CG',
  /** CH: an item's properties: what staff wrote on it for whoever handles it (its message). */
  itemProperties: 'CH',
  /** CK: an item's media type, three digits (000 other, 001 book, 006 CD/CDROM, …). */
  mediaType: 'CK',
  /** CN: the kiosk's account name (Login). */
  loginUserId: 'CN',
  /** CO: the kiosk's account password (Login). */
  loginPassword: 'CO',
  /** CQ: whether the patron's PIN is right (Y or N). */
  validPatronPassword: 'CQ',
  /** CV: why a check-in alerts: 01 hold shelf here, 02 in transit. */
  alertType: 'CV',
  /** PB: the patron's birth date (an extension). */
  birthDate: 'PB',
  /** PC: the patron's type (an extension). */
  patronType: 'PC',
} as const;

export type FieldId = (typeof FIELD)[keyof typeof FIELD];
