// The confirmation: a paid basket's references, at an address the guest can bookmark (the basket token
// is its key). An unpaid basket's address shows the basket instead.
import { shop, type Basket, type ManageLink } from './api';
import { go, linkProps, localTime, longDate, money, t } from './app';
import { h } from './dom';
import { showPage } from './ui';

export async function renderConfirmation(token: string): Promise<void> {
  const basket = await shop<Basket>('GET', `/baskets/${token}`);
  if (basket.Status !== 'paid') return go(`/basket/${token}`, true);
  // Each booking's own page (view, cancel where allowed), also when the operator's e-mails do not link it.
  const links = new Map((await shop<ManageLink[]>('GET', `/baskets/${token}/manage-links`)).map((link) => [link.BookingReference, link.ManageToken]));
  const currency = basket.Currency ?? 'EUR';
  showPage(
    t.confirmedHeading,
    h('h1', null, t.confirmedHeading),
    h('p', { class: 'success' }, t.confirmedIntro(basket.Customer.Email)),
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
      h('dd', null, money(basket.Total, currency)),
      basket.PaymentReference ? [h('dt', null, t.paymentReference), h('dd', null, basket.PaymentReference)] : null,
    ),
    h('p', null, h('a', linkProps(''), t.back)),
  );
}
