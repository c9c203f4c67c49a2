import { describe, expect, it } from 'vitest';
import { effectiveStatus, toBooking } from '../../src/bookings/view.js';
import { likePattern, type BookingRecord } from '../../src/bookings/store.js';
import { addSeconds, asUnixMillis, asUnixSeconds } from '../../src/lib/clock.js';

describe('effectiveStatus', () => {
  const now = asUnixSeconds(2_000_000_000);
  it('reads a hold whose time has come as expired, and a live one as on hold', () => {
    expect(effectiveStatus({ status: 'on_hold', hold_expires_at: now }, now)).toBe('expired');
    expect(effectiveStatus({ status: 'on_hold', hold_expires_at: addSeconds(now, -60) }, now)).toBe('expired');
    expect(effectiveStatus({ status: 'on_hold', hold_expires_at: addSeconds(now, 1) }, now)).toBe('on_hold');
  });
  it('leaves every other status as stored', () => {
    for (const status of ['confirmed', 'cancelled', 'expired'] as const) {
      expect(effectiveStatus({ status, hold_expires_at: addSeconds(now, -60) }, now)).toBe(status);
    }
  });
});

describe('toBooking', () => {
  const record: BookingRecord = {
    id: 7,
    operator_id: 1,
    reference: 'BK-7KQ2MX9P',
    timeslot_id: 3,
    status: 'on_hold',
    source: 'partner',
    partner: 'viator',
    payment_reference: null,
    participants: 2,
    seats: 2,
    customer_first_name: 'Ada',
    customer_last_name: 'Lovelace',
    customer_email: 'ada@example.com',
    customer_phone: '+441234567890',
    waiver_status: 'pending',
    locale: 'en',
    hold_expires_at: asUnixSeconds(Date.UTC(2030, 6, 1, 8, 15) / 1000),
    created_at: asUnixMillis(Date.UTC(2030, 6, 1, 8, 0, 0, 123)),
    cancelled_at: null,
    activity_public_id: 's_abcdefgh12345678',
    timezone: 'Europe/Berlin',
    date: '2030-07-02',
    time: '10:00',
    starts_at: asUnixSeconds(Date.UTC(2030, 6, 2, 8, 0) / 1000),
  };
  const tickets = [{ booking_id: 7, ticket_type_id: 11, code: 'adult', name: 'Adult', quantity: 2, unit_price: 4900, currency: 'EUR', position: 1 }];

  it("maps the row to the API booking, StartsAt in the activity's offset", () => {
    expect(toBooking(record, tickets, asUnixSeconds(Date.UTC(2030, 6, 1, 8, 5) / 1000))).toEqual({
      BookingReference: 'BK-7KQ2MX9P',
      Status: 'on_hold',
      Source: 'partner',
      Partner: 'viator',
      PaymentReference: null,
      ActivityID: 's_abcdefgh12345678',
      Date: '2030-07-02',
      Time: '10:00',
      StartsAt: '2030-07-02T10:00:00+02:00',
      Participants: 2,
      Seats: 2,
      Tickets: [{ Type: 'adult', Name: 'Adult', Quantity: 2, UnitPrice: 4900 }],
      Currency: 'EUR',
      Total: 9800,
      Customer: { FirstName: 'Ada', LastName: 'Lovelace', Email: 'ada@example.com', Phone: '+441234567890' },
      WaiverStatus: 'pending',
      Locale: 'en',
      HoldExpiresAt: '2030-07-01T08:15:00.000Z',
      CreatedAt: '2030-07-01T08:00:00.123Z',
    });
  });

  it('shows the hold expired once its time has passed', () => {
    expect(toBooking(record, tickets, asUnixSeconds(Date.UTC(2030, 6, 1, 8, 15) / 1000)).Status).toBe('expired');
  });
});

describe('likePattern', () => {
  it('lower-cases and escapes the LIKE wildcards and the escape character', () => {
    expect(likePattern('Ada')).toBe('%ada%');
    expect(likePattern('100%_OFF\\')).toBe('%100\\%\\_off\\\\%');
  });
});
