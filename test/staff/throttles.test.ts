// The sign-in throttles under real concurrency: bursts of parallel guesses (passwords, TOTP codes, current
// passwords) are counted before the hashing, so at most the limit of them is ever checked; an address's
// failures over many accounts slow it down rather than shut it out, and a browser that signed in before
// is not slowed by them; made-up e-mailed tokens cost no hash and are limited per address; owners see and
// lift a lock and reset a member's two-factor.
//
// The hash functions are wrapped (not replaced) to count what the service really hashes and how many
// hashes run at once: proof that a burst truly overlapped in the expensive phase.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, PUBLIC_URL, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { addUser, as, PASSWORD, sessionCookie, signIn, userSession, type Session } from './fixtures.js';
import { insertToken } from '../../src/staff/users/store.js';
import { newTotpEnrolment } from '../../src/staff/users/totp.js';
import type { UnixMillis } from '../../src/lib/clock.js';

const hashing = vi.hoisted(() => ({ verified: [] as string[], hashed: 0, codes: 0, inFlight: 0, maxInFlight: 0 }));

vi.mock('../../src/staff/users/passwords.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/staff/users/passwords.js')>();
  const timed = async <T>(work: () => Promise<T>): Promise<T> => {
    hashing.inFlight += 1;
    hashing.maxInFlight = Math.max(hashing.maxInFlight, hashing.inFlight);
    try {
      return await work();
    } finally {
      hashing.inFlight -= 1;
    }
  };
  return {
    ...real,
    verifyPassword: (password: string, stored: string) => {
      hashing.verified.push(stored);
      return timed(() => real.verifyPassword(password, stored));
    },
    spendDecoyHash: (password: string) => timed(() => real.spendDecoyHash(password)),
    hashPassword: (password: string) => {
      hashing.hashed += 1;
      return timed(() => real.hashPassword(password));
    },
  };
});

vi.mock('../../src/staff/users/totp.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/staff/users/totp.js')>();
  return {
    ...real,
    matchTotp: (...args: Parameters<typeof real.matchTotp>) => {
      hashing.codes += 1;
      return real.matchTotp(...args);
    },
  };
});

// Dozens of scrypt hashes per test, on a machine that may be busy with other work.
const SLOW = 240_000;

let t: TestApp;
let op: TestOperator;
let owner: Session;

beforeAll(async () => {
  t = await createTestApp();
  op = await t.newOperator('Spree Kayaks');
  owner = await userSession(t, op.operatorId, 'owner');
}, SLOW);
afterAll(() => t.close());

function resetCounts() {
  Object.assign(hashing, { verified: [], hashed: 0, codes: 0, inFlight: 0, maxInFlight: 0 });
}

const send = (ip: string, url: string, body: object, cookie?: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v2/staff${url}`,
    payload: body,
    remoteAddress: ip,
    headers: { origin: PUBLIC_URL, ...(cookie && { cookie }) },
  });
const statuses = (responses: LightMyRequestResponse[]) => [...new Set(responses.map((r) => r.statusCode))].sort();
const parallel = <T>(n: number, fn: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => fn(i)));

async function storedHash(userId: number): Promise<string> {
  return (await t.db.kysely.selectFrom('staff_users').select('password_hash').where('id', '=', userId).executeTakeFirstOrThrow()).password_hash!;
}

async function actions(userId: number): Promise<string[]> {
  const rows = await t.db.kysely
    .selectFrom('audit_log')
    .select('action')
    .where('resource_type', '=', 'user')
    .where('resource_id', '=', String(userId))
    .orderBy('id')
    .execute();
  return rows.map((row) => row.action);
}
const countOf = (list: string[], action: string) => list.filter((a) => a === action).length;

describe('bursts of parallel guesses', { timeout: SLOW }, () => {
  it('40 parallel wrong passwords for one account from one address: at most 5 are checked, the account locks, the rest are refused', async () => {
    const user = await addUser(t, op.operatorId, 'manager');
    const stored = await storedHash(user.id);
    resetCounts();
    const burst = await parallel(40, (i) => send('10.20.0.1', '/sign-in', { Email: user.email, Password: `wrong guess number ${i}` }));
    expect(
      statuses(burst),
      burst.map((r) => r.body).find((body) => !/unauthenticated|rate-limited/.test(body)),
    ).toEqual([401, 429]);
    // The burst overlapped in the hashing: more hashes ran at once than the account allows guesses.
    expect(hashing.maxInFlight).toBeGreaterThan(5);
    expect(hashing.verified.filter((hash) => hash === stored).length).toBeLessThanOrEqual(5);
    const log = await actions(user.id);
    expect(countOf(log, 'session.sign-in-failed')).toBeLessThanOrEqual(5);
    expect(countOf(log, 'user.lock')).toBe(1);
    // Locked: the right password from another address is refused too.
    problemOf(await send('10.20.0.2', '/sign-in', { Email: user.email, Password: PASSWORD }), 401, 'unauthenticated');
  });

  it('60 parallel wrong TOTP codes: at most 5 are checked, then even the right code is refused', async () => {
    const user = await addUser(t, op.operatorId, 'front-desk');
    const enrolment = newTotpEnrolment(t.app.instanceKeys, user.email, 'Spree Kayaks');
    await t.db.kysely.updateTable('staff_users').set({ totp_secret: enrolment.sealed }).where('id', '=', user.id).execute();
    const app = new TOTP({ secret: Secret.fromBase32(enrolment.secret) });
    const first = await send('10.21.0.1', '/sign-in', { Email: user.email, Password: PASSWORD });
    expect(first.json().data.Status).toBe('totp-required');
    const challenge = first.json().data.Challenge;
    const wrong = app.generate() === '123456' ? '654321' : '123456';
    resetCounts();
    const burst = await parallel(60, () => send('10.21.0.1', '/sign-in/totp', { Challenge: challenge, Code: wrong }));
    expect(statuses(burst)).toEqual([401]);
    expect(hashing.codes).toBeLessThanOrEqual(5);
    expect(countOf(await actions(user.id), 'user.lock')).toBe(1);
    problemOf(await send('10.21.0.1', '/sign-in/totp', { Challenge: challenge, Code: app.generate() }), 401, 'unauthenticated');
  });

  it('a right password between wrong codes does not start their count again: 5 wrong codes in a row lock the account', async () => {
    const user = await addUser(t, op.operatorId, 'manager');
    const enrolment = newTotpEnrolment(t.app.instanceKeys, user.email, 'Spree Kayaks');
    await t.db.kysely.updateTable('staff_users').set({ totp_secret: enrolment.sealed }).where('id', '=', user.id).execute();
    const wrong = new TOTP({ secret: Secret.fromBase32(enrolment.secret) }).generate() === '123456' ? '654321' : '123456';
    for (const codes of [3, 2]) {
      const first = await send('10.23.0.1', '/sign-in', { Email: user.email, Password: PASSWORD });
      expect(first.json().data.Status).toBe('totp-required');
      for (let i = 0; i < codes; i++)
        problemOf(await send('10.23.0.1', '/sign-in/totp', { Challenge: first.json().data.Challenge, Code: wrong }), 401, 'unauthenticated');
    }
    expect(countOf(await actions(user.id), 'user.lock')).toBe(1);
    problemOf(await send('10.23.0.1', '/sign-in', { Email: user.email, Password: PASSWORD }), 401, 'unauthenticated');
  });

  it('20 parallel wrong current passwords (password change, two-factor off): at most 5 are checked, then the account locks', async () => {
    const user = await addUser(t, op.operatorId, 'guide');
    const session = await signIn(t, user.email);
    const stored = await storedHash(user.id);
    resetCounts();
    const burst = await parallel(20, (i) =>
      i % 2 === 0
        ? as(t, session, 'POST', '/api/v2/staff/me/password', { CurrentPassword: `not it ${i}`, NewPassword: 'another long pass phrase' })
        : as(t, session, 'POST', '/api/v2/staff/me/totp/disable', { Password: `not it ${i}` }),
    );
    expect(statuses(burst).every((s) => s === 422 || s === 429)).toBe(true);
    expect(hashing.verified.filter((hash) => hash === stored).length).toBeLessThanOrEqual(5);
    expect(countOf(await actions(user.id), 'user.lock')).toBe(1);
    // While locked, the right current password is refused (429, with when to come back), and so is a sign-in.
    const locked = await as(t, session, 'POST', '/api/v2/staff/me/password', { CurrentPassword: PASSWORD, NewPassword: 'another long pass phrase' });
    problemOf(locked, 429, 'rate-limited');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(60);
    problemOf(await send('10.22.0.2', '/sign-in', { Email: user.email, Password: PASSWORD }), 401, 'unauthenticated');
  });
});

describe('an office behind one address', { timeout: SLOW }, () => {
  it('failures spread over many accounts slow the address down with a short Retry-After that grows, never a 15-minute shut-out', async () => {
    const ip = '10.30.0.1';
    const failed = await parallel(20, (i) => send(ip, '/sign-in', { Email: `typo-${i}@example.com`, Password: 'not the password' }));
    expect(statuses(failed)).toEqual([401]);
    const first = await send(ip, '/sign-in', { Email: 'typo@example.com', Password: 'not the password' });
    problemOf(first, 429, 'rate-limited');
    const firstWait = Number(first.headers['retry-after']);
    expect(firstWait).toBeGreaterThan(0);
    expect(firstWait).toBeLessThanOrEqual(60);
    // The wait passes (the clock is moved by rewriting the address's last failure): one more try, then a longer wait.
    await t.db.kysely
      .updateTable('staff_throttles')
      .set({ last_at: sql<UnixMillis>`last_at - ${firstWait * 1000}` })
      .where('key', '=', `failures:${ip}`)
      .execute();
    problemOf(await send(ip, '/sign-in', { Email: 'typo@example.com', Password: 'not the password' }), 401, 'unauthenticated');
    const second = await send(ip, '/sign-in', { Email: 'typo@example.com', Password: 'not the password' });
    problemOf(second, 429, 'rate-limited');
    expect(Number(second.headers['retry-after'])).toBeGreaterThan(firstWait);
    expect(Number(second.headers['retry-after'])).toBeLessThan(15 * 60);
  });

  it('a browser that signed in to an account before keeps signing in to it while its address is slowed down', async () => {
    const ip = '10.31.0.1';
    const user = await addUser(t, op.operatorId, 'front-desk');
    const other = await addUser(t, op.operatorId, 'front-desk');
    const before = await send(ip, '/sign-in', { Email: user.email, Password: PASSWORD });
    expect(before.statusCode).toBe(200);
    const device = [before.headers['set-cookie']].flat().find((c) => c?.startsWith('slotbook_device='));
    expect(device).toMatch(/HttpOnly/);
    expect(device).toMatch(/SameSite=Strict/);
    const deviceCookie = device!.split(';')[0]!;
    await parallel(20, (i) => send(ip, '/sign-in', { Email: `someone-${i}@example.com`, Password: 'not the password' }));
    problemOf(await send(ip, '/sign-in', { Email: user.email, Password: PASSWORD }), 429, 'rate-limited');
    // The browser that signed in as this user before: straight in.
    const known = await send(ip, '/sign-in', { Email: user.email, Password: PASSWORD }, deviceCookie);
    expect(known.statusCode, known.body).toBe(200);
    sessionCookie(known);
    // Only for that account, and only with the cookie the service signed.
    problemOf(await send(ip, '/sign-in', { Email: other.email, Password: PASSWORD }, deviceCookie), 429, 'rate-limited');
    const forged = deviceCookie.replace(/=.*/, `=${randomBytes(12).toString('base64url')}.${other.id}-${'0'.repeat(32)}`);
    problemOf(await send(ip, '/sign-in', { Email: other.email, Password: PASSWORD }, forged), 429, 'rate-limited');
  });
});

describe('e-mailed tokens', { timeout: SLOW }, () => {
  it('made-up reset and invitation tokens are refused without hashing the new password; an address that keeps trying gets 429; a real link still works', async () => {
    const ip = '10.40.0.1';
    const bogus = () => randomBytes(32).toString('base64url');
    resetCounts();
    problemOf(await send(ip, '/password-reset/complete', { Token: bogus(), Password: 'a long enough pass phrase' }), 401, 'unauthenticated');
    problemOf(await send(ip, '/invitations/accept', { Token: bogus(), Password: 'a long enough pass phrase' }), 401, 'unauthenticated');
    const more = await parallel(18, (i) =>
      send(ip, i % 2 ? '/password-reset/complete' : '/invitations/accept', { Token: bogus(), Password: 'a long enough pass phrase' }),
    );
    expect(statuses(more)).toEqual([401]);
    const limited = await send(ip, '/password-reset/complete', { Token: bogus(), Password: 'a long enough pass phrase' });
    problemOf(limited, 429, 'rate-limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    problemOf(await send(ip, '/sign-in/link/use', { Token: bogus() }), 429, 'rate-limited');
    expect(hashing.hashed).toBe(0);
    // A real reset link from the same address: it proves the mailbox, so it is not held up.
    const user = await addUser(t, op.operatorId, 'guide');
    const row = await t.db.kysely.selectFrom('staff_users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    const token = await t.db.write((tx) => insertToken(tx, row, 'password-reset', 60_000));
    resetCounts();
    const reset = await send(ip, '/password-reset/complete', { Token: token, Password: 'a brand new pass phrase' });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(hashing.hashed).toBe(1);
  });

  it('30 parallel link requests from one address: 10 are taken, the rest get 429', async () => {
    const burst = await parallel(30, (i) => send('10.41.0.1', '/sign-in/link', { Email: `someone-${i}@example.com` }));
    expect(burst.filter((r) => r.statusCode === 202)).toHaveLength(10);
    expect(burst.filter((r) => r.statusCode === 429)).toHaveLength(20);
  });
});

describe('owners: locked accounts and two-factor', { timeout: SLOW }, () => {
  it('the users list tells until when an account is locked; an owner lifts the lock (audited) and the user signs in again', async () => {
    const user = await addUser(t, op.operatorId, 'manager');
    for (let i = 0; i < 5; i++) problemOf(await send('10.50.0.1', '/sign-in', { Email: user.email, Password: `wrong ${i}` }), 401, 'unauthenticated');
    const listed = (await as(t, owner, 'GET', '/api/v2/admin/users')).json().data.find((u: { ID: number }) => u.ID === user.id);
    expect(listed.Status).toBe('active');
    expect(Date.parse(listed.LockedUntil)).toBeGreaterThan(Date.now() + 14 * 60_000);
    const unlocked = await as(t, owner, 'POST', `/api/v2/admin/users/${user.id}/unlock`);
    expect(unlocked.statusCode, unlocked.body).toBe(200);
    expect(unlocked.json().data.LockedUntil).toBeNull();
    expect((await actions(user.id)).at(-1)).toBe('user.unlock');
    expect((await send('10.50.0.2', '/sign-in', { Email: user.email, Password: PASSWORD })).statusCode).toBe(200);
    // Other roles may not; another operator's user is a 404.
    const manager = await userSession(t, op.operatorId, 'manager');
    problemOf(await as(t, manager, 'POST', `/api/v2/admin/users/${user.id}/unlock`), 403, 'forbidden');
    const stranger = await t.newOperator();
    const theirs = await addUser(t, stranger.operatorId, 'guide');
    problemOf(await as(t, owner, 'POST', `/api/v2/admin/users/${theirs.id}/unlock`), 404, 'not-found');
  });

  it("turning two-factor on needs the password; an owner resets a member's two-factor (audited), who then signs in with the password alone", async () => {
    const user = await addUser(t, op.operatorId, 'front-desk');
    const session = await signIn(t, user.email);
    problemOf(await as(t, session, 'POST', '/api/v2/staff/me/totp', {}), 422, 'validation');
    problemOf(await as(t, session, 'POST', '/api/v2/staff/me/totp', { Password: 'not my password' }), 422, 'validation');
    const enrolment = await as(t, session, 'POST', '/api/v2/staff/me/totp', { Password: PASSWORD });
    expect(enrolment.statusCode, enrolment.body).toBe(200);
    const app = new TOTP({ secret: Secret.fromBase32(enrolment.json().data.Secret) });
    expect((await as(t, session, 'POST', '/api/v2/staff/me/totp/confirm', { Code: app.generate() })).statusCode).toBe(200);
    expect((await send('10.60.0.1', '/sign-in', { Email: user.email, Password: PASSWORD })).json().data.Status).toBe('totp-required');

    const reset = await as(t, owner, 'DELETE', `/api/v2/admin/users/${user.id}/totp`);
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json().data.TwoFactor).toBe(false);
    expect((await actions(user.id)).at(-1)).toBe('user.totp-reset');
    expect((await send('10.60.0.1', '/sign-in', { Email: user.email, Password: PASSWORD })).json().data.Status).toBe('signed-in');
  });
});
