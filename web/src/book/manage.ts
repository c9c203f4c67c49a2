// A guest's own booking from the link in their e-mails: what they booked, what is left to pay of it (a
// deposit's balance: "Pay the balance" makes Stripe's payment page at the click, or takes a test card)
// and, where the operator allows it for the activity and in time, a cancel button (asked twice: it cannot
// be undone). Back from Stripe (?balance=paid) it waits for Stripe's word, asking again every 2 seconds.
import { shop, shopUrl, ShopError, type BalancePayment, type ManagedBooking } from './api';
import { boot, linkProps, longDate, money, t, zonedDateTime } from './app';
import { field, h, replace } from './dom';
import { errorText, showPage } from './ui';
import { rescheduleButton } from './reschedule';

let balancePolls = 0;

export async function renderManage(token: string, notice?: string): Promise<void> {
  const booking = await shop<ManagedBooking>('GET', `/bookings/${token}`);
  const returning = new URLSearchParams(location.search).get('balance') === 'paid';
  const due = booking.Status === 'confirmed' ? booking.Balance.AmountDue : 0;
  const confirming = returning && due > 0 && balancePolls < 60;
  if (confirming) window.setTimeout(() => ((balancePolls += 1), void renderManage(token)), 2000);
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
      due > 0
        ? [
            h('dt', null, t.paidSoFar),
            h('dd', null, money(booking.Balance.AmountPaid, booking.Currency)),
            h('dt', null, t.balanceDue),
            h('dd', { class: 'balance-due' }, money(due, booking.Currency)),
          ]
        : null,
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
    booking.WaiverToComplete
      ? h('p', { class: 'note' }, `${t.waiverPendingNote} `, h('a', linkProps(`/manage/${token}/waiver`), t.completeWaiver))
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
    confirming ? h('p', { class: 'note', role: 'status' }, t.balanceConfirming) : null,
    returning && due === 0 && booking.Status === 'confirmed' ? h('p', { class: 'success', role: 'status' }, t.balancePaid) : null,
    due > 0 && !confirming ? balanceForm(token, booking, due) : null,
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

/** "Pay the balance": Stripe's page made now (never an address from an e-mail), or a test card charged at once. */
function balanceForm(token: string, booking: ManagedBooking, due: number): HTMLElement {
  const label = t.payBalance(money(due, booking.Currency));
  const pay = h('button', { type: 'submit' }, label);
  const problem = h('div', { role: 'alert', class: 'alert-holder' });
  const test = boot.PaymentProvider !== 'stripe';
  const card = h('input', { id: 'balance-card', name: 'card', inputmode: 'numeric', autocomplete: 'cc-number', required: true });
  const cardField = field(t.cardNumber, card, boot.TestMode ? t.cardHint : undefined);
  const form = h(
    'form',
    { novalidate: true, 'aria-labelledby': 'balance-heading', class: 'card' },
    h('h2', { id: 'balance-heading' }, t.balanceDue),
    h('p', null, test ? t.balanceExplain : `${t.balanceExplain} ${t.stripeExplain}`),
    test ? cardField.wrapper : null,
    pay,
    problem,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (pay.disabled) return;
    pay.disabled = true;
    replace(problem);
    const digits = card.value.replace(/[\s-]/g, '');
    void shop<BalancePayment>('POST', `/bookings/${token}/balance`, test ? { CardNumber: digits } : {})
      .then((answer) => (answer.RedirectURL ? location.assign(answer.RedirectURL) : renderManage(token)))
      .catch((error: unknown) => {
        pay.disabled = false;
        if (test && error instanceof ShopError && error.errors.some((e) => e.field === 'CardNumber')) {
          cardField.setError(error.errors.find((e) => e.field === 'CardNumber')!.message);
          return;
        }
        replace(problem, h('p', { class: 'error' }, errorText(error)));
      });
  });
  return form;
}
