// Cancelling a departure from the timeslot's dialog of the activity calendar (POST /timeslots/{ID}/cancel):
// the operator writes the message the guests get, confirms, and every booking of the timeslot is cancelled,
// refunded in full where paid online, and the guests e-mailed (docs/bookings.md). A cancelled timeslot
// shows when, by whom and with what message, and the bookings it cancelled.
import { useId, useState } from 'react';
import { api, ApiError, type Timeslot } from '../api';
import type { Schemas } from '../api-types';
import { formatInstant } from '../format';
import { Link } from '../router';
import { ErrorBanner, TextArea, useLoad, useToast } from '../ui';

type CancelledDeparture = Schemas['CancelledDeparture'];

export function CancelDeparture({ slot, onChanged }: { slot: Timeslot; onChanged: (slot: Timeslot) => void }) {
  const toast = useToast();
  const headingId = useId();
  const [asking, setAsking] = useState(false);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const cancelled = useLoad(
    (signal) =>
      slot.CancelledAt === null
        ? Promise.resolve(null)
        : api.get<CancelledDeparture>(`/api/v2/admin/timeslots/${slot.ID}/cancellation`, undefined, signal),
    [slot.ID, slot.CancelledAt],
  );
  const started = Date.parse(slot.StartsAt) <= Date.now();

  async function cancel() {
    if (message.trim() === '') {
      setError(
        new ApiError(
          422,
          'Unprocessable Entity',
          'Write the message your guests get',
          [{ field: 'Message', message: 'Write the message your guests get' }],
          'validation',
        ),
      );
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const done = await api.post<CancelledDeparture>(`/api/v2/admin/timeslots/${slot.ID}/cancel`, { Message: message });
      toast(`The departure is cancelled: ${done.Bookings.length} ${done.Bookings.length === 1 ? 'booking' : 'bookings'} cancelled and told.`);
      setAsking(false);
      onChanged(await api.get<Timeslot>(`/api/v2/admin/timeslots/${slot.ID}`));
    } catch (caught) {
      setError(caught as ApiError);
    } finally {
      setBusy(false);
    }
  }

  if (slot.CancelledAt !== null) {
    const data = cancelled.data;
    return (
      <section className="departure-cancelled" aria-labelledby={headingId}>
        <h3 id={headingId}>Departure cancelled</h3>
        {data && (
          <>
            <p>
              {formatInstant(data.CancelledAt)} by {data.CancelledBy}. Message to the guests:
            </p>
            <blockquote className="departure-message">{data.Message}</blockquote>
            {data.Bookings.length > 0 && (
              <ul className="departure-bookings">
                {data.Bookings.map((booking) => (
                  <li key={booking.BookingReference}>
                    <Link href={`/bookings/${booking.BookingReference}`}>{booking.BookingReference}</Link> {booking.Customer.FirstName}{' '}
                    {booking.Customer.LastName}
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
        <ErrorBanner error={cancelled.error} />
      </section>
    );
  }
  if (started) return null;
  if (!asking)
    return (
      <div className="departure-actions">
        <button type="button" className="btn btn-danger-outline" onClick={() => setAsking(true)}>
          Cancel departure…
        </button>
      </div>
    );
  return (
    <section className="departure-cancel" aria-labelledby={headingId}>
      <h3 id={headingId}>Cancel this departure</h3>
      <p>
        Every booking of this timeslot ({slot.Booked} {slot.Booked === 1 ? 'seat' : 'seats'}) is cancelled, what was paid online is refunded in full,
        and each guest is e-mailed your message with a link to book another time. Nobody can book it any more. This cannot be undone.
      </p>
      <TextArea
        label="Message to the guests"
        rows={4}
        maxLength={2000}
        value={message}
        onChange={(event) => setMessage(event.target.value)}
        hint="Plain text, sent as you write it."
        error={error?.fieldError('Message')}
      />
      <div className="inline-actions">
        <button type="button" className="btn btn-secondary" onClick={() => (setAsking(false), setError(undefined))}>
          Keep it
        </button>
        <button type="button" className="btn btn-danger" disabled={busy} onClick={cancel}>
          {busy ? 'Working…' : 'Cancel departure'}
        </button>
      </div>
      <ErrorBanner error={error && !error.fieldError('Message') ? error : undefined} />
    </section>
  );
}
