// Items: /items, the copies attached to bibs.
import type { Domain } from '../domain.ts';
import { v6 } from '../domain.ts';
import { ItemSchema, itemRoutes } from './routes.ts';
import { ItemService } from './service.ts';

declare module '../domain.ts' {
  interface Services {
    items: ItemService;
  }
}

export const items: Domain = {
  name: 'items',
  services: ({ db, reads }) => ({ items: new ItemService(db, reads) }),
  register: async (app, { services, config }) => {
    app.addSchema(ItemSchema);
    await v6(app, (api) => itemRoutes(api, services.items, config.publicBaseUrl));
  },
};
