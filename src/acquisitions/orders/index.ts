// Purchase orders: /orders (place, change, cancel, receive); paid through invoice lines; `carrel orders`.
import type { Domain } from '../../domain.ts';
import { v6 } from '../../domain.ts';
import { orderCommands } from './commands.ts';
import { OrderSchema, orderRoutes } from './routes.ts';
import { OrderService } from './service.ts';

export type { OrderInput, OrderChangeInput, OrderRow, PaidOrderLine } from './service.ts';
export { OrderService } from './service.ts';

declare module '../../domain.ts' {
  interface Services {
    orders: OrderService;
  }
}

export const orders: Domain = {
  name: 'orders',
  services: ({ db, services }) => ({ orders: new OrderService(db, services.funds, services.vendors) }),
  register: async (app, { services, config }) => {
    app.addSchema(OrderSchema);
    await v6(app, (api) => orderRoutes(api, services.orders, config.publicBaseUrl));
  },
  commands: orderCommands,
};
