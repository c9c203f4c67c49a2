// Confirmations that arrive (issue 26, item 3): a new operator's starter workflows, and the e-mail a guest
// gets, captured by a real SMTP server and parsed: an HTML and a plain-text part in the guest's language
// (the booking pages', the basket's or the partner's Locale), the operator's name and colour, the activity's
// zone named, tickets and total in its currency, meeting point, what to bring, the cancellation rule, the QR
// code, the manage link, an .ics whose DTSTART is the timeslot's instant, Reply-To the shop's contact
// address; guest text escaped; workflows narrowed to channels.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, createTestApp, PUBLIC_URL, type TestApp, type TestOperator } from '../helpers/app.js';
import { createActivity, createTimeslot, dateFromToday } from '../availability/fixtures.js';
import { customer, deliveryFor, posBooking } from './fixtures.js';
import { startSmtp, type TestSmtp } from './smtp.js';
import { leaves, parseMime, partOf, type MimePart } from './mime.js';
import { GOOD_CARD, openShop } from '../shop/fixtures.js';
import { runDueEmails } from '../../src/emails/worker.js';
import { zonedToUnix } from '../../src/calendar/zoned-time.js';
import { DEMO_CONTACT_EMAIL, seedDemoOnFirstStart } from '../../src/demo/seed.js';

let t: TestApp;
let op: TestOperator;
let smtp: TestSmtp;
const date = dateFromToday(12);
const slot = { ActivityID: '', Date: date, Time: '10:00' };
const shop = () => `/api/v2/shop/${op.operatorId}`;

interface Workflow {
  ID: number;
  Name: string;
  Event: string;
  OffsetHours: number;
  Enabled: boolean;
  Channels: string[];
  PartnerBookings: boolean;
}

async function workflows(): Promise<Workflow[]> {
  return (await call(t.app, op.adminKey, 'GET', '/api/v2/admin/workflows')).json().data;
}

/** Sends what is due and answers the one message sent, parsed. */
async function sendOne(): Promise<{ message: MimePart; raw: string; envelopeTo: string[] }> {
  const before = smtp.messages.length;
  expect((await runDueEmails(t.db, deliveryFor(t))).sent).toBe(1);
  const received = smtp.messages.slice(before);
  expect(received).toHaveLength(1);
  return { message: parseMime(received[0]!.raw), raw: received[0]!.raw, envelopeTo: received[0]!.to };
}

// Intl puts a no-break space between amount and currency sign; lines end in CRLF on the wire.
const textOf = (message: MimePart) =>
  partOf(message, 'text/plain')!
    .content.toString('utf8')
    .replace(/\r\n/g, '\n')
    .replace(/\u00a0/g, ' ');
const htmlOf = (message: MimePart) => partOf(message, 'text/html')!.content.toString('utf8');
const icsOf = (message: MimePart) => partOf(message, 'text/calendar')!.content.toString('utf8');

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ SMTP_URL: smtp.url });
  op = await t.newOperator('Hudson Paddlers');
  const settings = await call(t.app, op.adminKey, 'PATCH', '/api/v2/admin/settings', {
    ContactEmail: 'hello@hudson-paddlers.example',
    BrandColour: '#0b5cad',
  });
  expect(settings.statusCode, settings.body).toBe(200);
  slot.ActivityID = (
    await createActivity(t, op.adminKey, {
      Name: 'Harbor Kayak <Sunset>',
      Timezone: 'America/New_York',
      Currency: 'USD',
      UnitPrice: 4500,
      MeetingPoint: { Address: 'Pier 26, Hudson River Park', MapUrl: 'https://maps.example/pier26', Latitude: null, Longitude: null },
      WhatToBring: ['Water', 'Sunscreen'],
      GuestCancelHours: 24,
    })
  ).ActivityID;
  await createTimeslot(t, op.adminKey, slot.ActivityID, { Date: date, Time: '10:00', Capacity: 50 });
  await openShop(t, op.adminKey);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});
beforeEach(async () => {
  // Nothing left over from an earlier test.
  await runDueEmails(t.db, deliveryFor(t));
});

describe('starter workflows', () => {
  it('a new operator starts with an active confirmation for every channel, and a paused cancellation and 24-hour reminder', async () => {
    const list = await workflows();
    expect(list.map(({ Name, Event, OffsetHours, Enabled }) => ({ Name, Event, OffsetHours, Enabled }))).toEqual([
      { Name: 'Booking confirmation', Event: 'booking-confirmed', OffsetHours: 0, Enabled: true },
      { Name: 'Cancellation', Event: 'booking-cancelled', OffsetHours: 0, Enabled: false },
      { Name: '24-hour reminder', Event: 'reminder', OffsetHours: 24, Enabled: false },
    ]);
    for (const workflow of list) expect(workflow).toMatchObject({ Channels: ['online', 'pos', 'partner', 'octo'], PartnerBookings: true });
  });

  it('the demo operator starts with them too, and has a contact address for Reply-To', async () => {
    const fresh = await createTestApp();
    try {
      const demo = (await seedDemoOnFirstStart(fresh.db))!;
      const list: Workflow[] = (await call(fresh.app, demo.keys.admin, 'GET', '/api/v2/admin/workflows')).json().data;
      expect(list.map((w) => [w.Name, w.Enabled])).toEqual([
        ['Booking confirmation', true],
        ['Cancellation', false],
        ['24-hour reminder', false],
      ]);
      expect((await call(fresh.app, demo.keys.admin, 'GET', '/api/v2/admin/settings')).json().data.ContactEmail).toBe(DEMO_CONTACT_EMAIL);
    } finally {
      await fresh.close();
    }
  }, 60_000);
});

describe('the confirmation e-mail', () => {
  it("keeps the operator's text in its .ics values: a lone CR, LF or Unicode line break in a name starts no property", async () => {
    const hostile = 'Night tour\rATTENDEE;RSVP=TRUE:mailto:evil@attacker.example\u2028X-INJECTED:1\nDESCRIPTION:spoof\u0007';
    const activity = (await createActivity(t, op.adminKey, { Name: hostile, Timezone: 'America/New_York', Currency: 'USD' })).ActivityID;
    await createTimeslot(t, op.adminKey, activity, { Date: date, Time: '11:00', Capacity: 5 });
    const basket = await call(t.app, undefined, 'POST', `${shop()}/baskets`, { Customer: customer('Ida', 'ida@example.com') });
    const token = basket.json().data.BasketToken as string;
    const item = await call(t.app, undefined, 'POST', `${shop()}/baskets/${token}/items`, {
      ActivityID: activity,
      Date: date,
      Time: '11:00',
      Participants: 1,
    });
    expect(item.statusCode, item.body).toBe(201);
    expect((await call(t.app, undefined, 'POST', `${shop()}/baskets/${token}/checkout`, { Payment: GOOD_CARD })).statusCode).toBe(200);
    const ics = icsOf((await sendOne()).message);
    // Whatever a client splits lines on, every line is one of slotbook's properties or a folded continuation.
    const lines = ics.split(/\r\n|[\r\n\u2028\u2029\u0085]/).filter((line) => line !== '');
    expect(lines.filter((line) => /^(ATTENDEE|X-INJECTED|DESCRIPTION:spoof)/.test(line))).toEqual([]);
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\u0000-\u0008\u000a-\u001f\u007f\u2028\u2029\u0085]/);
    expect(ics.replace(/\r\n /g, '')).toContain(
      'SUMMARY:Night tour\\nATTENDEE\\;RSVP=TRUE:mailto:evil@attacker.example\\nX-INJECTED:1\\nDESCRIPTION:spoof',
    );
  });

  it('a shop booking in German: HTML and text parts, details, QR code, manage link, .ics in UTC, Reply-To', async () => {
    const basket = await call(t.app, undefined, 'POST', `${shop()}/baskets`, { Customer: customer('Jörg', 'joerg@example.com'), Locale: 'de' });
    expect(basket.statusCode, basket.body).toBe(201);
    const token = basket.json().data.BasketToken as string;
    const item = await call(t.app, undefined, 'POST', `${shop()}/baskets/${token}/items`, { ...slot, Participants: 2 });
    expect(item.statusCode, item.body).toBe(201);
    const paid = await call(t.app, undefined, 'POST', `${shop()}/baskets/${token}/checkout`, { Payment: GOOD_CARD });
    expect(paid.json().data).toMatchObject({ Status: 'paid', ConfirmationEmailed: true });
    const reference = paid.json().data.Items[0].BookingReference as string;
    const booking = (await call(t.app, op.adminKey, 'GET', `/api/v2/admin/bookings/${reference}`)).json().data;
    expect(booking.Locale).toBe('de');

    const { message, envelopeTo } = await sendOne();
    expect(envelopeTo).toEqual(['joerg@example.com']);
    expect(message.headers['reply-to']).toBe('hello@hudson-paddlers.example');
    expect(message.type).toBe('multipart/mixed');
    const alternative = leaves(message).map((part) => part.type);
    expect(alternative).toEqual(expect.arrayContaining(['text/plain', 'text/html', 'image/png', 'text/calendar']));

    const text = textOf(message);
    expect(text).toContain('Hallo Jörg,');
    expect(text).toContain('ist bestätigt');
    expect(text).toContain('um 10:00 Uhr (America/New_York)');
    expect(text).toContain(`Buchungsnummer: ${reference}`);
    expect(text).toContain('2 × Adult: 90,00 $');
    expect(text).toContain('Gesamt: 90,00 $');
    expect(text).toContain('Treffpunkt: Pier 26, Hudson River Park');
    expect(text).toContain('- Sunscreen');
    expect(text).toContain('Sie können online bis 24 Stunden vor Beginn stornieren.');
    expect(text).not.toContain('Haftungsverzicht'); // the activity asks no waiver questions
    expect(text).toMatch(new RegExp(`${PUBLIC_URL}/book/[a-z0-9-]+/manage/${reference}_[0-9a-f]{32}`));

    const html = htmlOf(message);
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('#0b5cad');
    expect(html).toContain('Hudson Paddlers');
    // The activity's name is the operator's text: escaped, never markup.
    expect(html).toContain('Harbor Kayak &lt;Sunset&gt;');
    expect(html).not.toContain('<Sunset>');
    expect(html).toMatch(/<img src="cid:qr-BK-[A-Z0-9]+@slotbook"/);
    const qr = partOf(message, 'image/png')!;
    expect(qr.headers['content-id']).toBe(`<qr-${reference}@slotbook>`);
    expect(qr.content.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

    const ics = icsOf(message);
    const start = zonedToUnix(date, '10:00', 'America/New_York')!;
    const utc = new Date(start * 1000).toISOString().replace(/[-:]/g, '').replace('.000', '');
    expect(ics).toContain(`DTSTART:${utc}`);
    expect(ics).toContain(`UID:${reference}@slotbook`);
    expect(ics).toContain('LOCATION:Pier 26\\, Hudson River Park');
    expect(partOf(message, 'text/calendar')!.params.method).toBe('PUBLISH');
  });

  it('a partner booking with Locale de-CH is German; without a Locale, English', async () => {
    const german = await call(t.app, op.otaKey, 'POST', `/api/v2/ota/${op.partner}/booking`, {
      ...slot,
      Participants: 1,
      Locale: 'de-CH',
      Customer: customer('Heidi', 'heidi@example.com'),
    });
    expect(german.statusCode, german.body).toBe(201);
    expect(german.json().data.Locale).toBe('de');
    expect(textOf((await sendOne()).message)).toContain('Hallo Heidi,');

    await call(t.app, op.otaKey, 'POST', `/api/v2/ota/${op.partner}/booking`, {
      ...slot,
      Participants: 1,
      Customer: customer('Ann', 'ann@example.com'),
    });
    const { message } = await sendOne();
    expect(textOf(message)).toContain('Hello Ann,');
    expect(textOf(message)).toContain('at 10:00 (America/New_York)');
    expect(textOf(message)).toContain('Total: US$45.00');
    expect(htmlOf(message)).toContain('<html lang="en">');
  });

  it("the guest's name never becomes markup", async () => {
    await posBooking(t, op.adminKey, slot, 1, { ...customer('<img src=x onerror=alert(1)>', 'eve@example.com') });
    const { message } = await sendOne();
    const html = htmlOf(message);
    expect(html).toContain('Hello &lt;img src=x onerror=alert(1)&gt;,');
    expect(html).not.toContain('<img src=x');
  });
});

describe('other moments', () => {
  it('a pending waiver is linked; a cancellation (once enabled) has no QR code or calendar entry', async () => {
    const canyon = (await createActivity(t, op.adminKey, { Name: 'Canyoning', Timezone: 'Europe/Berlin' })).ActivityID;
    await createTimeslot(t, op.adminKey, canyon, { Date: date, Time: '09:00', Capacity: 10 });
    const question = await call(t.app, op.adminKey, 'POST', `/api/v2/admin/activities/${canyon}/questions`, {
      Question: 'I take part at my own risk.',
      Type: 'consent',
      Required: true,
    });
    expect(question.statusCode, question.body).toBe(201);
    const booking = await call(t.app, op.adminKey, 'POST', '/api/v2/admin/bookings', {
      ActivityID: canyon,
      Date: date,
      Time: '09:00',
      Participants: 1,
      Locale: 'de',
      Customer: customer('Lena', 'lena@example.com'),
    });
    expect(booking.statusCode, booking.body).toBe(201);
    const reference = booking.json().data.BookingReference as string;
    const confirmation = textOf((await sendOne()).message);
    expect(confirmation).toContain('Ihr Haftungsverzicht ist noch nicht vollständig');
    expect(confirmation).toMatch(new RegExp(`Haftungsverzicht ausfüllen: ${PUBLIC_URL}/book/[a-z0-9-]+/manage/${reference}_[0-9a-f]{32}/waiver`));
    expect(confirmation).toContain('um 09:00 Uhr (Europe/Berlin)');

    const cancellation = (await workflows()).find((w) => w.Event === 'booking-cancelled')!;
    await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/workflows/${cancellation.ID}`, { Enabled: true });
    try {
      expect((await call(t.app, op.adminKey, 'POST', `/api/v2/admin/bookings/${reference}/cancel`)).statusCode).toBe(200);
      const { message } = await sendOne();
      expect(message.headers.subject).toContain('Buchung storniert');
      expect(textOf(message)).toContain('ist storniert');
      expect(leaves(message).map((part) => part.type)).not.toContain('text/calendar');
      expect(leaves(message).map((part) => part.type)).not.toContain('image/png');
    } finally {
      await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/workflows/${cancellation.ID}`, { Enabled: false });
    }
  });
});

describe('channels', () => {
  it('a workflow narrowed to the booking pages leaves point-of-sale bookings alone', async () => {
    const confirmation = (await workflows()).find((w) => w.Event === 'booking-confirmed')!;
    const narrowed = await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/workflows/${confirmation.ID}`, { Channels: ['online'] });
    expect(narrowed.statusCode, narrowed.body).toBe(200);
    expect(narrowed.json().data).toMatchObject({ Channels: ['online'], PartnerBookings: false });
    try {
      await posBooking(t, op.adminKey, slot, 1, customer('Walk', 'walk-in@example.com'));
      expect((await runDueEmails(t.db, deliveryFor(t))).sent).toBe(0);
      const bad = await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/workflows/${confirmation.ID}`, { Channels: ['fax'] });
      expect(bad.statusCode).toBe(422);
      expect(JSON.stringify(bad.json())).toContain('Channels');
    } finally {
      await call(t.app, op.adminKey, 'PATCH', `/api/v2/admin/workflows/${confirmation.ID}`, { Channels: ['online', 'pos', 'partner', 'octo'] });
    }
  });
});
