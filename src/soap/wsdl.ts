// A service's WSDL 1.1 (document/literal wrapped), made from its operations' schemas: the request
// element is the operation's name, the answer `${name}Response`, a fault's detail CarrelError (REST's
// error body); one binding for SOAP 1.1 and one for SOAP 1.2, both at the same address.
import { Type } from 'typebox';
import { escapeXmlText, xsdTypes, type SchemaRefs } from '../shared/xml/index.ts';
import { FAULT_ELEMENT } from './faults.ts';
import type { SoapService } from './operation.ts';

const WSDL_NS = 'http://schemas.xmlsoap.org/wsdl/';
const WSDL_SOAP11_NS = 'http://schemas.xmlsoap.org/wsdl/soap/';
const WSDL_SOAP12_NS = 'http://schemas.xmlsoap.org/wsdl/soap12/';
const HTTP_TRANSPORT = 'http://schemas.xmlsoap.org/soap/http';

/** An operation's action: the service's namespace, a slash, the operation's name. */
export function soapAction(service: SoapService, operation: string): string {
  return `${service.namespace}/${operation}`;
}

export function wsdl(service: SoapService, refs: SchemaRefs, location: string): string {
  const elements = service.operations.flatMap((op) => [
    { name: op.name, schema: op.input },
    { name: `${op.name}Response`, schema: op.output },
  ]);
  const types = xsdTypes(service.namespace, [...elements, { name: FAULT_ELEMENT, schema: Type.Ref('ErrorBody') }], refs);
  const name = escapeXmlText(service.name);
  const ns = escapeXmlText(service.namespace);
  const messages = service.operations
    .map(
      (op) =>
        `<wsdl:message name="${op.name}Request"><wsdl:part name="parameters" element="tns:${op.name}"/></wsdl:message>\n` +
        `<wsdl:message name="${op.name}Response"><wsdl:part name="parameters" element="tns:${op.name}Response"/></wsdl:message>`,
    )
    .join('\n');
  const portType = service.operations
    .map(
      (op) =>
        `<wsdl:operation name="${op.name}"><wsdl:documentation>${escapeXmlText(`${op.summary} Needs the ${op.permission} permission.`)}</wsdl:documentation>` +
        `<wsdl:input message="tns:${op.name}Request"/><wsdl:output message="tns:${op.name}Response"/>` +
        `<wsdl:fault name="${FAULT_ELEMENT}" message="tns:${FAULT_ELEMENT}"/></wsdl:operation>`,
    )
    .join('\n');
  const binding = (prefix: 'soap' | 'soap12', suffix: string) =>
    `<wsdl:binding name="${name}${suffix}" type="tns:${name}PortType"><${prefix}:binding style="document" transport="${HTTP_TRANSPORT}"/>\n` +
    service.operations
      .map(
        (op) =>
          `<wsdl:operation name="${op.name}"><${prefix}:operation soapAction="${escapeXmlText(soapAction(service, op.name))}" style="document"/>` +
          `<wsdl:input><${prefix}:body use="literal"/></wsdl:input><wsdl:output><${prefix}:body use="literal"/></wsdl:output>` +
          `<wsdl:fault name="${FAULT_ELEMENT}"><${prefix}:fault name="${FAULT_ELEMENT}" use="literal"/></wsdl:fault></wsdl:operation>`,
      )
      .join('\n') +
    '</wsdl:binding>';
  const address = escapeXmlText(location);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<wsdl:definitions name="${name}" targetNamespace="${ns}" xmlns:wsdl="${WSDL_NS}" xmlns:soap="${WSDL_SOAP11_NS}" xmlns:soap12="${WSDL_SOAP12_NS}" xmlns:tns="${ns}">`,
    `<wsdl:documentation>Carrel's ${name} SOAP service (README, "SOAP web services"): the same services, permissions and errors as the REST API. Authenticate each call with an API key and its secret, as a WS-Security UsernameToken (Username: the key; Password, PasswordText: the secret) or as HTTP Basic, or with a bearer token from POST /v6/token. A fault's detail is CarrelError: the code, specificCode, httpStatus, name and description REST answers for the same failure.</wsdl:documentation>`,
    `<wsdl:types>\n${types}\n</wsdl:types>`,
    messages,
    `<wsdl:message name="${FAULT_ELEMENT}"><wsdl:part name="fault" element="tns:${FAULT_ELEMENT}"/></wsdl:message>`,
    `<wsdl:portType name="${name}PortType">\n${portType}\n</wsdl:portType>`,
    binding('soap', 'Soap11'),
    binding('soap12', 'Soap12'),
    `<wsdl:service name="${name}"><wsdl:port name="${name}Soap11" binding="tns:${name}Soap11"><soap:address location="${address}"/></wsdl:port>` +
      `<wsdl:port name="${name}Soap12" binding="tns:${name}Soap12"><soap12:address location="${address}"/></wsdl:port></wsdl:service>`,
    '</wsdl:definitions>',
    '',
  ].join('\n');
}
