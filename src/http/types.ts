// The app type every route module registers on: Fastify with TypeBox schemas.
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { QuickAnswers } from './quick-answers.ts';
import type { BeforeRouteAnswers } from './error-handler.ts';

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Where a door claims the answers to requests under its prefix that Fastify refuses before routing (error-handler.ts). */
    beforeRoute: BeforeRouteAnswers;
    /** GET routes answered before Fastify's request pipeline (quick-answers.ts). */
    quickAnswers: QuickAnswers;
  }
}
