// GET /api: the status and version report (docs/api-contract.md, "The status report"). No authorization.
import { Type } from 'typebox';
import { access } from '../http/access.ts';
import { errorRef } from '../http/schemas.ts';
import type { App } from '../http/types.ts';
import { SERVICE_NAME } from '../version.ts';
import type { HealthService } from './service.ts';

const Status = Type.Union([Type.Literal('Healthy'), Type.Literal('Unhealthy')]);
const Duration = Type.String({ pattern: '^\\d{2}:\\d{2}:\\d{2}\\.\\d{7}$', description: 'hh:mm:ss.fffffff' });
const entry = (data: ReturnType<typeof Type.Object>) =>
  Type.Object(
    {
      data,
      duration: Duration,
      status: Status,
      tags: Type.Array(Type.String()),
      description: Type.Optional(Type.String({ description: 'Only when Unhealthy: the failure text.' })),
      exception: Type.Optional(Type.String({ description: 'Only when Unhealthy: the exception text.' })),
    },
    { additionalProperties: false },
  );

export const HealthReportSchema = Type.Object(
  {
    status: Status,
    totalDuration: Duration,
    entries: Type.Object(
      {
        API: entry(
          Type.Object(
            {
              [SERVICE_NAME]: Type.Object(
                { version: Type.String(), major: Type.Integer(), minor: Type.Integer(), build: Type.Integer(), revision: Type.Integer() },
                { additionalProperties: false },
              ),
            },
            { additionalProperties: false },
          ),
        ),
        DatabaseServer: entry(
          Type.Object(
            { Database: Type.Optional(Type.Object({ version: Type.String() }, { additionalProperties: false })) },
            { additionalProperties: false, description: 'Empty when the database is Unhealthy.' },
          ),
        ),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export function healthRoutes(app: App, health: HealthService): void {
  // Polled by load balancers: answered before Fastify's pipeline, as the route below would answer.
  app.quickAnswers.add('/api', {
    headers: ['cache-control', 'no-store'],
    body: () => {
      const report = health.reportIfFresh();
      return report && JSON.stringify(report);
    },
  });
  app.get(
    '/api',
    {
      config: { access: access.status },
      schema: {
        summary: 'Service status and version',
        description:
          'Health report: 200 while the service runs (overall Unhealthy when the database check fails or takes over its time-out), 404 while it is shut down or switched off.',
        tags: ['status'],
        response: { 200: HealthReportSchema, 404: errorRef },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return health.report();
    },
  );
}
