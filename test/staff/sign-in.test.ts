// Signing in by password, e-mailed link and TOTP; lock-out and throttles; invitations and password resets.
// E-mails go through the outbox and the worker to a real SMTP server (test/emails/smtp.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import { createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { startSmtp, type TestSmtp } from '../emails/smtp.js';
import { deliveryFor } from '../emails/fixtures.js';
import { runDueEmails } from '../../src/emails/worker.js';
import { addUser, as, post, sessionCookie, signIn, tokenIn, userSession, PASSWORD } from './fixtures.js';
import { ADDRESS_FAILURES } from '../../src/staff/sign-in/throttles.js';
import { addMillis, nowMillis } from '../../src/lib/clock.js';

let t: TestApp;
let smtp: TestSmtp;
let op: TestOperator;

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ SMTP_URL: smtp.url });
  op = await t.newOperator('Spree Kayaks');
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

/** Runs the e-mail worker once and answers the messages the SMTP server received for `to`. */
async function mailFor(to: string) {
  await runDueEmails(t.db, deliveryFor(t));
  return smtp.messages.filter((message) => message.to.includes(to));
}

const signInFrom = (ip: string, body: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/v2/staff/sign-in', payload: body as object, remoteAddress: ip });

describe('lock-out and throttles', () => {
  it('locks an account after 5 wrong passwords for 15 minutes, says nothing an unknown address would not, and tells the owner', async () => {
    const user = await addUser(t, op.operatorId, 'manager');
    const ip = '10.1.0.1';
    const unknown = await signInFrom(ip, { Email: 'nobody@example.com', Password: 'whatever-it-is' });
    const detail = problemOf(unknown, 401, 'unauthenticated').detail;
    for (let i = 0; i < 5; i++)
      expect(problemOf(await signInFrom(ip, { Email: user.email, Password: `wrong password ${i}` }), 401, 'unauthenticated').detail).toBe(detail);
    // Locked: the right password is refused with the same answer.
    expect(problemOf(await signInFrom(ip, { Email: user.email, Password: PASSWORD }), 401, 'unauthenticated').detail).toBe(detail);
    const [notice] = await mailFor(user.email);
    expect(notice!.subject).toMatch(/locked for 15 minutes/);
    // After the lock: as before (the clock is moved by rewriting the lock's end).
    await t.db.kysely
      .updateTable('staff_users')
      .set({ locked_until: addMillis(nowMillis(), -1) })
      .where('id', '=', user.id)
      .execute();
    expect((await signInFrom(ip, { Email: user.email, Password: PASSWORD })).statusCode).toBe(200);
  });

  // 21 scrypt hashes one after the other: over 30 s when other test files share the machine.
  it('answers 429 with Retry-After after 20 failures from one address, before hashing anything', { timeout: 120_000 }, async () => {
    const ip = '10.2.0.1';
    for (let i = 0; i < ADDRESS_FAILURES.limit; i++)
      problemOf(await signInFrom(ip, { Email: `x${i}@example.com`, Password: 'not the password' }), 401, 'unauthenticated');
    const limited = await signInFrom(ip, { Email: 'x@example.com', Password: 'not the password' });
    problemOf(limited, 429, 'rate-limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected.
    const user = await addUser(t, op.operatorId, 'guide');
    expect((await signInFrom('10.2.0.2', { Email: user.email, Password: PASSWORD })).statusCode).toBe(200);
  });
});

describe('e-mailed links through SMTP', () => {
  it('invites a user: the e-mail links to a page that sets the password and signs in; the link works once', async () => {
    const owner = await userSession(t, op.operatorId, 'owner');
    const invited = await as(t, owner, 'POST', '/api/v2/admin/users', { Email: 'Maria@Example.com', Name: 'Maria', Role: 'front-desk' });
    expect(invited.statusCode, invited.body).toBe(201);
    expect(invited.json().data).toMatchObject({ Email: 'maria@example.com', Role: 'front-desk', Status: 'invited' });
    problemOf(await as(t, owner, 'POST', '/api/v2/admin/users', { Email: 'maria@example.com', Name: 'Maria', Role: 'guide' }), 409, 'conflict');

    const [mail] = await mailFor('maria@example.com');
    expect(mail!.subject).toBe('You are invited to the Spree Kayaks dashboard');
    expect(mail!.text).toContain(`${t.app.config.publicUrl}/accept-invitation#token=`);
    // The outbox shows the e-mail but never its link.
    const outbox = await as(t, owner, 'GET', '/api/v2/admin/emails');
    const listed = outbox.json().data.find((e: { To: string }) => e.To === 'maria@example.com');
    expect(listed).toMatchObject({ Kind: 'staff', Status: 'sent' });
    expect(listed.Body).not.toContain('token');

    const token = tokenIn(mail!.text);
    problemOf(await post(t, '/api/v2/staff/invitations/accept', { Token: token, Password: 'short' }), 422, 'validation');
    const accepted = await post(t, '/api/v2/staff/invitations/accept', { Token: token, Password: 'a long enough pass phrase' });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().data.Me.User).toMatchObject({ Email: 'maria@example.com', Status: 'active' });
    expect((await t.app.inject({ method: 'GET', url: '/api/v2/admin/bookings', headers: { cookie: sessionCookie(accepted) } })).statusCode).toBe(200);
    problemOf(await post(t, '/api/v2/staff/invitations/accept', { Token: token, Password: 'a long enough pass phrase' }), 401, 'unauthenticated');
    expect((await post(t, '/api/v2/staff/sign-in', { Email: 'maria@example.com', Password: 'a long enough pass phrase' })).statusCode).toBe(200);
  });

  it('resets a password by e-mail: every old session ends, the old password stops working', async () => {
    const user = await addUser(t, op.operatorId, 'manager');
    const before = await signIn(t, user.email);
    expect((await post(t, '/api/v2/staff/password-reset', { Email: user.email })).statusCode).toBe(202);
    // An unknown address gets the same answer, and no e-mail.
    expect((await post(t, '/api/v2/staff/password-reset', { Email: 'ghost@example.com' })).statusCode).toBe(202);
    const [mail] = await mailFor(user.email);
    expect(mail!.subject).toBe('Reset your Spree Kayaks password');
    expect(await mailFor('ghost@example.com')).toEqual([]);

    const reset = await post(t, '/api/v2/staff/password-reset/complete', { Token: tokenIn(mail!.text), Password: 'a brand new pass phrase' });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json().data.Status).toBe('signed-in');
    problemOf(await as(t, before, 'GET', '/api/v2/staff/me'), 401, 'unauthenticated');
    problemOf(await post(t, '/api/v2/staff/sign-in', { Email: user.email, Password: PASSWORD }), 401, 'unauthenticated');
    expect((await post(t, '/api/v2/staff/sign-in', { Email: user.email, Password: 'a brand new pass phrase' })).statusCode).toBe(200);
  });

  it('signs in with an e-mailed link, once; an address asking too often gets no more e-mails', async () => {
    const user = await addUser(t, op.operatorId, 'guide');
    expect((await post(t, '/api/v2/staff/sign-in/link', { Email: user.email })).statusCode).toBe(202);
    const [mail] = await mailFor(user.email);
    expect(mail!.text).toContain('/sign-in/link#token=');
    const used = await post(t, '/api/v2/staff/sign-in/link/use', { Token: tokenIn(mail!.text) });
    expect(used.statusCode).toBe(200);
    expect(used.json().data.Me.User.Email).toBe(user.email);
    problemOf(await post(t, '/api/v2/staff/sign-in/link/use', { Token: tokenIn(mail!.text) }), 401, 'unauthenticated');

    for (let i = 0; i < 5; i++) expect((await post(t, '/api/v2/staff/sign-in/link', { Email: user.email })).statusCode).toBe(202);
    expect(await mailFor(user.email)).toHaveLength(3); // the first, and 2 more within the hour's 3
  });

  it('asks which operator when one address has accounts with several and the password fits both', async () => {
    const other = await t.newOperator('Tokyo Pottery');
    await addUser(t, op.operatorId, 'guide', 'shared@example.com');
    await addUser(t, other.operatorId, 'owner', 'shared@example.com');
    const first = await post(t, '/api/v2/staff/sign-in', { Email: 'shared@example.com', Password: PASSWORD });
    expect(first.json().data).toMatchObject({ Status: 'choose-operator' });
    expect(
      first
        .json()
        .data.Operators.map((o: { Name: string }) => o.Name)
        .sort(),
    ).toEqual(['Spree Kayaks', 'Tokyo Pottery']);
    expect(first.headers['set-cookie']).toBeUndefined();
    const chosen = await post(t, '/api/v2/staff/sign-in', { Email: 'shared@example.com', Password: PASSWORD, OperatorID: other.operatorId });
    expect(chosen.json().data.Me).toMatchObject({ Operator: { Name: 'Tokyo Pottery' }, User: { Role: 'owner' } });
  });
});

describe('two-factor authentication (TOTP)', () => {
  it("enrols with the app's secret, then asks for a code at sign-in; codes are not replayed; recovery codes work once", async () => {
    const user = await addUser(t, op.operatorId, 'owner');
    const session = await signIn(t, user.email);
    const enrolment = await as(t, session, 'POST', '/api/v2/staff/me/totp', { Password: PASSWORD });
    expect(enrolment.statusCode, enrolment.body).toBe(200);
    const { Secret: secret, Uri, QrSvg } = enrolment.json().data;
    expect(Uri).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    expect(QrSvg).toMatch(/^<svg/);
    const app = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
    problemOf(
      await as(t, session, 'POST', '/api/v2/staff/me/totp/confirm', { Code: app.generate({ timestamp: Date.now() - 10 * 60_000 }) }),
      422,
      'validation',
    );
    const confirmed = await as(t, session, 'POST', '/api/v2/staff/me/totp/confirm', { Code: app.generate({ timestamp: Date.now() - 30_000 }) });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const codes: string[] = confirmed.json().data.RecoveryCodes;
    expect(codes).toHaveLength(10);

    const first = await post(t, '/api/v2/staff/sign-in', { Email: user.email, Password: PASSWORD });
    expect(first.json().data.Status).toBe('totp-required');
    expect(first.headers['set-cookie']).toBeUndefined();
    const challenge = first.json().data.Challenge;
    problemOf(
      await post(t, '/api/v2/staff/sign-in/totp', { Challenge: challenge, Code: '000000' === app.generate() ? '111111' : '000000' }),
      401,
      'unauthenticated',
    );
    const code = app.generate();
    const second = await post(t, '/api/v2/staff/sign-in/totp', { Challenge: challenge, Code: code });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().data.Me.User.TwoFactor).toBe(true);
    sessionCookie(second);
    // The same code again (a new password step) is refused: it was used.
    const again = await post(t, '/api/v2/staff/sign-in', { Email: user.email, Password: PASSWORD });
    problemOf(await post(t, '/api/v2/staff/sign-in/totp', { Challenge: again.json().data.Challenge, Code: code }), 401, 'unauthenticated');
    // A recovery code instead, once.
    const recovered = await post(t, '/api/v2/staff/sign-in/totp', { Challenge: again.json().data.Challenge, RecoveryCode: codes[0] });
    expect(recovered.statusCode, recovered.body).toBe(200);
    const third = await post(t, '/api/v2/staff/sign-in', { Email: user.email, Password: PASSWORD });
    problemOf(
      await post(t, '/api/v2/staff/sign-in/totp', { Challenge: third.json().data.Challenge, RecoveryCode: codes[0] }),
      401,
      'unauthenticated',
    );

    // Turning it off needs the password.
    problemOf(await as(t, session, 'POST', '/api/v2/staff/me/totp/disable', { Password: 'not it' }), 422, 'validation');
    expect((await as(t, session, 'POST', '/api/v2/staff/me/totp/disable', { Password: PASSWORD })).statusCode).toBe(204);
    expect((await post(t, '/api/v2/staff/sign-in', { Email: user.email, Password: PASSWORD })).json().data.Status).toBe('signed-in');
  });

  it('a link sign-in also asks for the code; wrong codes count towards the lock-out', async () => {
    const user = await addUser(t, op.operatorId, 'manager');
    const session = await signIn(t, user.email);
    const { Secret: secret } = (await as(t, session, 'POST', '/api/v2/staff/me/totp', { Password: PASSWORD })).json().data;
    const app = new TOTP({ secret: Secret.fromBase32(secret) });
    expect((await as(t, session, 'POST', '/api/v2/staff/me/totp/confirm', { Code: app.generate() })).statusCode).toBe(200);
    await post(t, '/api/v2/staff/sign-in/link', { Email: user.email });
    const [mail] = await mailFor(user.email);
    const linked = await post(t, '/api/v2/staff/sign-in/link/use', { Token: tokenIn(mail!.text) });
    expect(linked.json().data.Status).toBe('totp-required');
    const wrong = app.generate() === '123456' ? '654321' : '123456';
    for (let i = 0; i < 5; i++)
      problemOf(await post(t, '/api/v2/staff/sign-in/totp', { Challenge: linked.json().data.Challenge, Code: wrong }), 401, 'unauthenticated');
    // Locked now: even the right code is refused.
    problemOf(
      await post(t, '/api/v2/staff/sign-in/totp', {
        Challenge: linked.json().data.Challenge,
        Code: app.generate({ timestamp: Date.now() + 30_000 }),
      }),
      401,
      'unauthenticated',
    );
  });
});

describe('my account', () => {
  it('changes my password: the old one stops working and my other sessions end, this one stays', async () => {
    const user = await addUser(t, op.operatorId, 'front-desk');
    const here = await signIn(t, user.email);
    const elsewhere = await signIn(t, user.email);
    problemOf(
      await as(t, here, 'POST', '/api/v2/staff/me/password', { CurrentPassword: 'wrong one', NewPassword: 'another long pass phrase' }),
      422,
      'validation',
    );
    problemOf(await as(t, here, 'POST', '/api/v2/staff/me/password', { CurrentPassword: PASSWORD, NewPassword: 'short' }), 422, 'validation');
    expect(
      (await as(t, here, 'POST', '/api/v2/staff/me/password', { CurrentPassword: PASSWORD, NewPassword: 'another long pass phrase' })).statusCode,
    ).toBe(204);
    expect((await as(t, here, 'GET', '/api/v2/staff/me')).statusCode).toBe(200);
    problemOf(await as(t, elsewhere, 'GET', '/api/v2/staff/me'), 401, 'unauthenticated');
    problemOf(await post(t, '/api/v2/staff/sign-in', { Email: user.email, Password: PASSWORD }), 401, 'unauthenticated');
  });
});
