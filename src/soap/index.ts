// The SOAP door (README, "SOAP web services"): /soap/patrons and /soap/acquisitions, each with its
// WSDL, for the finance, self-registration and identity systems that integrate through SOAP. The
// operations call the same services as REST and check the same permissions.
import type { Domain } from '../domain.ts';
import { registeredSchemas } from '../http/xml-answers.ts';
import { soapRoutes } from './routes.ts';
import { SOAP_SERVICES } from './services.ts';

export const soap: Domain = {
  name: 'soap',
  register: async (app, { services, config }) => {
    const refs = registeredSchemas(app);
    await app.register(async (scope) => soapRoutes(scope, SOAP_SERVICES, { services, config, refs }));
  },
};
