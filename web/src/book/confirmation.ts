// The confirmation: a paid basket's references, at an address the guest can bookmark (the basket token
// is its key). Stripe sends the guest here after paying, often before its webhook has confirmed the
// payment: while the basket awaits payment the page says it is waiting, and asks again every few seconds
// until it is paid (or refunded: the seats were gone). An unpaid basket's address shows the basket instead.
import { shop, type Basket, type ManageLink } from './api';
import { basketToken, go, linkProps, localTime, longDate, money, t } from './app';
import { announce, h } from './dom';
import { showPage } from './ui';

const POLL_MS = 2000;
/** After this many answers without a confirmation, the page says so (and keeps asking, less often). */
const PATIENT_POLLS = 15;
let poll: number | undefined;

export async function renderConfirmation(token: string, polls = 0): Promise<void> {
  window.clearTimeout(poll);
  const basket = await shop<Basket>('GET', `/baskets/${token}`);
  if (basket.Status !== 'paid' && basket.Payment?.Status === 'refunded') {
    return showPage(
      t.refundedHeading,
      h('h1', null, t.refundedHeading),
      h('p', { role: 'alert' }, t.refundedText),
      h('p', null, h('a', linkProps(''), t.back)),
    );
  }
  if (basket.Status === 'awaiting_payment') return waitForPayment(token, polls);
  if (basket.Status !== 'paid') return go(`/basket/${token}`, true);
  basketToken.clear();
  if (polls > 0) announce(t.confirmedHeading);
  // Each booking's own page (view, cancel where allowed), also when the operator's e-mails do not link it.
  const links = new Map((await shop<ManageLink[]>('GET', `/baskets/${token}/manage-links`)).map((link) => [link.BookingReference, link.ManageToken]));
  const currency = basket.Currency ?? 'EUR';
  showPage(
    t.confirmedHeading,
    h('h1', null, t.confirmedHeading),
    // Only what is true: the e-mail is mentioned when the operator's confirmation workflow sends one.
    h('p', { class: 'success' }, basket.ConfirmationEmailed ? t.confirmedIntro(basket.Customer.Email) : t.confirmedNoEmail),
    h(
      'ul',
      { class: 'cards' },
      basket.Items.filter((item) => item.Status === 'confirmed').map((item) =>
        h(
          'li',
          { class: 'card' },
          h('h2', null, item.ActivityName),
          h(
            'dl',
            { class: 'facts' },
            h('dt', null, t.reference),
            h('dd', { class: 'reference' }, item.BookingReference),
            h('dt', null, t.dateLabel),
            h('dd', null, longDate(item.Date)),
            h('dt', null, t.timeLabel),
            h('dd', null, localTime(item.Time, item.StartsAt)),
            h('dt', null, t.people),
            h('dd', null, String(item.Participants)),
          ),
          links.has(item.BookingReference)
            ? h('p', null, h('a', linkProps(`/manage/${links.get(item.BookingReference)}`), t.manageLink(item.BookingReference)))
            : null,
        ),
      ),
    ),
    h(
      'dl',
      { class: 'facts' },
      h('dt', null, t.paid),
      h('dd', null, money(basket.DueNow, currency)),
      basket.DueNow < basket.Total ? [h('dt', null, t.balanceLater), h('dd', null, money(basket.Total - basket.DueNow, currency))] : null,
      basket.PaymentReference ? [h('dt', null, t.paymentReference), h('dd', null, basket.PaymentReference)] : null,
    ),
    h('p', null, h('a', linkProps(''), t.back)),
  );
}

/** The webhook has not come yet: say so, politely, and ask again. Only the first render moves the focus. */
function waitForPayment(token: string, polls: number): void {
  const status = document.getElementById('payment-wait');
  const text = polls >= PATIENT_POLLS ? t.stillWaiting : t.waitingText;
  if (!status) {
    showPage(
      t.waitingHeading,
      h('h1', null, t.waitingHeading),
      h('p', { id: 'payment-wait', role: 'status', 'aria-busy': 'true' }, text),
      h('p', null, h('a', linkProps(`/basket/${token}`), t.backToBasket)),
    );
  } else if (status.textContent !== text) {
    status.textContent = text;
  }
  poll = window.setTimeout(() => void renderConfirmation(token, polls + 1), polls >= PATIENT_POLLS ? POLL_MS * 5 : POLL_MS);
}
