// My e-mails about bookings: none, one per booking (new, moved, cancelled, every channel), or a daily digest.
import { useState } from 'react';
import { api, type ApiError, type StaffUser } from '../api';
import { useSession } from '../session';
import { ErrorBanner, useToast } from '../ui';

const CHOICES = [
  ['none', 'None'],
  ['each', 'One e-mail per booking: new, moved or cancelled'],
  ['digest', 'A daily digest of the last 24 hours (sent from 06:00 UTC)'],
] as const;

export function BookingNotices() {
  const { me, refresh } = useSession();
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  async function choose(value: StaffUser['BookingNotices']) {
    setBusy(true);
    setError(undefined);
    try {
      await api.put('/api/v2/staff/me/booking-notices', { BookingNotices: value });
      refresh();
      toast(value === 'none' ? 'You get no e-mails about bookings.' : `Booking e-mails go to ${me.User.Email}.`);
    } catch (caught) {
      setError(caught as ApiError);
    } finally {
      setBusy(false);
    }
  }
  return (
    <fieldset className="fieldset" disabled={busy}>
      <legend>E-mails to {me.User.Email} about bookings of every channel</legend>
      <div className="checks">
        {CHOICES.map(([value, label]) => (
          <div className="check" key={value}>
            <input
              type="radio"
              id={`notices-${value}`}
              name="booking-notices"
              checked={me.User.BookingNotices === value}
              onChange={() => void choose(value)}
            />
            <label htmlFor={`notices-${value}`} className="check-label">
              {label}
            </label>
          </div>
        ))}
      </div>
      <ErrorBanner error={error} />
    </fieldset>
  );
}
