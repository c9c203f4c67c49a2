// A cardholder's dispute of the payment that paid this booking (Stripe's charge.dispute.* events): a warning
// while Stripe waits for the operator's evidence, with the deadline and the way to answer (in Stripe's
// dashboard, where the evidence goes), and the dispute's state afterwards.
import type { AdminBooking } from '../api';
import { formatInstant, formatMoney } from '../format';

const OPEN = new Set(['needs_response', 'warning_needs_response']);

export function BookingDisputes({ booking }: { booking: AdminBooking }) {
  if (booking.Disputes.length === 0) return null;
  return (
    <>
      {booking.Disputes.map((dispute) => {
        const open = OPEN.has(dispute.Status);
        return (
          <div key={dispute.DisputeID} className={`banner ${open ? 'banner-error' : 'banner-info'}`} role={open ? 'alert' : 'status'}>
            <p>
              <strong>{open ? 'The payment is disputed: answer before the deadline.' : `Dispute ${dispute.Status.replaceAll('_', ' ')}.`}</strong> The
              guest's bank disputes {formatMoney(dispute.AmountMinorUnits, dispute.Currency)} ({dispute.Reason.replaceAll('_', ' ')}).
              {dispute.EvidenceDueBy && open && <> Evidence is due by {formatInstant(dispute.EvidenceDueBy)}.</>}
            </p>
            <a href={dispute.StripeURL} target="_blank" rel="noopener noreferrer">
              {open ? 'Answer in Stripe (new tab)' : 'See it in Stripe (new tab)'}
            </a>
          </div>
        );
      })}
    </>
  );
}
