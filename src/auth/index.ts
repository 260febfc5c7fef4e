// API keys, their roles and OAuth 2 client-credentials tokens: POST /token, GET /info/token, `carrel keys`.
import type { Domain } from '../domain.ts';
import { v6 } from '../domain.ts';
import { keyCommands } from './commands.ts';
import { tokenInfoRoute, tokenRoute } from './routes.ts';
import { installRateLimits } from '../http/rate-limit.ts';
import { RateLimiter } from './rate-limit.ts';
import { AuthService } from './service.ts';

declare module '../domain.ts' {
  interface Services {
    auth: AuthService;
    rateLimits: RateLimiter;
  }
}

export const auth: Domain = {
  name: 'auth',
  services: ({ db, config }) => ({
    auth: new AuthService(db, config.tokenLifetimeSec, config.tokenCacheMs),
    rateLimits: new RateLimiter(db, config.rateLimitPerMinute),
  }),
  register: async (app, { services, config }) => {
    installRateLimits(app, services.rateLimits);
    // The token endpoint is also served unversioned (POST /token), as Sierra serves it.
    await app.register(async (root) => tokenRoute(root, services.auth));
    await v6(app, (api) => {
      tokenRoute(api, services.auth);
      tokenInfoRoute(api, config.tokenLifetimeSec);
    });
  },
  commands: keyCommands,
};
