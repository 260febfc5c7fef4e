// Branches and their locations: /branches, /branches/pickupLocations.
import type { Domain } from '../domain.ts';
import { v6 } from '../domain.ts';
import { branchRoutes } from './routes.ts';
import { BranchService } from './service.ts';

declare module '../domain.ts' {
  interface Services {
    branches: BranchService;
  }
}

export const branches: Domain = {
  name: 'branches',
  services: ({ db }) => ({ branches: new BranchService(db) }),
  register: async (app, { services }) => v6(app, (api) => branchRoutes(api, services.branches)),
};
