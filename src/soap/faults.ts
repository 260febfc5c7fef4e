// SOAP faults, carrying the same error as REST answers for the same failure: the detail's
// CarrelError holds its code, specificCode, httpStatus, name and description (ErrorBody's members).
import type { Config } from '../config.ts';
import type { ApiError } from '../http/errors.ts';
import { ErrorBodySchema } from '../http/schemas.ts';
import { escapeXmlText, writeXml, type XmlElement } from '../shared/xml/index.ts';
import { envelopeXml, notUnderstoodXml, SOAP11, type SoapVersion } from './envelope.ts';

/** The element of a fault's detail (its type is ErrorBody in the WSDL). */
export const FAULT_ELEMENT = 'CarrelError';

export interface Fault {
  apiError: ApiError;
  /** SOAP's own fault codes; otherwise Client/Sender for the client's failures and Server/Receiver for Carrel's. */
  faultCode?: 'VersionMismatch' | 'MustUnderstand';
  notUnderstood?: readonly XmlElement[];
}

const NO_REFS = new Map<string, unknown>();

function faultCodeOf(fault: Fault, version: SoapVersion): string {
  if (fault.faultCode) return fault.faultCode;
  const client = fault.apiError.httpStatus < 500;
  if (version === SOAP11) return client ? 'Client' : 'Server';
  return client ? 'Sender' : 'Receiver';
}

/** The whole envelope of a fault, in the version the client spoke, its detail in the service's namespace. */
export function faultXml(version: SoapVersion, fault: Fault, namespace: string): string {
  const code = `soap:${faultCodeOf(fault, version)}`;
  const reason = escapeXmlText(fault.apiError.message);
  const detail = writeXml(FAULT_ELEMENT, fault.apiError.body(), ErrorBodySchema, NO_REFS, { namespace });
  if (version === SOAP11) {
    return envelopeXml(
      version,
      `<soap:Fault><faultcode>${code}</faultcode><faultstring>${reason}</faultstring><detail>${detail}</detail></soap:Fault>`,
    );
  }
  const header = fault.faultCode === 'MustUnderstand' && fault.notUnderstood ? notUnderstoodXml(fault.notUnderstood) : '';
  return envelopeXml(
    version,
    `<soap:Fault><soap:Code><soap:Value>${code}</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang="en">${reason}</soap:Text></soap:Reason><soap:Detail>${detail}</soap:Detail></soap:Fault>`,
    header,
  );
}

/**
 * A fault's HTTP status. By default as REST's for the same failure, but simpler: 401 and 403 as
 * they are, 5xx as they are, every other failure of the client's 400 (as SOAP 1.2 answers a Sender
 * fault), so that a client's mistake, a malformed envelope included, never reads as the server's.
 * CARREL_SOAP_FAULT_STATUS=500 makes every SOAP 1.1 fault 500, as SOAP 1.1's HTTP binding says,
 * for clients (JAX-WS, WCF) that read a fault only from a 500.
 */
export function faultStatus(apiError: ApiError, version: SoapVersion, setting: Config['soapFaultStatus']): number {
  if (setting === '500' && version === SOAP11) return 500;
  if (apiError.httpStatus >= 500 || apiError.httpStatus === 401 || apiError.httpStatus === 403) return apiError.httpStatus;
  return 400;
}
