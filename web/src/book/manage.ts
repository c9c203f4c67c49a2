// A guest's own booking from the link in their e-mails: what they booked and, where the operator allows
// it for the activity and in time, a cancel button (asked twice: it cannot be undone).
import { shop, shopUrl, type ManagedBooking } from './api';
import { linkProps, longDate, money, t, zonedDateTime } from './app';
import { h, replace } from './dom';
import { errorText, showPage } from './ui';
import { rescheduleButton } from './reschedule';

export async function renderManage(token: string, notice?: string): Promise<void> {
  const booking = await shop<ManagedBooking>('GET', `/bookings/${token}`);
  const actions = h('div', { class: 'actions' });
  const moving = h('div', { class: 'reschedule' });
  const alert = h('div', { role: 'alert', class: 'alert-holder' });
  const refusal =
    booking.Status === 'cancelled'
      ? t.cancelled
      : booking.Cancellation.Refusal === 'not-allowed'
        ? t.cancelNotAllowed
        : booking.Cancellation.Refusal === 'too-late'
          ? t.cancelTooLate
          : null;
  showPage(
    t.manageHeading,
    h('h1', null, t.manageHeading),
    notice ? h('p', { class: 'success', role: 'status' }, notice) : null,
    h(
      'dl',
      { class: 'facts card' },
      h('dt', null, t.reference),
      h('dd', { class: 'reference' }, booking.BookingReference),
      h('dt', null, t.activity),
      h('dd', null, booking.ActivityName),
      h('dt', null, t.dateLabel),
      h('dd', null, longDate(booking.Date)),
      h('dt', null, t.timeLabel),
      h('dd', null, `${booking.Time} (${booking.Timezone})`),
      h('dt', null, t.people),
      h('dd', null, String(booking.Participants)),
      h('dt', null, t.total),
      h('dd', null, money(booking.Total, booking.Currency)),
      h('dt', null, t.status),
      h('dd', { class: 'status' }, t.statuses[booking.Status] ?? booking.Status),
    ),
    booking.Status === 'confirmed'
      ? h(
          'figure',
          { class: 'door-code' },
          h('img', { src: shopUrl(`/bookings/${token}/qr.svg`), alt: t.qrAlt(booking.BookingReference), width: '160', height: '160' }),
          h('figcaption', null, t.qrCaption),
        )
      : null,
    refusal ? h('p', { class: booking.Status === 'cancelled' ? 'success' : 'note' }, refusal) : null,
    // The operator called off the departure: their words (as text), and where to book another time.
    booking.DepartureMessage
      ? h(
          'section',
          { class: 'card departure-note', 'aria-labelledby': 'departure-note' },
          h('h2', { id: 'departure-note' }, t.departureCancelled),
          h('p', { class: 'departure-message' }, booking.DepartureMessage),
          h('a', { class: 'button', ...linkProps(`/activities/${booking.ActivityID}`) }, t.bookAgain),
        )
      : null,
    booking.Cancellation.Allowed && booking.Cancellation.Until
      ? h('p', null, t.cancelUntil(zonedDateTime(booking.Cancellation.Until, booking.Timezone)))
      : null,
    booking.Cancellation.Allowed && booking.Cancellation.Refund !== null
      ? h(
          'p',
          { id: 'refund-now' },
          booking.Cancellation.Refund === 0
            ? t.refundNothingNow
            : t.refundNow(money(booking.Cancellation.Refund, booking.Currency), booking.Cancellation.RefundPercent ?? 100),
        )
      : null,
    booking.Reschedule.Allowed && booking.Reschedule.Until
      ? h('p', null, t.rescheduleUntil(zonedDateTime(booking.Reschedule.Until, booking.Timezone)))
      : null,
    alert,
    actions,
    moving,
  );
  if (booking.Reschedule.Allowed)
    replace(
      moving,
      rescheduleButton(moving, booking, token, (message) => void renderManage(token, message)),
    );
  if (!booking.Cancellation.Allowed) return;
  const ask = h('button', { type: 'button', class: 'danger' }, t.cancelBooking);
  ask.addEventListener('click', () => {
    const confirm = h('button', { type: 'button', class: 'danger' }, t.cancelConfirm);
    const keep = h('button', { type: 'button', class: 'secondary' }, t.keepBooking);
    keep.addEventListener('click', () => (replace(actions, ask), ask.focus()));
    confirm.addEventListener('click', () => {
      confirm.disabled = true;
      void shop('POST', `/bookings/${token}/cancel`)
        .then(() => renderManage(token))
        .catch((error: unknown) => {
          confirm.disabled = false;
          replace(alert, h('p', { class: 'error' }, errorText(error)));
        });
    });
    replace(actions, h('p', { id: 'cancel-question' }, t.cancelQuestion), confirm, keep);
    confirm.focus();
  });
  replace(actions, ask);
}
