// The check-in buttons of one booking, shared by the manifest's rows and the door's look-up (CheckIn.tsx),
// and what the booking still owes with the form that records the balance taken at the desk.
import { useState } from 'react';
import type { ApiError } from '../api';
import { formatInstant, formatMoney } from '../format';
import { useSession } from '../session';
import { Badge, Checkbox, Icon, SelectField, TextField, useToast } from '../ui';
import {
  ATTENDANCE_LABELS,
  ATTENDANCE_TONES,
  checkIn,
  DESK_METHOD_LABELS,
  lookUp,
  PAYMENT_STATE_LABELS,
  PAYMENT_STATE_TONES,
  recordPayment,
  undoCheckIn,
  type CheckinAnswer,
  type DeskPaymentBody,
  type ManifestEntry,
} from '../manifests';

/** The booking's payment state and what it still owes. */
export function PaymentCell({ entry }: { entry: ManifestEntry }) {
  return (
    <div className="payment-cell">
      <Badge tone={PAYMENT_STATE_TONES[entry.PaymentState]}>{PAYMENT_STATE_LABELS[entry.PaymentState]}</Badge>
      {entry.AmountDueMinorUnits > 0 && <div className="small strong">{formatMoney(entry.AmountDueMinorUnits, entry.Currency)} due</div>}
    </div>
  );
}

/** Records the balance (or part of it) taken at the desk; the booking is then read again. */
export function TakePayment({
  entry,
  onChange,
  large = false,
}: {
  entry: ManifestEntry;
  onChange: (answer: CheckinAnswer) => void;
  large?: boolean;
}) {
  const { can } = useSession();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const [method, setMethod] = useState<DeskPaymentBody['Method']>('cash');
  const [amount, setAmount] = useState('');
  const [reference, setReference] = useState('');
  if (entry.AmountDueMinorUnits === 0 || !can('bookings:write') || entry.Status !== 'confirmed') return null;
  const size = large ? '' : 'btn-sm';
  const name = `${entry.Customer.FirstName} ${entry.Customer.LastName}`;
  if (!open)
    return (
      <button
        type="button"
        className={`btn btn-secondary ${size} no-print`}
        onClick={() => {
          setAmount(entry.AmountDue);
          setOpen(true);
        }}
      >
        Take payment<span className="visually-hidden"> of {name}</span>
      </button>
    );
  async function submit() {
    setBusy(true);
    setError(undefined);
    try {
      const paid = await recordPayment(entry.BookingReference, {
        Method: method,
        Amount: amount.trim(),
        ...(reference.trim() && { Reference: reference.trim() }),
      });
      onChange(await lookUp(entry.BookingReference).then((answer) => ({ ...answer, Changed: false })));
      setOpen(false);
      toast(`${formatMoney(paid.Payment.AmountMinorUnits, paid.Payment.Currency)} recorded for ${name}`, 'success');
    } catch (caught) {
      setError(caught as ApiError);
    } finally {
      setBusy(false);
    }
  }
  return (
    <form
      className="take-payment no-print"
      aria-label={`Payment of ${name}`}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <SelectField label="Method" value={method} onChange={(e) => setMethod(e.target.value as DeskPaymentBody['Method'])}>
        {Object.entries(DESK_METHOD_LABELS).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </SelectField>
      <TextField
        label={`Amount (${entry.Currency})`}
        inputMode="decimal"
        value={amount}
        error={error?.fieldError('Amount')}
        onChange={(e) => setAmount(e.target.value)}
      />
      {method !== 'cash' && (
        <TextField
          label={method === 'voucher' ? 'Voucher code' : method === 'invoice' ? 'Invoice number' : 'Receipt number'}
          value={reference}
          error={error?.fieldError('Reference')}
          onChange={(e) => setReference(e.target.value)}
        />
      )}
      <div className="checkin-buttons">
        <button type="submit" className={`btn btn-primary ${size}`} disabled={busy}>
          Record payment
        </button>
        <button type="button" className={`btn btn-ghost ${size}`} onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
      {error && !error.errors.length && <p className="field-error">{error.message}</p>}
    </form>
  );
}

/** Check in everyone, some per ticket type, or undo; the server's answer replaces the row. */
export function CheckinControls({
  entry,
  timeZone,
  onChange,
  large = false,
}: {
  entry: ManifestEntry;
  /** The activity's time zone: check-in times read as the guide's watch does there. */
  timeZone: string;
  onChange: (answer: CheckinAnswer) => void;
  large?: boolean;
}) {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const [picking, setPicking] = useState(false);
  const [counts, setCounts] = useState<Record<string, number>>({});
  const [waiverConfirmed, setWaiverConfirmed] = useState(false);
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
      {entry.CheckedInAt && <span className="small muted">since {formatInstant(entry.CheckedInAt, timeZone)}</span>}
      {entry.WaiverMissing && entry.Attendance !== 'checked-in' && (
        <div className="waiver-missing no-print">
          <Checkbox
            label={`${name} may take part: I have checked (a signed paper waiver, say)`}
            checked={waiverConfirmed}
            onChange={(e) => setWaiverConfirmed(e.target.checked)}
          />
          {error?.fieldError('WaiverConfirmed') && <p className="field-error">{error.fieldError('WaiverConfirmed')}</p>}
        </div>
      )}
      <div className="checkin-buttons no-print">
        {entry.Attendance !== 'checked-in' && (
          <button
            type="button"
            className={`btn btn-primary ${size}`}
            disabled={busy}
            onClick={() => run(() => checkIn(entry.BookingReference, undefined, waiverConfirmed), `${name} checked in`)}
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
                  waiverConfirmed,
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
      <TakePayment entry={entry} onChange={onChange} large={large} />
    </div>
  );
}
