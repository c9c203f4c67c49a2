// Reserving under a marketplace's own reference (OCTo's uuid, GetYourGuide's gygBookingReference,
// Viator's BookingReference), the one recipe every channel with such a reference shares. Marketplaces
// retry after timeouts, and a retry may race its twin, so:
// - a link already recorded under the reference answers (the twin), unless the channel says it does not
//   (GetYourGuide reserves again under a reference whose hold lapsed);
// - the draft is judged and placed, and the reference linked to the booking, in one write transaction, the
//   link under the channel's unique key (ON CONFLICT: a failed statement would abort a PostgreSQL
//   transaction), so a twin that committed first rolls this one back, seats and all, and answers instead;
// - the seats are taken at commit (seat-ledger.ts), so a refusal of seats only shows when the write
//   rejects. That is why the recipe runs the write itself rather than inside a caller's transaction: the
//   race and the seats are decided at the commit, which the recipe has to see.
// What the catalogue or the seat ledger refuse comes back as a typed Refusal, which each channel says in
// its own error model at its edge.
import type { Kysely } from 'kysely';
import type { Db, Tx } from '../../db/connection.js';
import type { Database } from '../../db/schema.js';
import { DomainError } from '../../http/errors.js';
import { unixNow } from '../../lib/clock.js';
import type { BookingRow } from '../store.js';
import { DraftRefused, prepareDraft, type BookingDraft, type BookingOrigin } from './draft.js';
import { placeBooking } from './place.js';
import type { Outcome, Refusal } from './refusals.js';

/** A marketplace's reference for a booking: whose (the channel) and what it says. */
export interface ExternalReference {
  channel: string;
  reference: string;
}

/** Where a channel keeps its references: the only part of the recipe that differs between channels. */
export interface ReferenceLedger<L> {
  /** The link recorded under the reference, if any; read in the write transaction too. */
  find(db: Kysely<Database>): Promise<L | undefined>;
  /** Whether a recorded link is the answer to a retry; without it, every link is. */
  answers?(link: L): boolean;
  /**
   * Links the reference to the booking placed in `tx` (and writes the channel's own extras beside it);
   * false when a twin holds the reference already. `stale` is a recorded link that does not answer.
   */
  record(tx: Tx, booking: BookingRow, stale: L | undefined): Promise<boolean>;
}

/** The link that answers, and whether a twin made it (an earlier request, or a winner of the race). */
export type Reserved<L> = Outcome<{ link: L; twin: boolean }>;

/** Raised inside the write to roll it back when a twin holds the reference. */
class ReferenceTaken extends Error {}

/** A domain error of judging or placing a draft as its refusal; undefined for anything else. */
export function placementRefusal(error: unknown): Refusal | undefined {
  if (error instanceof DraftRefused) return error.refusal;
  if (!(error instanceof DomainError)) return undefined;
  const problems = error.errors && error.errors.length > 0 ? { problems: error.errors } : {};
  switch (error.kind) {
    case 'not-found':
      return { code: 'activity.unknown', message: error.message };
    case 'insufficient-capacity':
      return { code: 'seats.gone', message: error.message };
    case 'conflict':
      return { code: 'activity.unsellable', message: error.message };
    case 'validation':
      return { code: error.errors?.some((e) => e.field === 'Time') ? 'timeslot.closed' : 'draft.invalid', message: error.message, ...problems };
    default:
      return undefined;
  }
}

/**
 * Places the draft in a write transaction of its own, with the channel's rows beside it (`beside`); what
 * the domain refuses, the seats at commit included, is the outcome's refusal.
 */
export async function placeDraft(
  db: Db,
  origin: BookingOrigin,
  draft: BookingDraft,
  beside: (tx: Tx, booking: BookingRow) => Promise<void> = async () => {},
): Promise<Outcome<{ booking: BookingRow }>> {
  const now = unixNow();
  try {
    const booking = await db.write(async (tx) => {
      const placed = await placeBooking(tx, (await prepareDraft(tx, origin, draft, now)).placement, now);
      await beside(tx, placed);
      return placed;
    });
    return { ok: true, booking };
  } catch (error) {
    const refusal = placementRefusal(error);
    if (!refusal) throw error;
    return { ok: false, refusal };
  }
}

export async function reserveUnderReference<L>(
  db: Db,
  origin: BookingOrigin,
  draft: BookingDraft,
  external: ExternalReference,
  ledger: ReferenceLedger<L>,
): Promise<Reserved<L>> {
  const answers = (link: L | undefined): link is L => link !== undefined && (ledger.answers?.(link) ?? true);
  const earlier = await ledger.find(db.kysely);
  if (answers(earlier)) return { ok: true, link: earlier, twin: true };
  const now = unixNow();
  try {
    const twin = await db.write(async (tx) => {
      // Writers queue for the transaction: a twin that committed while this one waited is seen here.
      const committed = await ledger.find(tx);
      if (answers(committed)) return committed;
      const { placement } = await prepareDraft(tx, origin, draft, now);
      const booking = await placeBooking(tx, placement, now);
      // A twin on another PostgreSQL connection linked the reference first: give the seats back.
      if (!(await ledger.record(tx, booking, committed))) throw new ReferenceTaken();
      return undefined;
    });
    if (twin) return { ok: true, link: twin, twin: true };
  } catch (error) {
    if (error instanceof ReferenceTaken) {
      const winner = await ledger.find(db.kysely);
      if (!winner) throw new Error(`${external.channel} reference ${external.reference} was taken, but by no booking`);
      return { ok: true, link: winner, twin: true };
    }
    const refusal = placementRefusal(error);
    if (!refusal) throw error;
    return { ok: false, refusal };
  }
  const made = await ledger.find(db.kysely);
  if (!made) throw new Error(`${external.channel} reference ${external.reference} was not recorded`);
  return { ok: true, link: made, twin: false };
}
