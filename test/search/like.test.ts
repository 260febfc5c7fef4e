// The evaluator's LIKE (src/search/like.ts) against the database's own, on texts and patterns drawn
// from a seed out of a few characters: wildcards, the escape character, a letter with a
// diacritic and one outside the Basic Multilingual Plane ('_' takes one character, not one UTF-16
// unit). Every answer must be the database's.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { like, likePattern } from '../../src/search/like.ts';
import { createTestDb, ENGINE, type TestDb } from '../helpers/db.ts';
import { seeded } from '../helpers/search-queries.ts';

const CHARACTERS = ['a', 'b', ' ', '_', '%', '\\', 'é', '\u{1F600}'];

/** Ends in an escape character that escapes nothing. */
const endsInEscape = (pattern: string) => /(^|[^\\])(\\\\)*\\$/.test(pattern);

/** A text the pattern matches: '%' as `some()`, '_' as one character of it (or 'a'), an escaped character as itself. */
function fitting(pattern: string, some: () => string): string {
  const chars = Array.from(pattern);
  let text = '';
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === '\\') text += chars[++i] ?? '';
    else if (c === '%') text += some();
    else if (c === '_') text += Array.from(some())[0] ?? 'a';
    else text += c;
  }
  return text;
}

describe(`LIKE in Node answers as the database's, on ${ENGINE}`, () => {
  let t: TestDb;
  before(async () => {
    t = await createTestDb();
  });
  after(() => t.drop());

  it('on 3,000 seeded texts and patterns', async () => {
    const random = seeded(7);
    const draw = (most: number) =>
      Array.from({ length: Math.floor(random() * (most + 1)) }, () => CHARACTERS[Math.floor(random() * CHARACTERS.length)]!).join('');
    const pairs: [string, string][] = [];
    while (pairs.length < 3000) {
      const pattern = draw(5);
      if (endsInEscape(pattern)) continue;
      // Half the texts are made to fit the pattern (a fifth of them then lose their first character), half drawn at random.
      const text = random() < 0.5 ? fitting(pattern, () => draw(2)) : draw(6);
      pairs.push([random() < 0.2 ? Array.from(text).slice(1).join('') : text, pattern]);
    }
    const rows = await t.db.query<{ matched: boolean }>(
      'select x.t like x.p as matched from unnest($1::text[], $2::text[]) with ordinality as x(t, p, n) order by x.n',
      [pairs.map(([text]) => text), pairs.map(([, pattern]) => pattern)],
    );
    const differ = pairs.filter(([text, pattern], i) => like(text, likePattern(pattern)) !== rows[i]!.matched);
    assert.deepEqual(differ, []);
    const matched = rows.filter((r) => r.matched).length;
    assert.ok(matched > 1000 && matched < 2500, `${matched} of 3000 match: too few or too many to show anything`);
  });

  it('refuses a pattern ending in its escape character, which the database refuses when its match reaches it', async () => {
    // The database's match stops at the first character that differs ('a' LIKE 'a\' is false), and
    // refuses the pattern only when it gets to the escape character. The evaluator's patterns end
    // in '%' (or are compared with =), so never end in one.
    await assert.rejects(t.db.query(`select 'ab' like $1`, ['a\\']), /escape character/);
    assert.throws(() => likePattern('a\\'), /escape character/);
    assert.equal(like('a\\', likePattern('a\\\\')), true);
  });
});
