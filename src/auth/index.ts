// API keys, their roles and OAuth 2 client-credentials tokens: POST /token, GET /info/token, `carrel keys`.
import type { Domain } from '../domain.ts';
import { v6 } from '../domain.ts';
import { keyCommands } from './commands.ts';
import { tokenInfoRoute, tokenRoute } from './routes.ts';
import { installRateLimits } from '../http/rate-limit.ts';
import { LogSampler } from '../shared/log-sample.ts';
import { FailedAttempts } from './attempts.ts';
import { LoginLimiter } from './logins.ts';
import { RateLimiter } from './rate-limit.ts';
import { AuthService } from './service.ts';

declare module '../domain.ts' {
  interface Services {
    auth: AuthService;
    rateLimits: RateLimiter;
    /** Failed attempts at a secret (PINs, key secrets, SIP2 passwords), counted in the database. */
    attempts: FailedAttempts;
  }
}

export const auth: Domain = {
  name: 'auth',
  services: ({ db, config }) => {
    const attempts = new FailedAttempts(db);
    return {
      auth: new AuthService(db, config.tokenLifetimeSec, config.tokenCacheMs, new LoginLimiter(attempts, config.loginLimits, 'token')),
      rateLimits: new RateLimiter(db, config.rateLimitPerMinute),
      attempts,
    };
  },
  register: async (app, { services, config }) => {
    installRateLimits(app, services.rateLimits);
    // The token endpoint is also served unversioned (POST /token), as Sierra serves it. Failures
    // are logged: the first ten per client address each minute, then a count.
    const failures = new LogSampler(10);
    await app.register(async (root) => tokenRoute(root, services.auth, failures));
    await v6(app, (api) => {
      tokenRoute(api, services.auth, failures);
      tokenInfoRoute(api, config.tokenLifetimeSec);
    });
  },
  commands: keyCommands,
};
