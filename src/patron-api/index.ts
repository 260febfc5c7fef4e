// The Patron API (README, "Patron API"): Sierra's legacy HTTP interface for proxy servers, e-book
// platforms and discovery layers that authenticate library cards and read a patron's record.
import type http from 'node:http';
import type { Config } from '../config.ts';
import type { Domain } from '../domain.ts';
import { clientErrorHandler, connectionLimits, createHttpServer } from '../http/connection.ts';
import type { App } from '../http/types.ts';
import { allowList } from './allow-list.ts';
import { patronApiRoutes } from './routes.ts';
import { PatronApiService } from './service.ts';

declare module '../domain.ts' {
  interface Services {
    patronApi: PatronApiService;
  }
}

export const patronApi: Domain = {
  name: 'patronApi',
  services: ({ services }) => ({ patronApi: new PatronApiService(services.patrons, services.holds) }),
  register: async (app, { services, config }) => {
    patronApiRoutes(app, services.patronApi, allowList(config.patronApi.allow));
    await Promise.resolve();
  },
};

/**
 * The Patron API on a port of its own (CARREL_PATRONAPI_PORT), as Sierra serves it on 4500 and
 * 54620: its requests go to the same application (same routes, logs and allow-list); nothing
 * else is answered there. A slow client is closed as on the main port: the app's server's
 * time-outs hold here too, and what Node refuses is answered in the same error body.
 */
export function servePatronApi(app: App, config: Config): http.Server {
  const limits = connectionLimits(config);
  const server = createHttpServer(
    limits,
    (request, response) => {
      if (/^\/PATRONAPI\//i.test(request.url ?? '')) {
        app.routing(request, response);
        return;
      }
      response.writeHead(404, { 'content-type': 'text/html; charset=UTF-8', connection: 'close' });
      response.end('<HTML><BODY>\nERRNUM=1<BR>\nERRMSG=Requested record not found<BR>\n</BODY></HTML>\n');
    },
    app.log,
  );
  server.on('clientError', clientErrorHandler(limits));
  return server;
}
