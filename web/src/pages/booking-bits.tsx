import type { Booking } from '../api';
import { formatMoney, marketplaceName, SOURCE_LABELS, STATUS_LABELS } from '../format';
import { Badge, Icon } from '../ui';

const SOURCE_ICONS = { online: 'globe', pos: 'store', partner: 'handshake' } as const;

/** Where the booking came from; partner bookings name their marketplace. */
export function SourceBadge({ booking }: { booking: Pick<Booking, 'Source' | 'Partner'> }) {
  const label = booking.Source === 'partner' && booking.Partner ? marketplaceName(booking.Partner) : SOURCE_LABELS[booking.Source];
  return (
    <span
      className={`source source-${booking.Source}`}
      title={booking.Source === 'partner' ? `Partner booking via ${label}` : `${SOURCE_LABELS[booking.Source]} booking`}
    >
      <Icon name={SOURCE_ICONS[booking.Source]} size={14} />
      <span className="source-kind">{booking.Source === 'partner' ? 'Partner' : SOURCE_LABELS[booking.Source]}</span>
      {booking.Source === 'partner' && <span className="source-partner">{label}</span>}
    </span>
  );
}

const STATUS_TONES = { confirmed: 'success', on_hold: 'warning', cancelled: 'danger', expired: 'neutral' } as const;

export function StatusBadge({ status }: { status: Booking['Status'] }) {
  return <Badge tone={STATUS_TONES[status]}>{STATUS_LABELS[status]}</Badge>;
}

/** "2 Adult, 1 Child (4-14)": a booking's ticket mix in a few words. */
export const ticketSummary = (booking: Pick<Booking, 'Tickets'>): string =>
  booking.Tickets.map((ticket) => `${ticket.Quantity} ${ticket.Name}`).join(', ');

export function WaiverBadge({ status }: { status: Booking['WaiverStatus'] }) {
  return status === 'complete' ? <Badge tone="success">Waiver complete</Badge> : <Badge tone="warning">Waiver pending</Badge>;
}

/** The last row of a table of tickets: the total of its amounts (the last column). */
export function TotalRow({ columns, amount, currency }: { columns: number; amount: number; currency: string }) {
  return (
    <tfoot>
      <tr>
        <th scope="row" colSpan={columns - 1}>
          Total
        </th>
        <td className="num">
          <strong>{formatMoney(amount, currency)}</strong>
        </td>
      </tr>
    </tfoot>
  );
}
