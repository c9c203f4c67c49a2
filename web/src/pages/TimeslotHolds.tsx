import { useState } from 'react';
import { api, type ApiError, type Timeslot } from '../api';
import type { Schemas } from '../api-types';
import { formatInstant } from '../format';
import { Link } from '../router';
import { ErrorBanner, Spinner, useLoad, useToast } from '../ui';

/** A live hold, as GET /api/v2/admin/holds lists it. */
type Hold = Schemas['Hold'];

function holder(hold: Hold): string {
  switch (hold.Channel) {
    case 'shop':
      return `Online shop, client ${hold.Client ?? '?'}${hold.CheckoutStarted ? ', paying' : ''}`;
    case 'waitlist-offer':
      return 'Waitlist offer';
    case 'partner-api':
      return `Partner ${hold.Partner}`;
    case 'octo':
      return `OCTo reseller ${hold.Partner}`;
    default:
      return 'Point of sale';
  }
}

const seats = (n: number) => (n === 1 ? '1 seat' : `${n} seats`);

/**
 * The live holds of a timeslot (seats blocked until paid, confirmed or lapsed), who holds them and until
 * when; releasing one, or all, puts their seats back on sale at once. Each release asks once more first.
 */
export function TimeslotHolds({ slot, onChanged }: { slot: Timeslot; onChanged: (slot: Timeslot) => void }) {
  const toast = useToast();
  const holds = useLoad((signal) => api.get<Hold[]>('/api/v2/admin/holds', { TimeslotID: slot.ID }, signal), [slot.ID, slot.Booked]);
  const [asking, setAsking] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const list = holds.data ?? [];
  const held = list.reduce((sum, hold) => sum + hold.Seats, 0);

  async function release(which: string) {
    setBusy(true);
    setError(undefined);
    try {
      if (which === 'all') {
        const done = await api.post<{ Released: number; Seats: number }>('/api/v2/admin/holds/release', { TimeslotID: slot.ID });
        toast(`Released ${done.Released} ${done.Released === 1 ? 'hold' : 'holds'}: ${seats(done.Seats)} back on sale.`);
      } else {
        await api.post(`/api/v2/admin/holds/${which}/release`);
        toast(`Released the hold ${which}; its seats are back on sale.`);
      }
      setAsking(undefined);
      onChanged(await api.get<Timeslot>(`/api/v2/admin/timeslots/${slot.ID}`));
    } catch (caught) {
      setError(caught as ApiError);
    } finally {
      setBusy(false);
    }
  }

  const confirm = (which: string, label: string) => (
    <span className="hold-confirm" role="group" aria-label={label}>
      <button type="button" className="btn btn-danger btn-sm" disabled={busy} onClick={() => release(which)}>
        {busy ? 'Releasing…' : 'Yes, release'}
      </button>
      <button type="button" className="btn btn-secondary btn-sm" onClick={() => setAsking(undefined)}>
        Keep
      </button>
    </span>
  );

  return (
    <section className="holds" aria-labelledby={`holds-${slot.ID}`}>
      <div className="holds-header">
        <h3 id={`holds-${slot.ID}`}>
          Held seats
          {list.length > 0 && (
            <span className="muted">
              {' '}
              · {seats(held)} in {list.length} {list.length === 1 ? 'hold' : 'holds'}
            </span>
          )}
        </h3>
        {list.length > 1 &&
          (asking === 'all' ? (
            confirm('all', `Release all ${list.length} holds?`)
          ) : (
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => setAsking('all')}>
              Release all
            </button>
          ))}
      </div>
      <ErrorBanner error={holds.error ?? error} onRetry={holds.error ? holds.reload : undefined} />
      {holds.loading && !holds.data ? (
        <Spinner label="Loading the holds" />
      ) : list.length === 0 ? (
        <p className="muted">No seats are on hold: every booked seat is a confirmed booking.</p>
      ) : (
        <ul className="holds-list">
          {list.map((hold) => (
            <li key={hold.BookingReference}>
              <span className="holds-what">
                <strong>{seats(hold.Seats)}</strong> · {holder(hold)}
                <span className="muted"> · until {formatInstant(hold.HoldExpiresAt)}</span>
                <br />
                <Link href={`/bookings/${hold.BookingReference}`} className="mono">
                  {hold.BookingReference}
                </Link>
              </span>
              {asking === hold.BookingReference ? (
                confirm(hold.BookingReference, `Release hold ${hold.BookingReference}?`)
              ) : (
                <button
                  type="button"
                  className="btn btn-secondary btn-sm"
                  aria-label={`Release hold ${hold.BookingReference}`}
                  onClick={() => setAsking(hold.BookingReference)}
                >
                  Release
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
