// The catalogue's sessions on a real database, with a clock the test moves: a session lives until
// it is idle for the idle time-out or as old as the absolute one, then reading it deletes it;
// signing in validates the PIN through the patron service and always gives a new id; the table
// keeps only a hash of the id; the sweep deletes ended sessions and keeps live ones; a visitor's
// sign-in token is matched against its cookie, with nothing stored.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import { PatronSessionService, touchEverySec } from '../../src/patron-sessions/service.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { refusal } from '../helpers/domain-error.ts';

const IDLE = 600;
const ABSOLUTE = 3600;

describe(`catalogue sessions on ${ENGINE}`, () => {
  let t: TestApp;
  let sessions: PatronSessionService;
  let now: Date;
  let patron: string;
  const later = (seconds: number) => (now = new Date(now.getTime() + seconds * 1000));
  const signIn = () => sessions.signIn(undefined, 'S-1', 'Rita-pin-1234', 'test');
  const rows = async () => (await t.testDb.db.query<{ n: number }>('select count(*)::int as n from catalog_sessions'))[0]!.n;

  before(async () => {
    t = await createTestApp();
    patron = await t.services.patrons.create({ names: ['Reader, Rita'], barcodes: ['S-1'], pin: 'Rita-pin-1234' });
    sessions = new PatronSessionService(t.testDb.db, { idleSec: IDLE, absoluteSec: ABSOLUTE }, t.services.patrons, () => now);
  });
  beforeEach(async () => {
    now = new Date('2026-11-02T10:00:00Z');
    await t.testDb.db.query('delete from catalog_sessions');
  });
  after(() => t.close());

  it('keeps only the hash of the id, and reads a session back by its id alone', async () => {
    const visitor = await signIn();
    assert.match(visitor.id, /^[\w-]{43}$/);
    const [row] = await t.testDb.db.query<{ id_hash: Buffer; patron_id: string }>('select id_hash, patron_id::text from catalog_sessions');
    assert.deepEqual(Buffer.from(row!.id_hash), crypto.createHash('sha256').update(visitor.id).digest());
    assert.equal(row!.patron_id, patron);
    assert.deepEqual(await sessions.read(visitor.id), visitor);
    const other = visitor.id.slice(0, -1) + (visitor.id.endsWith('A') ? 'B' : 'A');
    assert.equal(await sessions.read(other), undefined, 'another id of the same form');
    assert.equal(await sessions.read('not an id'), undefined);
    assert.equal(await sessions.read(undefined), undefined);
  });

  it('signs in through PIN validation with a new id, deleting the session before', async () => {
    const wrong = await refusal(sessions.signIn(undefined, 'S-1', 'Wrong-pin-0000', 'test'));
    assert.equal(wrong.kind, 'invalidParameter');
    assert.equal(await rows(), 0, 'a refused sign-in stores nothing');
    const visitor = await signIn();
    assert.equal((await refusal(sessions.signIn(visitor, 'S-1', 'Wrong-pin-0000', 'test'))).kind, 'invalidParameter');
    assert.ok(await sessions.read(visitor.id), 'a refused sign-in keeps the session before');
    const signedIn = await sessions.signIn(visitor, 'S-1', 'Rita-pin-1234', 'test');
    assert.equal(signedIn.patronId, patron);
    assert.notEqual(signedIn.id, visitor.id);
    assert.notEqual(signedIn.csrfToken, visitor.csrfToken);
    assert.equal(await sessions.read(visitor.id), undefined, 'the id before signs no one in');
    assert.equal((await sessions.read(signedIn.id))?.patronId, patron);
    assert.equal(await rows(), 1);
    await sessions.signOut(signedIn);
    assert.equal(await sessions.read(signedIn.id), undefined);
    assert.equal(await rows(), 0);
  });

  it('matches only the session’s own CSRF token', async () => {
    const a = await signIn();
    const b = await signIn();
    assert.equal(sessions.csrfMatches(a, a.csrfToken), true);
    assert.equal(sessions.csrfMatches(a, b.csrfToken), false);
    assert.equal(sessions.csrfMatches(a, ''), false);
    assert.equal(sessions.csrfMatches(a, undefined), false);
    assert.equal(sessions.csrfMatches(a, [a.csrfToken]), false);
    assert.equal(sessions.csrfMatches(undefined, a.csrfToken), false);
  });

  it('matches a visitor’s form token to its cookie’s, storing nothing', async () => {
    const token = sessions.visitorToken();
    assert.match(token, /^[\w-]{43}$/);
    assert.notEqual(sessions.visitorToken(), token, 'random');
    assert.equal(sessions.visitorMatches(token, token), true);
    assert.equal(sessions.visitorMatches(token, sessions.visitorToken()), false);
    assert.equal(sessions.visitorMatches(undefined, token), false, 'no cookie');
    assert.equal(sessions.visitorMatches('', ''), false, 'an empty cookie and field');
    assert.equal(sessions.visitorMatches('x', 'x'), false, 'a cookie not of the token’s form');
    assert.equal(sessions.visitorMatches(token, [token]), false);
    assert.equal(await rows(), 0);
  });

  it('ends a session idle for the idle time-out, and deletes it when read', async () => {
    const s = await signIn();
    later(IDLE - 1);
    assert.ok(await sessions.read(s.id), 'used just before the time-out');
    later(IDLE - 1);
    assert.ok(await sessions.read(s.id), 'each use moves the time-out');
    later(IDLE);
    assert.equal(await sessions.read(s.id), undefined);
    assert.equal(await rows(), 0);
  });

  it('writes a session’s last use only when older than the touch interval, and counts idleness from it', async () => {
    const every = touchEverySec({ idleSec: IDLE, absoluteSec: ABSOLUTE });
    assert.equal(every, 60);
    const lastSeen = async () => (await t.testDb.db.query<{ at: string }>('select last_seen::text as at from catalog_sessions'))[0]!.at;
    const s = await signIn();
    const begun = await lastSeen();
    later(every - 1);
    assert.ok(await sessions.read(s.id));
    assert.equal(await lastSeen(), begun, 'seen a moment after it was written: nothing written');
    later(2);
    assert.ok(await sessions.read(s.id));
    const moved = await lastSeen();
    assert.notEqual(moved, begun, 'older than the interval: written');
    // Used again within the interval (not written), then idle: the time-out counts from the use written.
    later(every / 2);
    assert.ok(await sessions.read(s.id));
    assert.equal(await lastSeen(), moved);
    later(IDLE - every / 2);
    assert.equal(await sessions.read(s.id), undefined, 'ended an idle time-out after the last use written');
  });

  it('ends a busy session at the absolute time-out', async () => {
    const s = await signIn();
    for (let used = 0; used + IDLE / 2 < ABSOLUTE; used += IDLE / 2) {
      later(IDLE / 2);
      assert.ok(await sessions.read(s.id), `at ${used + IDLE / 2} s`);
    }
    later(IDLE / 2);
    assert.equal(await sessions.read(s.id), undefined);
    assert.equal(await rows(), 0);
  });

  it('sweeps the sessions that ended and keeps the live ones', async () => {
    const old = await signIn();
    for (let i = 0; i < 10; i++) {
      later(IDLE / 2);
      assert.ok(await sessions.read(old.id), 'kept busy');
    }
    const idle = await signIn();
    later(IDLE / 2);
    assert.ok(await sessions.read(old.id), 'old, but not yet at the absolute time-out');
    const live = await signIn();
    later(IDLE / 2 + 1);
    assert.equal(await sessions.sweep(), 2, 'the one past the absolute time-out and the idle one');
    assert.ok(await sessions.read(live.id));
    assert.equal(await sessions.read(idle.id), undefined);
    assert.equal(await rows(), 1);
  });
});
