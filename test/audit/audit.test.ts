// The audit log: every mutating /api/v2/admin route (walked from the route table, so a new route without a
// case here fails) writes an entry naming the actor, the action, the resource and the client address;
// secrets are redacted; a refused change leaves none; filters, CSV (formulas neutralised), append-only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { call, createTestApp, problemOf, type TestApp, type TestOperator } from '../helpers/app.js';
import { addUser, as, operatorRoutes, signIn, type Session } from '../staff/fixtures.js';
import { csvCell } from '../../src/audit/csv.js';
import { GOOD_CARD, openShop } from '../shop/fixtures.js';
import { joinConfirmed } from '../waitlists/fixtures.js';
import { PNG } from '../questions/files.js';
import { picture } from '../catalog/photo-files.js';
import { startStripeServer, type StripeTestServer } from '../helpers/stripe-server.js';
import { addMillis, nowMillis } from '../../src/lib/clock.js';

let t: TestApp;
let op: TestOperator;
let owner: Session;
let ownerEmail: string;
let stripe: StripeTestServer;
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const activityBody = { Name: 'Kayak', DurationMinutes: 60, Timezone: 'Europe/Berlin', Currency: 'EUR', UnitPrice: 1000 };
const customer = { FirstName: 'Ada', LastName: 'Lovelace', Email: 'ada@example.com', Phone: '+441234567890' };

beforeAll(async () => {
  stripe = await startStripeServer();
  t = await createTestApp({ STRIPE_API_BASE: stripe.base });
  op = await t.newOperator();
  const user = await addUser(t, op.operatorId, 'owner');
  ownerEmail = user.email;
  owner = await signIn(t, user.email);
});
afterAll(async () => {
  await t.close();
  await stripe.stop();
});

async function ok(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown) {
  const response = await as(t, owner, method, url, body);
  expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
  return response.statusCode === 204 ? undefined : response.json().data;
}

async function newest() {
  return (await as(t, owner, 'GET', '/api/v2/admin/audit?Limit=1')).json().data[0];
}

async function activityWithSlot() {
  const activity = await ok('POST', '/api/v2/admin/activities', activityBody);
  const slot = await ok('POST', `/api/v2/admin/activities/${activity.ActivityID}/timeslots`, { Date: day(3), Time: '10:00', Capacity: 1 });
  return { activity, slot };
}

async function newBooking() {
  const { activity } = await activityWithSlot();
  return ok('POST', '/api/v2/admin/bookings', { ActivityID: activity.ActivityID, Date: day(3), Time: '10:00', Participants: 1, Customer: customer });
}

async function newQuestion(required: boolean) {
  const activity = await ok('POST', '/api/v2/admin/activities', activityBody);
  return ok('POST', `/api/v2/admin/activities/${activity.ActivityID}/questions`, { Question: 'Can you swim?', Type: 'boolean', Required: required });
}

async function newTicketType() {
  const activity = await ok('POST', '/api/v2/admin/activities', activityBody);
  return ok('POST', `/api/v2/admin/activities/${activity.ActivityID}/ticket-types`, { Type: 'child', Name: 'Child', Price: 500 });
}

/** A booking bought in the shop and paid with the test provider (the shop put in test mode first). */
async function bookingPaidByTestProvider(): Promise<string> {
  const { activity } = await activityWithSlot();
  await ok('PATCH', '/api/v2/admin/shop', { Open: true, TestMode: true });
  const shop = `/api/v2/shop/${op.operatorId}`;
  const basket = (await call(t.app, undefined, 'POST', `${shop}/baskets`, { Customer: customer })).json().data;
  const added = await call(t.app, undefined, 'POST', `${shop}/baskets/${basket.BasketToken}/items`, {
    ActivityID: activity.ActivityID,
    Date: day(3),
    Time: '10:00',
    Participants: 1,
  });
  expect(added.statusCode, added.body).toBe(201);
  const paid = await call(t.app, undefined, 'POST', `${shop}/baskets/${basket.BasketToken}/checkout`, { Payment: GOOD_CARD });
  expect(paid.statusCode, paid.body).toBe(200);
  return paid.json().data.Items[0].BookingReference;
}

/** A guide with one session of their own, as the owner's sessions list shows it. */
async function guideSignedIn() {
  const user = await addUser(t, op.operatorId, 'guide');
  await signIn(t, user.email);
  const [session] = (await as(t, owner, 'GET', `/api/v2/admin/users/${user.id}/sessions`)).json().data;
  return { user, session };
}

/** How to make each mutating operator route succeed, and the audit action it must write. */
const CASES: Record<string, () => Promise<{ action: string; resource: string | null }>> = {
  'POST /api/v2/admin/guests/erase': async () => {
    // A guest whose only booking is cancelled: nothing of theirs is still to come.
    const { activity } = await activityWithSlot();
    const Email = `erase-${Date.now()}@example.com`;
    const booking = await ok('POST', '/api/v2/admin/bookings', {
      ActivityID: activity.ActivityID,
      Date: day(3),
      Time: '10:00',
      Participants: 1,
      Customer: { ...customer, Email },
    });
    await ok('POST', `/api/v2/admin/bookings/${booking.BookingReference}/cancel`);
    await ok('POST', '/api/v2/admin/guests/erase', { Email });
    // The entry names no guest: the address is what was erased.
    return { action: 'guest.erase', resource: null };
  },
  'POST /api/v2/admin/activities': async () => {
    const activity = await ok('POST', '/api/v2/admin/activities', activityBody);
    return { action: 'activity.create', resource: activity.ActivityID };
  },
  'PATCH /api/v2/admin/activities/:ActivityID': async () => {
    const activity = await ok('POST', '/api/v2/admin/activities', activityBody);
    await ok('PATCH', `/api/v2/admin/activities/${activity.ActivityID}`, { Name: 'Sunset kayak' });
    return { action: 'activity.update', resource: activity.ActivityID };
  },
  'POST /api/v2/admin/activities/:ActivityID/photos': async () => {
    const activity = await ok('POST', '/api/v2/admin/activities', activityBody);
    const url = `/api/v2/admin/activities/${activity.ActivityID}/photos`;
    const response = await as(t, owner, 'POST', url, await picture(300, 200), { 'content-type': 'image/jpeg' });
    expect(response.statusCode, response.body).toBe(201);
    return { action: 'activity.photo-add', resource: activity.ActivityID };
  },
  'PATCH /api/v2/admin/activities/:ActivityID/photos/:PhotoID': async () => {
    const activity = await ok('POST', '/api/v2/admin/activities', activityBody);
    const url = `/api/v2/admin/activities/${activity.ActivityID}/photos`;
    const photo = (await as(t, owner, 'POST', url, await picture(300, 200), { 'content-type': 'image/jpeg' })).json().data;
    await ok('PATCH', `${url}/${photo.ID}`, { Alt: 'A kayak' });
    return { action: 'activity.photo-update', resource: activity.ActivityID };
  },
  'DELETE /api/v2/admin/activities/:ActivityID/photos/:PhotoID': async () => {
    const activity = await ok('POST', '/api/v2/admin/activities', activityBody);
    const url = `/api/v2/admin/activities/${activity.ActivityID}/photos`;
    const photo = (await as(t, owner, 'POST', url, await picture(300, 200), { 'content-type': 'image/jpeg' })).json().data;
    await ok('DELETE', `${url}/${photo.ID}`);
    return { action: 'activity.photo-delete', resource: activity.ActivityID };
  },
  'POST /api/v2/admin/activities/:ActivityID/timeslots': async () => {
    const { slot } = await activityWithSlot();
    return { action: 'timeslot.create', resource: String(slot.ID) };
  },
  'PATCH /api/v2/admin/timeslots/:ID': async () => {
    const { slot } = await activityWithSlot();
    await ok('PATCH', `/api/v2/admin/timeslots/${slot.ID}`, { Capacity: 5 });
    return { action: 'timeslot.update', resource: String(slot.ID) };
  },
  'POST /api/v2/admin/activities/:ActivityID/questions': async () => {
    const question = await newQuestion(true);
    return { action: 'question.create', resource: String(question.ID) };
  },
  'PATCH /api/v2/admin/questions/:ID': async () => {
    const question = await newQuestion(true);
    await ok('PATCH', `/api/v2/admin/questions/${question.ID}`, { Required: false });
    return { action: 'question.update', resource: String(question.ID) };
  },
  'DELETE /api/v2/admin/questions/:ID': async () => {
    const question = await newQuestion(false);
    await ok('DELETE', `/api/v2/admin/questions/${question.ID}`);
    return { action: 'question.delete', resource: String(question.ID) };
  },
  'POST /api/v2/admin/bookings': async () => {
    const booking = await newBooking();
    return { action: 'booking.create', resource: booking.BookingReference };
  },
  'POST /api/v2/admin/bookings/:BookingReference/cancel': async () => {
    const booking = await newBooking();
    await ok('POST', `/api/v2/admin/bookings/${booking.BookingReference}/cancel`);
    return { action: 'booking.cancel', resource: booking.BookingReference };
  },
  'POST /api/v2/admin/bookings/:BookingReference/reschedule': async () => {
    const booking = await newBooking();
    const activity = booking.ActivityID;
    await ok('POST', `/api/v2/admin/activities/${activity}/timeslots`, { Date: day(4), Time: '10:00', Capacity: 1 });
    await ok('POST', `/api/v2/admin/bookings/${booking.BookingReference}/reschedule`, { Date: day(4), Time: '10:00' });
    return { action: 'booking.reschedule', resource: booking.BookingReference };
  },
  'POST /api/v2/admin/timeslots/:ID/cancel': async () => {
    const { slot } = await activityWithSlot();
    await ok('POST', `/api/v2/admin/timeslots/${slot.ID}/cancel`, { Message: 'High winds: we cannot go out today.' });
    return { action: 'timeslot.cancel', resource: String(slot.ID) };
  },
  'POST /api/v2/admin/bookings/:BookingReference/check-in': async () => {
    const booking = await newBooking();
    await ok('POST', `/api/v2/admin/bookings/${booking.BookingReference}/check-in`, {});
    return { action: 'booking.check-in', resource: booking.BookingReference };
  },
  'DELETE /api/v2/admin/bookings/:BookingReference/check-in': async () => {
    const booking = await newBooking();
    await ok('POST', `/api/v2/admin/bookings/${booking.BookingReference}/check-in`, {});
    await ok('DELETE', `/api/v2/admin/bookings/${booking.BookingReference}/check-in`);
    return { action: 'booking.check-in-undo', resource: booking.BookingReference };
  },
  'POST /api/v2/admin/keys': async () => {
    const key = await ok('POST', '/api/v2/admin/keys', { Name: 'Script', Scopes: ['usage:write'] });
    return { action: 'key.create', resource: String(key.ID) };
  },
  'DELETE /api/v2/admin/keys/:ID': async () => {
    const key = await ok('POST', '/api/v2/admin/keys', { Name: 'Old script', Scopes: ['usage:write'] });
    await ok('DELETE', `/api/v2/admin/keys/${key.ID}`);
    return { action: 'key.revoke', resource: String(key.ID) };
  },
  'POST /api/v2/admin/waitlists/:ID/remove': async () => {
    const { activity, slot } = await activityWithSlot();
    await ok('POST', '/api/v2/admin/bookings', { ActivityID: activity.ActivityID, Date: day(3), Time: '10:00', Participants: 1, Customer: customer });
    await openShop(t, op.adminKey);
    const join = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/v2/shop/${op.operatorId}/waitlists`,
        payload: { ActivityID: activity.ActivityID, Date: day(3), Time: '10:00', Participants: 1, Customer: customer },
      });
    const id = await joinConfirmed(t, op.adminKey, join, customer.Email);
    await ok('POST', `/api/v2/admin/waitlists/${id}/remove`);
    expect(slot.ID).toBeGreaterThan(0);
    return { action: 'waitlist-entry.remove', resource: String(id) };
  },
  'POST /api/v2/admin/workflows': async () => {
    const workflow = await ok('POST', '/api/v2/admin/workflows', {
      Name: 'Thanks',
      Event: 'booking-confirmed',
      Subject: 'Thanks {{FirstName}}',
      Body: 'See you',
    });
    return { action: 'workflow.create', resource: String(workflow.ID) };
  },
  'PATCH /api/v2/admin/workflows/:ID': async () => {
    const workflow = await ok('POST', '/api/v2/admin/workflows', { Name: 'Thanks', Event: 'booking-confirmed', Subject: 'Thanks', Body: 'See you' });
    await ok('PATCH', `/api/v2/admin/workflows/${workflow.ID}`, { Enabled: false });
    return { action: 'workflow.update', resource: String(workflow.ID) };
  },
  'POST /api/v2/admin/users': async () => {
    const user = await ok('POST', '/api/v2/admin/users', { Email: `new-${Date.now()}@example.com`, Name: 'New', Role: 'guide' });
    return { action: 'user.invite', resource: String(user.ID) };
  },
  'PATCH /api/v2/admin/users/:ID': async () => {
    const user = await addUser(t, op.operatorId, 'guide');
    await ok('PATCH', `/api/v2/admin/users/${user.id}`, { Role: 'front-desk' });
    return { action: 'user.update', resource: String(user.id) };
  },
  'DELETE /api/v2/admin/users/:ID': async () => {
    const user = await addUser(t, op.operatorId, 'guide');
    await ok('DELETE', `/api/v2/admin/users/${user.id}`);
    return { action: 'user.remove', resource: String(user.id) };
  },
  'POST /api/v2/admin/users/:ID/invitation': async () => {
    const user = await ok('POST', '/api/v2/admin/users', { Email: `again-${Date.now()}@example.com`, Name: 'Again', Role: 'guide' });
    await ok('POST', `/api/v2/admin/users/${user.ID}/invitation`);
    return { action: 'user.invitation-resend', resource: String(user.ID) };
  },
  'DELETE /api/v2/admin/users/:ID/sessions': async () => {
    const { user, session } = await guideSignedIn();
    await ok('DELETE', `/api/v2/admin/users/${user.id}/sessions`);
    return { action: 'session.revoke', resource: String(session.ID) };
  },
  'DELETE /api/v2/admin/users/:ID/sessions/:SessionID': async () => {
    const { user, session } = await guideSignedIn();
    await ok('DELETE', `/api/v2/admin/users/${user.id}/sessions/${session.ID}`);
    return { action: 'session.revoke', resource: String(session.ID) };
  },
  'POST /api/v2/admin/users/:ID/unlock': async () => {
    const user = await ok('POST', '/api/v2/admin/users', { Email: `locked-${Date.now()}@example.com`, Name: 'Locked', Role: 'guide' });
    await t.db.kysely
      .updateTable('staff_users')
      .set({ locked_until: addMillis(nowMillis(), 60_000) })
      .where('id', '=', user.ID)
      .execute();
    await ok('POST', `/api/v2/admin/users/${user.ID}/unlock`);
    return { action: 'user.unlock', resource: String(user.ID) };
  },
  'DELETE /api/v2/admin/users/:ID/totp': async () => {
    const user = await ok('POST', '/api/v2/admin/users', { Email: `phone-lost-${Date.now()}@example.com`, Name: 'Lost phone', Role: 'guide' });
    await ok('DELETE', `/api/v2/admin/users/${user.ID}/totp`);
    return { action: 'user.totp-reset', resource: String(user.ID) };
  },
  'POST /api/v2/admin/activities/:ActivityID/ticket-types': async () => {
    const type = await newTicketType();
    return { action: 'ticket-type.create', resource: String(type.ID) };
  },
  'PATCH /api/v2/admin/ticket-types/:ID': async () => {
    const type = await newTicketType();
    await ok('PATCH', `/api/v2/admin/ticket-types/${type.ID}`, { Price: 600 });
    return { action: 'ticket-type.update', resource: String(type.ID) };
  },
  'DELETE /api/v2/admin/ticket-types/:ID': async () => {
    const type = await newTicketType();
    await ok('DELETE', `/api/v2/admin/ticket-types/${type.ID}`);
    return { action: 'ticket-type.delete', resource: String(type.ID) };
  },
  'PATCH /api/v2/admin/shop': async () => {
    await ok('PATCH', '/api/v2/admin/shop', { Open: true });
    return { action: 'shop.update', resource: String(op.operatorId) };
  },
  'POST /api/v2/admin/bookings/:BookingReference/refund': async () => {
    const reference = await bookingPaidByTestProvider();
    await ok('POST', `/api/v2/admin/bookings/${reference}/refund`, { Amount: '2.50' });
    return { action: 'booking.refund', resource: reference };
  },
  'POST /api/v2/admin/bookings/:BookingReference/payments': async () => {
    const booking = await newBooking();
    await ok('POST', `/api/v2/admin/bookings/${booking.BookingReference}/payments`, { Method: 'cash', Amount: '2.50' });
    return { action: 'booking.payment', resource: booking.BookingReference };
  },
  'POST /api/v2/admin/bookings/:BookingReference/refunds/:RefundID/retry': async () => {
    const reference = await bookingPaidByTestProvider();
    const [refund] = await ok('POST', `/api/v2/admin/bookings/${reference}/refund`, {});
    // The test provider never fails: the row is made failed here, as a refused Stripe refund would be.
    await t.db.kysely.updateTable('refunds').set({ status: 'failed', failure: 'refused' }).where('id', '=', refund.RefundID).execute();
    await ok('POST', `/api/v2/admin/bookings/${reference}/refunds/${refund.RefundID}/retry`);
    return { action: 'booking.refund-retry', resource: reference };
  },
  'PUT /api/v2/admin/settings/stripe': async () => {
    const account = stripe.addAccount();
    await ok('PUT', '/api/v2/admin/settings/stripe', { SecretKey: account.secretKey, WebhookSecret: account.webhookSecret });
    return { action: 'stripe.connect', resource: String(op.operatorId) };
  },
  'DELETE /api/v2/admin/settings/stripe': async () => {
    const account = stripe.addAccount();
    await ok('PUT', '/api/v2/admin/settings/stripe', { SecretKey: account.secretKey, WebhookSecret: account.webhookSecret });
    await ok('DELETE', '/api/v2/admin/settings/stripe');
    return { action: 'stripe.disconnect', resource: String(op.operatorId) };
  },
  'PATCH /api/v2/admin/getyourguide': async () => {
    await ok('PATCH', '/api/v2/admin/getyourguide', { SupplierID: 'audited-supplier' });
    return { action: 'getyourguide.update', resource: String(op.operatorId) };
  },
  'POST /api/v2/admin/getyourguide/credentials': async () => {
    await ok('PATCH', '/api/v2/admin/getyourguide', { Enabled: false });
    await ok('POST', '/api/v2/admin/getyourguide/credentials');
    return { action: 'getyourguide.rotate', resource: String(op.operatorId) };
  },
  'PUT /api/v2/admin/getyourguide/outbound': async () => {
    await ok('PUT', '/api/v2/admin/getyourguide/outbound', { Username: 'gyg-user', Password: 'gyg-password' });
    return { action: 'getyourguide.outbound-set', resource: String(op.operatorId) };
  },
  'DELETE /api/v2/admin/getyourguide/outbound': async () => {
    await ok('DELETE', '/api/v2/admin/getyourguide/outbound');
    return { action: 'getyourguide.outbound-remove', resource: String(op.operatorId) };
  },
  'PUT /api/v2/admin/getyourguide/products/:ActivityID': async () => {
    const activity = await ok('POST', '/api/v2/admin/activities', activityBody);
    await ok('PUT', `/api/v2/admin/getyourguide/products/${activity.ActivityID}`, { ProductID: `audited-${activity.ActivityID}` });
    return { action: 'getyourguide.product', resource: activity.ActivityID };
  },
  'PATCH /api/v2/admin/viator': async () => {
    await ok('PATCH', '/api/v2/admin/viator', { SupplierID: '4242' });
    return { action: 'viator.update', resource: String(op.operatorId) };
  },
  'POST /api/v2/admin/viator/key': async () => {
    await ok('POST', '/api/v2/admin/viator/key');
    return { action: 'viator.rotate', resource: String(op.operatorId) };
  },
  'PUT /api/v2/admin/viator/outbound': async () => {
    await ok('PUT', '/api/v2/admin/viator/outbound', { Key: 'viator-outbound-key' });
    return { action: 'viator.outbound-set', resource: String(op.operatorId) };
  },
  'DELETE /api/v2/admin/viator/outbound': async () => {
    await ok('DELETE', '/api/v2/admin/viator/outbound');
    return { action: 'viator.outbound-remove', resource: String(op.operatorId) };
  },
  'PUT /api/v2/admin/viator/products/:ActivityID': async () => {
    const activity = await ok('POST', '/api/v2/admin/activities', activityBody);
    await ok('PUT', `/api/v2/admin/viator/products/${activity.ActivityID}`, { ProductOptionID: `audited-${activity.ActivityID.slice(2, 10)}` });
    return { action: 'viator.product', resource: activity.ActivityID };
  },
  'PATCH /api/v2/admin/settings': async () => {
    await ok('PATCH', '/api/v2/admin/settings', { ShopName: 'Audited shop', BrandColour: '#0b5cad' });
    return { action: 'settings.update', resource: String(op.operatorId) };
  },
  'PUT /api/v2/admin/settings/logo': async () => {
    const response = await as(t, owner, 'PUT', '/api/v2/admin/settings/logo', PNG, { 'content-type': 'image/png' });
    expect(response.statusCode, response.body).toBe(200);
    return { action: 'settings.logo-update', resource: String(op.operatorId) };
  },
  'DELETE /api/v2/admin/settings/logo': async () => {
    await ok('DELETE', '/api/v2/admin/settings/logo');
    return { action: 'settings.logo-delete', resource: String(op.operatorId) };
  },
  'POST /api/v2/admin/holds/:BookingReference/release': async () => {
    const reference = await partnerHold();
    await ok('POST', `/api/v2/admin/holds/${reference}/release`);
    return { action: 'hold.release', resource: reference };
  },
  'POST /api/v2/admin/holds/release': async () => {
    const reference = await partnerHold();
    await ok('POST', '/api/v2/admin/holds/release', { Client: undefined, ActivityID: activityOfHold.get(reference) });
    return { action: 'hold.release', resource: reference };
  },
  'POST /api/v2/admin/webhooks': async () => {
    const endpoint = await newEndpoint();
    return { action: 'webhook.create', resource: String(endpoint.ID) };
  },
  'PATCH /api/v2/admin/webhooks/:ID': async () => {
    const endpoint = await newEndpoint();
    await ok('PATCH', `/api/v2/admin/webhooks/${endpoint.ID}`, { Description: 'Renamed' });
    return { action: 'webhook.update', resource: String(endpoint.ID) };
  },
  'DELETE /api/v2/admin/webhooks/:ID': async () => {
    const endpoint = await newEndpoint();
    await ok('DELETE', `/api/v2/admin/webhooks/${endpoint.ID}`);
    return { action: 'webhook.delete', resource: String(endpoint.ID) };
  },
  'POST /api/v2/admin/webhooks/:ID/rotate-secret': async () => {
    const endpoint = await newEndpoint();
    await ok('POST', `/api/v2/admin/webhooks/${endpoint.ID}/rotate-secret`);
    return { action: 'webhook.rotate-secret', resource: String(endpoint.ID) };
  },
  'POST /api/v2/admin/webhooks/:ID/test': async () => {
    const endpoint = await newEndpoint();
    await ok('POST', `/api/v2/admin/webhooks/${endpoint.ID}/test`);
    return { action: 'webhook.test', resource: String(endpoint.ID) };
  },
  'POST /api/v2/admin/webhooks/:ID/deliveries/:DeliveryID/replay': async () => {
    const endpoint = await newEndpoint();
    const sent = await ok('POST', `/api/v2/admin/webhooks/${endpoint.ID}/test`);
    const replay = await ok('POST', `/api/v2/admin/webhooks/${endpoint.ID}/deliveries/${sent.ID}/replay`);
    return { action: 'webhook.replay', resource: String(replay.ID) };
  },
  'PATCH /api/v2/admin/webhooks/settings': async () => {
    await ok('PATCH', '/api/v2/admin/webhooks/settings', { ContactEmail: 'ops@example.com' });
    return { action: 'webhook-settings.update', resource: String(op.operatorId) };
  },
};

/** A webhook endpoint on a local address nobody listens on (the tests' apps allow loopback): its test fails fast. */
const newEndpoint = () => ok('POST', '/api/v2/admin/webhooks', { URL: 'http://localhost:9/hooks', EventTypes: ['booking.created'] });

const activityOfHold = new Map<string, string>();

/** A partner's hold on a new activity's timeslot (the partner API, with HoldMinutes). */
async function partnerHold(): Promise<string> {
  const { activity } = await activityWithSlot();
  const held = await call(t.app, op.otaKey, 'POST', `/api/v2/ota/${op.partner}/booking`, {
    ActivityID: activity.ActivityID,
    Date: day(3),
    Time: '10:00',
    Participants: 1,
    Customer: customer,
    HoldMinutes: 30,
  });
  expect(held.statusCode, held.body).toBe(201);
  const reference = held.json().data.BookingReference as string;
  activityOfHold.set(reference, activity.ActivityID);
  return reference;
}

/** POST routes that change nothing (a body too long for a query string): they must leave no audit entry. */
const READS_BY_POST: Record<string, () => Promise<unknown>> = {
  'POST /api/v2/admin/workflows/preview': () => ok('POST', '/api/v2/admin/workflows/preview', { Subject: 'Hi {{FirstName}}', Body: 'See you' }),
};

describe('audit log', () => {
  it('routes that read by POST write no entry', async () => {
    for (const [name, read] of Object.entries(READS_BY_POST)) {
      await ok('POST', '/api/v2/admin/activities', activityBody);
      const before = await newest();
      await read();
      expect(await newest(), name).toEqual(before);
    }
  });

  it('every mutating operator route writes an entry: who, what, which resource, from where', async () => {
    const mutating = operatorRoutes(t.app.routeTable).filter((route) => route.method !== 'GET' && !READS_BY_POST[`${route.method} ${route.url}`]);
    const missing = mutating.map((route) => `${route.method} ${route.url}`).filter((name) => !CASES[name]);
    expect(missing, 'add a case (and an audit entry) for these routes').toEqual([]);
    for (const route of mutating) {
      const name = `${route.method} ${route.url}`;
      const expected = await CASES[name]!();
      const entry = await newest();
      expect(entry, name).toMatchObject({
        Action: expected.action,
        Resource: { ID: expected.resource },
        Actor: { Type: 'user', ID: owner.userId, Label: ownerEmail },
      });
      expect(entry.Address, name).toBeTruthy();
      expect(Date.now() - Date.parse(entry.At), name).toBeLessThan(60_000);
    }
  });

  it('names the API key that made a change, keeps before and after, and redacts secrets', async () => {
    const created = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/keys', { Name: 'Viator', Scopes: ['ota'], Partner: 'viator' });
    const secret = created.json().data.Key;
    const entry = (await call(t.app, op.adminKey, 'GET', '/api/v2/admin/audit?Action=key.create&Limit=1')).json().data[0];
    expect(entry.Actor).toMatchObject({ Type: 'key', Label: 'Admin key' });
    expect(JSON.stringify(entry)).not.toContain(secret);
    expect(entry.After).toMatchObject({ Name: 'Viator', Scopes: ['ota'], Partner: 'viator' });

    const activity = (await call(t.app, op.adminKey, 'POST', '/api/v2/admin/activities', activityBody)).json().data;
    await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/activities/${activity.ActivityID}`, { UnitPrice: 1500 });
    const change = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/audit?ResourceType=activity&ResourceID=${activity.ActivityID}`)).json().data;
    expect(change.map((e: { Action: string }) => e.Action)).toEqual(['activity.update', 'activity.create']);
    expect(change[0].Before.UnitPrice).toBe(1000);
    expect(change[0].After.UnitPrice).toBe(1500);
  });

  it("records sign-ins, failures and a partner's cancellation; a refused change records nothing", async () => {
    const user = await addUser(t, op.operatorId, 'guide');
    await t.app.inject({ method: 'POST', url: '/api/v2/staff/sign-in', payload: { Email: user.email, Password: 'wrong password!' } });
    await signIn(t, user.email);
    const entries = (await as(t, owner, 'GET', `/api/v2/admin/audit?ResourceType=user&ResourceID=${user.id}`)).json().data;
    expect(entries[0]).toMatchObject({ Action: 'session.sign-in-failed', Actor: { Type: 'anonymous' } });
    const signIns = (await as(t, owner, 'GET', `/api/v2/admin/audit?Actor=user:${user.id}&Action=session.`)).json().data;
    expect(signIns[0]).toMatchObject({ Action: 'session.sign-in', After: { Method: 'password' } });

    const { activity, slot } = await activityWithSlot();
    const before = (await newest()).ID;
    problemOf(await as(t, owner, 'POST', '/api/v2/admin/activities', { ...activityBody, Currency: 'XXXX' }), 422, 'validation');
    await ok('POST', '/api/v2/admin/bookings', { ActivityID: activity.ActivityID, Date: day(3), Time: '10:00', Participants: 1, Customer: customer });
    const afterBooking = (await newest()).ID;
    problemOf(await as(t, owner, 'PATCH', `/api/v2/admin/timeslots/${slot.ID}`, { Capacity: 0 }), 409, 'conflict');
    expect((await newest()).ID).toBe(afterBooking);
    expect(afterBooking).toBe(before + 1);

    // A partner's cancellation names its key (its bookings themselves record their channel, not the log).
    const other = await activityWithSlot();
    const booked = await call(t.app, op.otaKey, 'POST', `/api/v2/ota/${op.partner}/booking`, {
      ActivityID: other.activity.ActivityID,
      Date: day(3),
      Time: '10:00',
      Participants: 1,
      Customer: customer,
    });
    expect(booked.statusCode, booked.body).toBe(201);
    const reference = booked.json().data.BookingReference;
    expect((await call(t.app, op.otaKey, 'POST', `/api/v2/ota/${op.partner}/booking/${reference}/cancel`)).statusCode).toBe(200);
    expect(await newest()).toMatchObject({
      Action: 'booking.cancel',
      Resource: { ID: reference },
      Actor: { Type: 'key', Label: 'OTA' },
      Before: { Status: 'confirmed' },
      After: { Status: 'cancelled' },
    });
  });

  it('filters by period and exports CSV with spreadsheet formulas neutralised', async () => {
    await ok('POST', '/api/v2/admin/activities', { ...activityBody, Name: '=HYPERLINK("http://evil.example","click")' });
    const csv = await as(t, owner, 'GET', '/api/v2/admin/audit/export?Action=activity.create');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toMatch(/attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('ID,At,ActorType,ActorID,Actor,Address,Action,ResourceType,ResourceID,Before,After');
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.every((line) => !/,=/.test(line))).toBe(true);
    // The fullwidth signs too, which some spreadsheets read as = + - @ (issue 23, finding 8): a key's name is
    // its actor's label.
    const named = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/keys', { Name: '＝HYPERLINK("http://evil.example")', Scopes: ['admin'] });
    expect((await call(t.app, named.json().data.Key, 'POST', '/api/v2/admin/activities', activityBody)).statusCode).toBe(201);
    const byKey = (await as(t, owner, 'GET', '/api/v2/admin/audit/export?Action=activity.create')).body;
    expect(byKey).toContain(`,"'＝HYPERLINK(""http://evil.example"")",`);
    expect(byKey).not.toContain(',"＝');
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('\rx')).toBe('"\'\rx"');
    expect(csvCell('a,"b"')).toBe('"a,""b"""');
    for (const sign of ['＝', '＋', '－', '＠']) expect(csvCell(`${sign}1`)).toBe(`'${sign}1`);
    // Numbers stay numbers, as in the dashboard's CSV files.
    expect(csvCell(-5)).toBe('-5');

    const tomorrow = day(1);
    expect((await as(t, owner, 'GET', `/api/v2/admin/audit?From=${tomorrow}`)).json().data).toEqual([]);
    expect((await as(t, owner, 'GET', `/api/v2/admin/audit?To=${day(0)}&Limit=5`)).json().data).toHaveLength(5);
    problemOf(await as(t, owner, 'GET', `/api/v2/admin/audit?From=${day(0)}&To=${day(-1)}`), 422, 'validation');
    problemOf(await as(t, owner, 'GET', '/api/v2/admin/audit/export?From=2024-02-30'), 422, 'validation');
    const page = (await as(t, owner, 'GET', '/api/v2/admin/audit?Limit=3')).json().data;
    const next = (await as(t, owner, 'GET', `/api/v2/admin/audit?Limit=3&Before=${page[2].ID}`)).json().data;
    expect(next[0].ID).toBeLessThan(page[2].ID);
  });

  it('names each actor when bookings of different actors share one group commit', async () => {
    const activity = await ok('POST', '/api/v2/admin/activities', activityBody);
    await ok('POST', `/api/v2/admin/activities/${activity.ActivityID}/timeslots`, { Date: day(4), Time: '09:00', Capacity: 40 });
    const body = { ActivityID: activity.ActivityID, Date: day(4), Time: '09:00', Participants: 1, Customer: customer };
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        i % 2 === 0 ? as(t, owner, 'POST', '/api/v2/admin/bookings', body) : call(t.app, op.adminKey, 'POST', '/api/v2/admin/bookings', body),
      ),
    );
    const entries = (await as(t, owner, 'GET', '/api/v2/admin/audit?Action=booking.create&Limit=10')).json().data as {
      Resource: { ID: string };
      Actor: { Type: string };
    }[];
    for (const [i, answer] of answers.entries()) {
      expect(answer.statusCode).toBe(201);
      const entry = entries.find((e) => e.Resource.ID === answer.json().data.BookingReference)!;
      expect(entry.Actor.Type).toBe(i % 2 === 0 ? 'user' : 'key');
    }
  });

  it('is append-only in the database itself, and each operator sees only its own entries', async () => {
    await expect(sql`UPDATE audit_log SET action = 'x'`.execute(t.db.kysely)).rejects.toThrow(/append-only/);
    await expect(sql`DELETE FROM audit_log`.execute(t.db.kysely)).rejects.toThrow(/append-only/);
    const other = await t.newOperator();
    const theirs = (await call(t.app, other.adminKey, 'GET', '/api/v2/admin/audit?Limit=500')).json().data;
    expect(theirs.every((e: { Actor: { Label: string } }) => e.Actor.Label !== ownerEmail)).toBe(true);
  });
});
