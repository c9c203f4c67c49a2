// Joining a waitlist from the public shop, with the address confirmed before the place counts (double
// opt-in), so that nobody can put someone else's address on a waitlist, or fill a waitlist with addresses
// that will never claim an offer:
//
//   join (202, the same answer whatever the address) -> e-mail with a link to a page -> the guest presses
//   the page's button (a POST: a mail scanner that fetches the link confirms nothing) -> the place counts,
//   in the order of confirmation. Unconfirmed places lapse after WAITLIST_CONFIRM_HOURS.
//
// Whether an address already waits is never told to the public: the answer and its status are the same.
// Addresses are compared case-folded. Nothing the guest typed is put where it reads as the operator's
// words: the e-mails greet nobody by name and their subjects hold only the operator's own texts.
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Db } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { Conflict, NotFound, RetryLater, ValidationFailed } from '../http/errors.js';
import { requireActivity } from '../catalog/service.js';
import { findTimeslotAt, findZonedTimeslot } from '../availability/index.js';
import { seatsLeft } from '../availability/seats.js';
import { addSeconds, nowMillis, unixNow, type UnixSeconds } from '../lib/clock.js';
import { lockClient } from '../shop/limits.js';
import { queueEmail } from '../emails/outbox.js';
import { countActivePlaces, findByConfirmToken, insertEntry, lapseUnconfirmed, markConfirmed, type ConfirmableEntry } from './store.js';
import type { JoinWaitlistBody, WaitlistJoinAccepted } from './schemas.js';

export type JoinSettings = Pick<Config, 'publicUrl' | 'waitlistConfirmHours' | 'waitlistMaxPlacesPerClient'>;

/**
 * Unconfirmed places one address may have at once in one shop: beyond it, a join is answered as usual and
 * sends nothing, so that nobody can flood someone's mailbox with confirmation e-mails.
 */
export const MAX_UNCONFIRMED_PER_ADDRESS = 3;

/** The path of a confirmation page; the token (128 random bits) is its only handle, kept as SHA-256. */
export const confirmationPath = (token: string) => `/waitlist/confirm/${token}`;
export const CONFIRM_TOKEN_PATTERN = /^[A-Za-z0-9_-]{22}$/;
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Shop: asks for a place on the waitlist of a timeslot without room for the party (409 when the seats are
 * there: book them). The answer is 202 and the same whether the address is new, pending or waiting; only
 * a new place (or one whose confirmation lapsed) gets a confirmation e-mail. The shop's routes answer only
 * for an open shop (their hook in storefront/shop-routes.ts).
 */
export async function joinWaitlist(
  db: Db,
  settings: JoinSettings,
  operatorId: number,
  body: JoinWaitlistBody,
  clientHmac: string,
): Promise<WaitlistJoinAccepted> {
  const activity = await requireActivity(db.kysely, operatorId, body.ActivityID);
  const timeslot = await findTimeslotAt(db.kysely, activity.id, body.Date, body.Time);
  if (!timeslot) throw new NotFound(`Activity ${body.ActivityID} has no timeslot on ${body.Date} at ${body.Time}`);
  if (body.Participants > activity.max_participants_per_booking) {
    throw ValidationFailed.field('Participants', `Participants must be at most ${activity.max_participants_per_booking} for this activity`);
  }
  const now = unixNow();
  if (timeslot.bookable_until <= now) throw ValidationFailed.field('Time', `The timeslot on ${body.Date} at ${body.Time} has already started`);
  const live = (await findZonedTimeslot(db.kysely, operatorId, timeslot.id, now))!;
  const left = seatsLeft(
    { capacity: live.capacity, booked: live.booked - live.lapsed_hold_seats, startsAt: live.starts_at, bookableUntil: live.bookable_until },
    now,
  );
  if (left >= body.Participants) {
    throw new Conflict(`${left} seats are still available on ${body.Date} at ${body.Time}: book them instead of joining the waitlist`);
  }

  const c = body.Customer;
  const email = c.Email.trim().toLowerCase();
  const token = randomBytes(16).toString('base64url');
  const confirmBy = addSeconds(now, settings.waitlistConfirmHours * 3600);
  await db.write(async (tx) => {
    await lockClient(tx, operatorId, clientHmac);
    await lapseUnconfirmed(tx, timeslot.id, email, now);
    if ((await countActivePlaces(tx, operatorId, { clientHmac }, now)) >= settings.waitlistMaxPlacesPerClient) {
      throw new RetryLater(
        'quota-exceeded',
        `One client may hold at most ${settings.waitlistMaxPlacesPerClient} waitlist places in this shop at once (confirmed, or waiting for confirmation). ` +
          'Retry once some have been offered or have lapsed.',
        settings.waitlistConfirmHours * 3600,
      );
    }
    if ((await countActivePlaces(tx, operatorId, { unconfirmedEmail: email }, now)) >= MAX_UNCONFIRMED_PER_ADDRESS) return;
    const entry = await insertEntry(tx, {
      operator_id: operatorId,
      timeslot_id: timeslot.id,
      participants: body.Participants,
      customer_first_name: c.FirstName.trim(),
      customer_last_name: c.LastName.trim(),
      customer_email: email,
      customer_phone: c.Phone,
      status: 'waiting',
      basket_id: null,
      offer_expires_at: null,
      created_at: nowMillis(),
      notified_at: null,
      confirmed_at: null,
      confirm_by: confirmBy,
      confirm_token_hash: hashToken(token),
      client_hmac: clientHmac,
    });
    if (!entry) return; // the address already waits (or holds an offer): nothing to confirm, nothing told
    const seats = body.Participants === 1 ? '1 seat' : `${body.Participants} seats`;
    const until = `${new Date(confirmBy * 1000).toISOString().replace('T', ' ').slice(0, 16)} UTC`;
    await queueEmail(tx, {
      operatorId,
      kind: 'waitlist-confirmation',
      waitlistEntryId: entry.id,
      to: email,
      subject: `Confirm your waitlist place: ${activity.name} on ${body.Date} at ${body.Time}`,
      body:
        'Hello,\n\n' +
        `this address was given to join the waitlist for ${seats} of ${activity.name} on ${body.Date} at ${body.Time} (${activity.timezone} time).\n\n` +
        `To take the place, open this page and press "Confirm my place" by ${until}:\n${settings.publicUrl}${confirmationPath(token)}\n\n` +
        'If you did not ask for this, ignore this e-mail: without your confirmation nothing happens, and you will not hear from us about it again.\n',
      sendAt: now,
      meter: null,
      meterExtraInfo: null,
    });
  });
  return {
    ActivityID: body.ActivityID,
    Date: body.Date,
    Time: body.Time,
    Participants: body.Participants,
    Message:
      'Check your e-mail. Unless this address already has a place on this waitlist, we have sent it a link: ' +
      `the place counts once it is confirmed there, within ${settings.waitlistConfirmHours} hours.`,
  };
}

/** What a confirmation page shows. */
export type ConfirmationState = { kind: 'unknown' } | { kind: 'confirmable' | 'confirmed' | 'lapsed' | 'closed'; entry: ConfirmableEntry };

function stateOf(entry: ConfirmableEntry | undefined, now: UnixSeconds): ConfirmationState {
  if (!entry) return { kind: 'unknown' };
  if (entry.confirmed_at !== null) return { kind: entry.status === 'removed' ? 'closed' : 'confirmed', entry };
  if (entry.status !== 'waiting') return { kind: entry.status === 'removed' ? 'closed' : 'lapsed', entry };
  if (Number(entry.confirm_by) <= now || Number(entry.starts_at) <= now) return { kind: 'lapsed', entry };
  return { kind: 'confirmable', entry };
}

/** The page's state for a link's token, without changing anything (a GET, which mail scanners fetch). */
export async function confirmationState(db: Kysely<Database>, token: string): Promise<ConfirmationState> {
  if (!CONFIRM_TOKEN_PATTERN.test(token)) return { kind: 'unknown' };
  return stateOf(await findByConfirmToken(db, hashToken(token)), unixNow());
}

/** Confirms the place of a link's token (the page's POST), once; answers the state afterwards. */
export async function confirmPlace(db: Db, token: string): Promise<ConfirmationState> {
  if (!CONFIRM_TOKEN_PATTERN.test(token)) return { kind: 'unknown' };
  const now = unixNow();
  const hash = hashToken(token);
  const before = await findByConfirmToken(db.kysely, hash);
  if (before && Number(before.starts_at) > now) await db.write((tx) => markConfirmed(tx, hash, now));
  return stateOf(await findByConfirmToken(db.kysely, hash), now);
}
