// The check-in buttons of one booking, shared by the manifest's rows and the door's look-up (CheckIn.tsx).
import { useState } from 'react';
import type { ApiError } from '../api';
import { formatInstant } from '../format';
import { Badge, Icon, TextField, useToast } from '../ui';
import { ATTENDANCE_LABELS, ATTENDANCE_TONES, checkIn, undoCheckIn, type CheckinAnswer, type ManifestEntry } from '../manifests';

/** Check in everyone, some per ticket type, or undo; the server's answer replaces the row. */
export function CheckinControls({
  entry,
  onChange,
  large = false,
}: {
  entry: ManifestEntry;
  onChange: (answer: CheckinAnswer) => void;
  large?: boolean;
}) {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const [picking, setPicking] = useState(false);
  const [counts, setCounts] = useState<Record<string, number>>({});
  const size = large ? '' : 'btn-sm';
  const name = `${entry.Customer.FirstName} ${entry.Customer.LastName}`;

  async function run(action: () => Promise<CheckinAnswer>, done: string) {
    setBusy(true);
    setError(undefined);
    try {
      const answer = await action();
      onChange(answer);
      setPicking(false);
      toast(answer.Changed ? done : 'Nothing changed: it already was so', 'success');
    } catch (caught) {
      setError(caught as ApiError);
    } finally {
      setBusy(false);
    }
  }

  if (entry.Status !== 'confirmed')
    return <Badge tone="danger">{entry.Status === 'on_hold' ? 'On hold' : entry.Status === 'cancelled' ? 'Cancelled' : 'Expired'}</Badge>;
  const tickets = entry.Tickets.reduce((sum, ticket) => sum + ticket.Quantity, 0);
  return (
    <div className="checkin-controls">
      <Badge tone={ATTENDANCE_TONES[entry.Attendance]}>
        {ATTENDANCE_LABELS[entry.Attendance]}
        {entry.Attendance === 'partial' && ` (${entry.CheckedIn} of ${entry.Participants})`}
      </Badge>
      {entry.CheckedInAt && <span className="small muted">since {formatInstant(entry.CheckedInAt)}</span>}
      <div className="checkin-buttons no-print">
        {entry.Attendance !== 'checked-in' && (
          <button
            type="button"
            className={`btn btn-primary ${size}`}
            disabled={busy}
            onClick={() => run(() => checkIn(entry.BookingReference), `${name} checked in`)}
          >
            <Icon name="check" size={16} />
            Check in{tickets > 1 ? ` all ${tickets}` : ''}
            <span className="visually-hidden"> of {name}</span>
          </button>
        )}
        {tickets > 1 && !picking && (
          <button
            type="button"
            className={`btn btn-secondary ${size}`}
            disabled={busy}
            onClick={() => {
              setCounts(Object.fromEntries(entry.Tickets.map((ticket) => [ticket.Type, ticket.CheckedIn])));
              setPicking(true);
            }}
          >
            Some<span className="visually-hidden"> of {name}'s party</span>
          </button>
        )}
        {entry.CheckedIn > 0 && (
          <button
            type="button"
            className={`btn btn-ghost ${size}`}
            disabled={busy}
            onClick={() => run(() => undoCheckIn(entry.BookingReference), `${name}'s check-in undone`)}
          >
            Undo<span className="visually-hidden"> check-in of {name}</span>
          </button>
        )}
      </div>
      {picking && (
        <form
          className="checkin-some no-print"
          onSubmit={(event) => {
            event.preventDefault();
            void run(
              () =>
                checkIn(
                  entry.BookingReference,
                  entry.Tickets.map((ticket) => ({ Type: ticket.Type, CheckedIn: counts[ticket.Type] ?? 0 })),
                ),
              `${name}: check-in saved`,
            );
          }}
        >
          {entry.Tickets.map((ticket, index) => (
            <TextField
              key={ticket.Type}
              label={`${ticket.Name} in (of ${ticket.Quantity})`}
              type="number"
              inputMode="numeric"
              min={0}
              max={ticket.Quantity}
              value={String(counts[ticket.Type] ?? 0)}
              error={error?.fieldError(`Tickets[${index}].CheckedIn`)}
              onChange={(e) => setCounts((current) => ({ ...current, [ticket.Type]: Number(e.target.value) }))}
            />
          ))}
          <div className="checkin-buttons">
            <button type="submit" className={`btn btn-primary ${size}`} disabled={busy}>
              Save
            </button>
            <button type="button" className={`btn btn-ghost ${size}`} onClick={() => setPicking(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {error && !error.errors.length && <p className="field-error">{error.message}</p>}
    </div>
  );
}
