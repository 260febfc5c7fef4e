// GET and PUT /library/profile, and POST /library/profile/plan: the library's profile over REST,
// the same document `carrel profile export` writes and `carrel profile apply` reads.
import { Type } from 'typebox';
import { access } from '../http/access.ts';
import type { App } from '../http/types.ts';
import { checkProfile, profileDocument, ProfileSchema } from './profile.ts';
import type { LibraryService } from './service.ts';

const sec = { tags: ['library'] };

const PlanAnswer = Type.Object({
  changes: Type.Array(
    Type.Object({
      action: Type.Union([Type.Literal('add'), Type.Literal('change'), Type.Literal('remove')]),
      kind: Type.String({ description: 'settings, patronType, itemType, branch, location or rule' }),
      key: Type.String(),
      fields: Type.Optional(Type.Record(Type.String(), Type.Object({ from: Type.Unknown(), to: Type.Unknown() }))),
    }),
  ),
});

export function libraryRoutes(app: App, library: LibraryService): void {
  app.get(
    '/library/profile',
    {
      config: { access: access.need('Branches_Read') },
      schema: {
        summary: "The library's profile",
        description: 'Branches and locations, item and patron types, the circulation rules matrix, hold rules, blocks and time zone.',
        ...sec,
        response: { 200: ProfileSchema },
      },
    },
    async () => profileDocument(await library.profile()),
  );

  app.put(
    '/library/profile',
    {
      config: { access: access.need('Admin_Write') },
      schema: {
        summary: 'Make the library what the profile says (one transaction); POST /library/profile/plan says what that changes',
        description:
          'A removal that would leave records naming a code that is gone (a location still holding items) is refused, and nothing changes.',
        ...sec,
        body: ProfileSchema,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await library.apply(checkProfile(request.body));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/library/profile/plan',
    {
      config: { access: access.need('Admin_Write') },
      schema: {
        summary: 'What applying this profile would change (nothing is written)',
        ...sec,
        body: ProfileSchema,
        response: { 200: PlanAnswer },
      },
    },
    async (request) => ({ changes: (await library.apply(checkProfile(request.body), { dryRun: true })).changes }),
  );
}
