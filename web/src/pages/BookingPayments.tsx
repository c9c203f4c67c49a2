// The money of one booking on its page: what was paid (the basket's payments), what went back (its refunds,
// a failed one with Retry), and the refund form. The same choice (everything left, a part, nothing) is asked
// when staff cancel a paid booking (BookingDetail.tsx). Refunds are for payments:manage (owners, admin keys).
import { useId, useState, type FormEvent } from 'react';
import { api, type AdminBooking, type ApiError, type BookingRefund } from '../api';
import { formatInstant, formatMoney } from '../format';
import { useSession } from '../session';
import { Badge, Card, DataTable, Dialog, ErrorBanner, figure, TextField, useToast } from '../ui';

/** What the booking may still get back (the server's word: its share of the online payment less refunds pending or made). */
export const refundable = (booking: AdminBooking): number => booking.AmountRefundable;

export type RefundChoice = { kind: 'all' | 'part' | 'none'; amount: string };

/** Everything left, a part (typed in the currency) or nothing. */
export function RefundChoiceFields({
  booking,
  choice,
  onChange,
  allowNone,
  error,
}: {
  booking: AdminBooking;
  choice: RefundChoice;
  onChange: (choice: RefundChoice) => void;
  allowNone: boolean;
  error?: string;
}) {
  const name = useId();
  const left = formatMoney(refundable(booking), booking.Currency);
  const option = (kind: RefundChoice['kind'], label: string) => (
    <div className="check">
      <input type="radio" id={`${name}-${kind}`} name={name} checked={choice.kind === kind} onChange={() => onChange({ ...choice, kind })} />
      <label htmlFor={`${name}-${kind}`} className="check-label">
        {label}
      </label>
    </div>
  );
  return (
    <fieldset className="fieldset">
      <legend>Refund to the guest</legend>
      <div className="checks checks-row" role="radiogroup" aria-label="How much to refund">
        {option('all', `All that is left (${left})`)}
        {option('part', 'Part')}
        {allowNone && option('none', 'Nothing')}
      </div>
      {choice.kind === 'part' && (
        <TextField
          label={`Amount (${booking.Currency})`}
          inputMode="decimal"
          required
          autoFocus
          value={choice.amount}
          onChange={(e) => onChange({ ...choice, amount: e.target.value })}
          error={error}
          hint={`At most ${left}.`}
        />
      )}
    </fieldset>
  );
}

/** Asks the refund of the choice (one refund per payment it is taken from); undefined for "nothing". */
export function requestRefund(reference: string, choice: RefundChoice): Promise<BookingRefund[]> | undefined {
  if (choice.kind === 'none') return undefined;
  const body = choice.kind === 'part' ? { Amount: choice.amount.trim().replace(',', '.') } : {};
  return api.post<BookingRefund[]>(`/api/v2/admin/bookings/${reference}/refund`, body);
}

/** What the toast says of the refunds made: their sum, asked while any waits for Stripe. */
export function refundToast(refunds: BookingRefund[]): string {
  const sum = refunds.reduce((total, refund) => total + refund.AmountMinorUnits, 0);
  const pending = refunds.some((refund) => refund.Status === 'pending');
  return `Refund of ${formatMoney(sum, refunds[0]?.Currency ?? '')} ${pending ? 'asked' : 'made'}.`;
}

const STATUS_TONES: Record<string, string> = {
  succeeded: 'success',
  pending: 'warning',
  failed: 'danger',
  refunded: 'neutral',
  refunding: 'warning',
};
const PROVIDERS: Record<string, string> = { stripe: 'Stripe', test: 'Test provider' };
const DESK_METHODS: Record<string, string> = { cash: 'Cash', card_terminal: 'Card terminal', invoice: 'Invoice', voucher: 'Voucher' };
const REQUESTERS: Record<string, string> = { user: 'Staff', key: 'API key', guest: 'Guest', system: 'slotbook' };

/** The payment that took the booking's money (its provider's reference is the one to look up). */
export const takenBy = (booking: AdminBooking) => booking.Payments.find((payment) => payment.Status === 'succeeded');

function RefundDialog({ booking, onClose, reload }: { booking: AdminBooking; onClose: () => void; reload: () => void }) {
  const toast = useToast();
  const [choice, setChoice] = useState<RefundChoice>({ kind: 'all', amount: '' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const refunds = await requestRefund(booking.BookingReference, choice);
      if (refunds) toast(refundToast(refunds));
      onClose();
      reload();
    } catch (caught) {
      setError(caught as ApiError);
      // A refund Stripe failed is recorded all the same (shown with Retry): the page behind must show it.
      if ((caught as ApiError).status === 502) reload();
    } finally {
      setBusy(false);
    }
  }
  return (
    <Dialog
      open
      title={`Refund booking ${booking.BookingReference}`}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            Close
          </button>
          <button type="submit" form="refund-form" className="btn btn-primary" disabled={busy}>
            {busy ? 'Refunding…' : 'Refund'}
          </button>
        </>
      }
    >
      <form id="refund-form" onSubmit={submit} noValidate>
        <RefundChoiceFields booking={booking} choice={choice} onChange={setChoice} allowNone={false} error={error?.fieldError('Amount')} />
        <p className="muted">The money goes back to the card or account the guest paid with. This cannot be undone.</p>
      </form>
      <ErrorBanner error={error && !error.fieldError('Amount') ? error : undefined} />
    </Dialog>
  );
}

/** The booking's payments and refunds; Refund and Retry for whoever may move the operator's money. */
export function PaymentsCard({ booking, onChange }: { booking: AdminBooking; onChange: () => void }) {
  const { can } = useSession();
  const toast = useToast();
  const [refunding, setRefunding] = useState(false);
  const [retrying, setRetrying] = useState<number>();
  const [error, setError] = useState<ApiError>();
  const mayRefund = can('payments:manage') && refundable(booking) > 0;

  async function retry(refund: BookingRefund) {
    setRetrying(refund.RefundID);
    setError(undefined);
    try {
      const answered = await api.post<BookingRefund>(`/api/v2/admin/bookings/${booking.BookingReference}/refunds/${refund.RefundID}/retry`);
      toast(`Refund ${answered.RefundID} is ${answered.Status}.`);
    } catch (caught) {
      setError(caught as ApiError);
    } finally {
      setRetrying(undefined);
      onChange();
    }
  }

  if (booking.Payments.length === 0 && booking.Refunds.length === 0) return null;
  return (
    <Card
      title="Payments"
      actions={
        mayRefund && (
          <button type="button" className="btn btn-secondary" onClick={() => setRefunding(true)}>
            Refund…
          </button>
        )
      }
    >
      <dl className="facts">
        <dt>Paid for this booking</dt>
        <dd>{formatMoney(booking.AmountPaid, booking.Currency)}</dd>
        <dt>Refunded</dt>
        <dd>{formatMoney(booking.AmountRefunded, booking.Currency)}</dd>
      </dl>
      <DataTable
        rows={booking.Payments}
        label="Payments of the basket"
        scrollable
        columns={['Time', 'Method', 'Reference', figure('Amount'), 'Status']}
      >
        {(payment) => (
          <tr key={payment.PaymentID}>
            <td>{formatInstant(payment.CreatedAt)}</td>
            <td>
              {payment.Provider === 'desk' ? (DESK_METHODS[payment.Method] ?? payment.Method) : (PROVIDERS[payment.Provider] ?? payment.Provider)}
            </td>
            <td className="mono">{payment.ProviderReference ?? '—'}</td>
            <td className="num">{formatMoney(payment.AmountMinorUnits, payment.Currency)}</td>
            <td>
              <Badge tone={STATUS_TONES[payment.Status] ?? 'neutral'}>{payment.Status}</Badge>
            </td>
          </tr>
        )}
      </DataTable>
      {booking.Payments.some((payment) => payment.Method === 'online' && payment.AmountMinorUnits > booking.AmountPaid) && (
        <p className="muted">A payment covers the whole basket the booking was bought in; this booking's part is what it paid for.</p>
      )}
      {booking.Refunds.length > 0 && <h3 className="subheading">Refunds</h3>}
      {booking.Refunds.length > 0 && (
        <DataTable
          rows={booking.Refunds}
          label="Refunds"
          scrollable
          actions="Retry"
          columns={['Time', 'Reason', 'Reference', figure('Amount'), 'Status']}
        >
          {(refund) => (
            <tr key={refund.RefundID} data-refund={refund.RefundID}>
              <td>{formatInstant(refund.CreatedAt)}</td>
              <td>{refund.Reason === 'guest-cancellation' ? "Guest's cancellation" : (REQUESTERS[refund.RequestedBy] ?? refund.RequestedBy)}</td>
              <td className="mono">{refund.ProviderReference ?? '—'}</td>
              <td className="num">{formatMoney(refund.AmountMinorUnits, refund.Currency)}</td>
              <td>
                <Badge tone={STATUS_TONES[refund.Status] ?? 'neutral'} title={refund.Failure ?? undefined}>
                  {refund.Status}
                </Badge>
                {refund.Failure && <span className="muted"> {refund.Failure}</span>}
              </td>
              <td>
                {refund.Status === 'failed' && can('payments:manage') && (
                  <button type="button" className="btn btn-secondary" disabled={retrying === refund.RefundID} onClick={() => retry(refund)}>
                    {retrying === refund.RefundID ? 'Retrying…' : `Retry refund ${refund.RefundID}`}
                  </button>
                )}
              </td>
            </tr>
          )}
        </DataTable>
      )}
      {booking.Refunds.some((refund) => refund.Status === 'failed') && (
        <p className="muted">Retry a failed refund rather than making a new one: the retry cannot refund twice.</p>
      )}
      <ErrorBanner error={error} />
      {refunding && <RefundDialog booking={booking} onClose={() => setRefunding(false)} reload={onChange} />}
    </Card>
  );
}
