// The SOAP services: each a path under /soap/, a target namespace (urn:carrel:soap:NAME) and its operations.
import { ACQUISITIONS_OPERATIONS } from './acquisitions.ts';
import type { SoapService } from './operation.ts';
import { PATRON_CIRCULATION_OPERATIONS } from './patron-circulation.ts';
import { PATRON_OPERATIONS } from './patrons.ts';

export const SOAP_SERVICES: readonly SoapService[] = [
  { name: 'patrons', namespace: 'urn:carrel:soap:patrons', operations: [...PATRON_OPERATIONS, ...PATRON_CIRCULATION_OPERATIONS] },
  { name: 'acquisitions', namespace: 'urn:carrel:soap:acquisitions', operations: ACQUISITIONS_OPERATIONS },
];
