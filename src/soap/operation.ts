// What one SOAP operation is: its request and response as schemas (the WSDL, the reading of the
// request and the writing of the answer are all made from them), the permission its REST twin
// needs, and the service call that answers it. Operations call the same services as REST.
import type { TObject, TSchema } from 'typebox';
import type { Permission } from '../auth/roles.ts';
import type { Principal } from '../auth/service.ts';
import type { Services } from '../domain.ts';

export interface SoapCall {
  principal: Principal;
  services: Services;
  /** The client's address, for the limits REST applies per address (PIN attempts). */
  address: string;
  /** The API's absolute base for the answers' links (https://host/v6), as REST's apiBase makes it. */
  base: string;
}

export interface SoapOperation {
  /** The operation's name; the request element is this name, the response element `${name}Response`. */
  name: string;
  /** One sentence for the WSDL's documentation. */
  summary: string;
  /** The request element's children. */
  input: TObject;
  /** The response element's content. */
  output: TSchema;
  /** The permission of its REST twin. */
  permission: Permission;
  /** Answers the call; throws DomainError (or the REST door's ApiError) for a fault. */
  run(args: Record<string, unknown>, call: SoapCall): Promise<unknown>;
}

export interface SoapService {
  /** The path under /soap/ and the WSDL's service name. */
  name: string;
  /** The target namespace of its messages. */
  namespace: string;
  operations: readonly SoapOperation[];
}
