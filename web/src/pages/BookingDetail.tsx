import { useState } from 'react';
import { api, ApiError, type AdminBooking, type Booking } from '../api';
import { useActivities } from '../activities';
import { formatDate, formatInstant, formatMoney, marketplaceName, SOURCE_LABELS } from '../format';
import { Link, usePageTitle } from '../router';
import { Card, ConfirmDialog, EmptyState, ErrorBanner, Icon, PageHeader, Spinner, useLoad, useToast } from '../ui';
import { SourceBadge, StatusBadge, TotalRow, WaiverBadge } from './booking-bits';
import { WaiverAnswersCard } from './WaiverAnswers';
import { BookingQrCard } from './BookingQr';
import { PaymentsCard, RefundChoiceFields, refundable, refundToast, requestRefund, takenBy, type RefundChoice } from './BookingPayments';
import { useSession } from '../session';
import { BookingDisputes } from './BookingDisputes';
import { RescheduleButton } from './RescheduleDialog';

/** One booking by its reference; null when the operator has none with it. */
async function findBooking(reference: string, signal?: AbortSignal): Promise<AdminBooking | null> {
  try {
    return await api.get<AdminBooking>(`/api/v2/admin/bookings/${reference}`, undefined, signal);
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return null;
    throw error;
  }
}

export function BookingDetailPage({ reference }: { reference: string }) {
  usePageTitle(`Booking ${reference}`);
  const toast = useToast();
  const { byId } = useActivities();
  const loaded = useLoad((signal) => findBooking(reference, signal), [reference]);
  const [confirming, setConfirming] = useState<'cancel' | 'release'>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const [refundChoice, setRefundChoice] = useState<RefundChoice>({ kind: 'all', amount: '' });
  const { can } = useSession();
  const booking = loaded.data;
  // A paid booking's cancellation asks what to give back (nothing by itself: docs/payments.md).
  const asksRefund = booking !== null && booking !== undefined && can('payments:manage') && refundable(booking) > 0;

  // Cancelling e-mails the customer (workflows); releasing a hold ends it quietly, as if it had lapsed.
  async function act() {
    setBusy(true);
    setError(undefined);
    try {
      const release = confirming === 'release';
      // The amount is checked first, so that a typo does not leave a cancelled booking without its refund.
      if (!release && asksRefund && refundChoice.kind === 'part' && !/^\s*[0-9]+([.,][0-9]+)?\s*$/.test(refundChoice.amount)) {
        const message = 'Type the amount to refund, such as 12.50';
        throw new ApiError(422, 'Unprocessable Entity', message, [{ field: 'Amount', message }], 'validation');
      }
      const changed = await api.post<Booking>(release ? `/api/v2/admin/holds/${reference}/release` : `/api/v2/admin/bookings/${reference}/cancel`);
      // The new status shows at once; the money (a refund asked below) comes with the reload.
      if (booking) loaded.setData({ ...booking, ...changed });
      setConfirming(undefined);
      toast(
        release ? `The hold ${reference} is released; its seats are back on sale.` : `Booking ${reference} is cancelled; its seats are back on sale.`,
      );
      if (!release && asksRefund) {
        try {
          const refunds = await requestRefund(reference, refundChoice);
          if (refunds) toast(refundToast(refunds));
        } catch (caught) {
          toast(`The booking is cancelled, but the refund failed: ${(caught as ApiError).message}. Refund it from Payments.`);
        }
      }
      loaded.reload();
    } catch (caught) {
      setError(caught as ApiError);
    } finally {
      setBusy(false);
    }
  }

  const back = (
    <Link href="/bookings" className="back-link">
      <Icon name="left" size={16} />
      All bookings
    </Link>
  );
  if (loaded.loading && !booking)
    return (
      <div className="page">
        {back}
        <Spinner label="Loading the booking" />
      </div>
    );
  if (loaded.error)
    return (
      <div className="page">
        {back}
        <ErrorBanner error={loaded.error} onRetry={loaded.reload} />
      </div>
    );
  if (!booking) {
    return (
      <div className="page">
        {back}
        <h1 tabIndex={-1} className="visually-hidden">
          Booking {reference}
        </h1>
        <EmptyState icon="search" title={`No booking ${reference}`}>
          This reference does not belong to any of your bookings.
        </EmptyState>
      </div>
    );
  }

  const activity = byId.get(booking.ActivityID);
  const active = booking.Status === 'confirmed' || booking.Status === 'on_hold';
  return (
    <div className="page">
      {back}
      <PageHeader
        title={`Booking ${booking.BookingReference}`}
        description={
          <span className="header-badges">
            <StatusBadge status={booking.Status} /> <SourceBadge booking={booking} /> <WaiverBadge status={booking.WaiverStatus} />
          </span>
        }
        actions={
          active && (
            <>
              {booking.Status === 'on_hold' && (
                <button type="button" className="btn btn-secondary" onClick={() => setConfirming('release')}>
                  Release hold
                </button>
              )}
              <RescheduleButton booking={booking} onMoved={loaded.reload} />
              <button type="button" className="btn btn-danger-outline" onClick={() => setConfirming('cancel')}>
                Cancel booking
              </button>
            </>
          )
        }
      />
      <BookingDisputes booking={booking} />
      <div className="detail-grid">
        <Card title="Visit">
          <dl className="facts">
            <dt>Activity</dt>
            <dd>{activity ? <Link href={`/activities/${activity.ActivityID}`}>{activity.Name}</Link> : <code>{booking.ActivityID}</code>}</dd>
            <dt>Date</dt>
            <dd>{formatDate(booking.Date)}</dd>
            <dt>Time</dt>
            <dd>
              {booking.Time}
              {activity && <span className="muted"> ({activity.Timezone})</span>}
            </dd>
            <dt>Participants</dt>
            <dd>
              {booking.Participants}
              {booking.Seats !== booking.Participants && (
                <span className="muted">
                  {' '}
                  ({booking.Seats} {booking.Seats === 1 ? 'seat' : 'seats'})
                </span>
              )}
            </dd>
            <dt>Price</dt>
            <dd>{formatMoney(booking.Total, booking.Currency)}</dd>
          </dl>
          {/* Focusable: a narrow card scrolls the table sideways, and a keyboard must be able to scroll it too. */}
          <div className="table-wrap" tabIndex={0} role="region" aria-label="Tickets of this booking">
            <table className="table ticket-table" aria-label="Tickets">
              <thead>
                <tr>
                  <th scope="col">Ticket</th>
                  <th scope="col" className="num">
                    Quantity
                  </th>
                  <th scope="col" className="num">
                    Price
                  </th>
                  <th scope="col" className="num">
                    Amount
                  </th>
                </tr>
              </thead>
              <tbody>
                {booking.Tickets.map((ticket) => (
                  <tr key={ticket.Type} data-ticket-type={ticket.Type}>
                    <th scope="row">{ticket.Name}</th>
                    <td className="num">{ticket.Quantity}</td>
                    <td className="num">{formatMoney(ticket.UnitPrice, booking.Currency)}</td>
                    <td className="num">{formatMoney(ticket.UnitPrice * ticket.Quantity, booking.Currency)}</td>
                  </tr>
                ))}
              </tbody>
              <TotalRow columns={4} amount={booking.Total} currency={booking.Currency} />
            </table>
          </div>
        </Card>
        <Card title="Customer">
          <dl className="facts">
            <dt>Name</dt>
            <dd>
              {booking.Customer.FirstName} {booking.Customer.LastName}
            </dd>
            <dt>E-mail</dt>
            <dd>
              {booking.Customer.Email ? (
                <a href={`mailto:${booking.Customer.Email}`}>{booking.Customer.Email}</a>
              ) : (
                <span className="muted">Not given: the guest gets no e-mails</span>
              )}
            </dd>
            <dt>Phone</dt>
            <dd>
              {booking.Customer.Phone ? (
                <a href={`tel:${booking.Customer.Phone}`}>{booking.Customer.Phone}</a>
              ) : (
                <span className="muted">Not given</span>
              )}
            </dd>
            <dt>Waiver</dt>
            <dd>{booking.WaiverStatus === 'complete' ? 'Answered' : 'Not answered yet'}</dd>
          </dl>
        </Card>
        <Card title="Channel">
          <dl className="facts">
            <dt>Source</dt>
            <dd>{SOURCE_LABELS[booking.Source]}</dd>
            {booking.Source === 'partner' && (
              <>
                <dt>Marketplace</dt>
                <dd className="strong">{marketplaceName(booking.Partner ?? '')}</dd>
              </>
            )}
            <dt>Payment reference</dt>
            <dd className="mono">{booking.PaymentReference ?? takenBy(booking)?.ProviderReference ?? <span className="muted">none</span>}</dd>
            <dt>Booked at</dt>
            <dd>{formatInstant(booking.CreatedAt)}</dd>
            {booking.TermsAcceptance && (
              <>
                <dt>Terms accepted</dt>
                <dd>
                  {formatInstant(booking.TermsAcceptance.AcceptedAt)}
                  {booking.TermsAcceptance.TermsUrl && (
                    <>
                      {' · '}
                      <a href={booking.TermsAcceptance.TermsUrl} target="_blank" rel="noopener noreferrer">
                        terms
                      </a>
                    </>
                  )}
                  {booking.TermsAcceptance.PrivacyUrl && (
                    <>
                      {' · '}
                      <a href={booking.TermsAcceptance.PrivacyUrl} target="_blank" rel="noopener noreferrer">
                        privacy notice
                      </a>
                    </>
                  )}
                </dd>
              </>
            )}
            {booking.HoldExpiresAt && (
              <>
                <dt>Hold expires</dt>
                <dd>{formatInstant(booking.HoldExpiresAt)}</dd>
              </>
            )}
          </dl>
        </Card>
      </div>
      <PaymentsCard booking={booking} onChange={loaded.reload} />
      <WaiverAnswersCard reference={booking.BookingReference} />
      <BookingQrCard reference={booking.BookingReference} confirmed={booking.Status === 'confirmed'} />
      <ConfirmDialog
        open={confirming === 'release'}
        title={`Release the hold ${booking.BookingReference}?`}
        confirmLabel="Release hold"
        busy={busy}
        error={error}
        onConfirm={act}
        onClose={() => {
          setConfirming(undefined);
          setError(undefined);
        }}
      >
        <p>
          The {booking.Participants} held {booking.Participants === 1 ? 'seat goes' : 'seats go'} back on sale at once. Nobody is e-mailed; whoever
          holds them can no longer pay for or confirm them.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirming === 'cancel'}
        title={`Cancel booking ${booking.BookingReference}?`}
        confirmLabel="Cancel booking"
        busy={busy}
        error={error}
        onConfirm={act}
        onClose={() => {
          setConfirming(undefined);
          setError(undefined);
        }}
      >
        <p>
          {booking.Customer.FirstName} {booking.Customer.LastName}'s {booking.Seats} {booking.Seats === 1 ? 'seat goes' : 'seats go'} back on sale
          {activity ? ` for ${activity.Name}` : ''} on {formatDate(booking.Date)} at {booking.Time}. This cannot be undone.
        </p>
        {booking.Source === 'partner' && (
          <p className="muted">
            Let {marketplaceName(booking.Partner ?? '')} know, so that they refund payment {booking.PaymentReference ?? ''}.
          </p>
        )}
        {asksRefund && (
          <RefundChoiceFields booking={booking} choice={refundChoice} onChange={setRefundChoice} allowNone error={error?.fieldError('Amount')} />
        )}
        {!asksRefund && booking.AmountPaid > 0 && refundable(booking) > 0 && (
          <p className="muted">Cancelling refunds nothing by itself: an owner decides about the refund.</p>
        )}
      </ConfirmDialog>
    </div>
  );
}
