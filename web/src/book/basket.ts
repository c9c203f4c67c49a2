// The basket: its items with the hold countdown, then payment: with the test provider a card field here,
// with Stripe a button to Stripe's own payment page (the card never reaches slotbook), which sends the
// guest back to the confirmation (confirmation.ts waits for Stripe's webhook) or, cancelled, to this page,
// where "Pay" answers the same payment page while it lasts. The same page is the waitlist claim page (the
// offer e-mail links to /basket/{token}): held seats, time left, pay. A lapsed hold is explained; a
// declined test card shows the provider's reason and keeps the basket; "Pay" sends one Idempotency-Key per
// attempt, so a double click (or a retry after a lost answer) charges once.
import { shop, ShopError, type Activity, type Basket, type BasketItem } from './api';
import { basketToken, boot, go, linkProps, localTime, longDate, money, t } from './app';
import { announce, field, h, replace } from './dom';
import { errorText, showPage } from './ui';
import { loadStorefront } from './storefront';
import { policySentences, rescheduleSentence } from './policy';
import { termsConsent } from './terms';

/** A link to the guest's basket while it holds seats; nothing otherwise. */
export async function basketLink(): Promise<HTMLElement | null> {
  const token = basketToken.get();
  if (!token) return null;
  const basket = await shop<Basket>('GET', `/baskets/${token}`).catch(() => undefined);
  const live = basket?.Items.filter((item) => item.Status === 'on_hold').length ?? 0;
  if (basket === undefined || basket.Status === 'paid' || live === 0) return null;
  return h('p', { class: 'basket-link' }, h('a', linkProps(`/basket/${token}`), `${t.basket} (${live})`));
}

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
let timer: number | undefined;

function itemView(item: BasketItem, currency: string, policies: Map<string, Activity>): HTMLElement {
  const lapsed = item.Status === 'expired';
  const policy = policies.get(item.ActivityID);
  return h(
    'li',
    { class: `card item${lapsed ? ' lapsed' : ''}` },
    h('h2', null, item.ActivityName),
    h(
      'dl',
      { class: 'facts' },
      h('dt', null, t.dateLabel),
      h('dd', null, longDate(item.Date)),
      h('dt', null, t.timeLabel),
      h('dd', null, localTime(item.Time, item.StartsAt)),
      h('dt', null, t.people),
      h(
        'dd',
        null,
        item.Tickets.length > 1
          ? item.Tickets.map((ticket) => `${ticket.Quantity} × ${ticket.Name ?? ticket.Type}`).join(', ')
          : String(item.Participants),
      ),
      h('dt', null, t.total),
      h('dd', null, money(item.Amount, currency)),
      policy === undefined
        ? null
        : [
            h('dt', null, t.policyHeading),
            h('dd', { class: 'policy' }, policySentences(policy.GuestCancellation).join(' ')),
            h('dt', null, t.rescheduleRuleHeading),
            h('dd', { class: 'policy' }, rescheduleSentence(policy.GuestReschedule)),
          ],
    ),
    lapsed ? h('p', { class: 'error' }, t.itemLapsed) : null,
  );
}

export async function renderBasket(token: string): Promise<void> {
  window.clearInterval(timer);
  const [basket, storefront] = await Promise.all([shop<Basket>('GET', `/baskets/${token}`), loadStorefront()]);
  if (basket.Status === 'paid') return go(`/confirmation/${token}`, true);
  // Each activity's cancellation and reschedule rules, shown with its item before the guest pays.
  const policies = new Map(storefront.Activities.map((activity) => [activity.ActivityID, activity]));
  if (basket.CheckoutStartedAt === null) basketToken.set(token);
  const currency = basket.Currency ?? 'EUR';
  const live = basket.Items.filter((item) => item.Status === 'on_hold' && item.HoldExpiresAt !== null);
  const alert = h('div', { role: 'alert', class: 'alert-holder' });
  const countdown = h('p', { class: 'countdown', role: 'timer', 'aria-live': 'off' });
  const payment = h('div');
  const startOver = h('button', { type: 'button', class: 'secondary', onclick: () => (basketToken.clear(), go('')) }, t.startOver);
  showPage(
    t.basketHeading,
    h('h1', null, t.basketHeading),
    basket.Items.length === 0
      ? h('p', null, t.basketEmpty)
      : h(
          'ul',
          { class: 'cards' },
          basket.Items.map((item) => itemView(item, currency, policies)),
        ),
    live.length > 0 ? countdown : basket.Items.length > 0 ? h('p', { class: 'error' }, t.holdLapsed) : null,
    live.length > 0 ? h('p', { class: 'total' }, `${t.total}: ${money(basket.Total, currency)}`) : null,
    live.length > 0 && basket.DueNow < basket.Total
      ? h('p', { class: 'deposit-note' }, t.depositNow(money(basket.DueNow, currency), money(basket.Total - basket.DueNow, currency)))
      : null,
    alert,
    payment,
    live.length === 0 ? startOver : null,
  );
  if (live.length === 0) return;

  const expires = Math.min(...live.map((item) => Date.parse(item.HoldExpiresAt!)));
  const tick = () => {
    const left = Math.max(0, Math.round((expires - Date.now()) / 1000));
    countdown.textContent = t.heldFor(clock(left));
    if (left === 300 || left === 60) announce(t.heldFor(clock(left)));
    if (left === 0) {
      window.clearInterval(timer);
      announce(t.holdLapsed);
      void renderBasket(token);
    }
  };
  tick();
  timer = window.setInterval(tick, 1000);

  if (basket.CheckoutStartedAt === null) {
    replace(
      payment,
      h(
        'div',
        { class: 'actions' },
        h('a', { class: 'button secondary', ...linkProps('') }, t.addAnother),
        h(
          'button',
          {
            type: 'button',
            onclick: async (event: Event) => {
              (event.currentTarget as HTMLButtonElement).disabled = true;
              try {
                await shop('POST', `/baskets/${token}/begin-checkout`);
                await renderBasket(token);
                document.getElementById('card-number')?.focus();
              } catch (error) {
                (event.target as HTMLButtonElement).disabled = false;
                replace(alert, h('p', { class: 'error' }, lapsedOr(error)));
              }
            },
          },
          t.goToPayment,
        ),
      ),
    );
    return;
  }
  replace(payment, boot.PaymentProvider === 'stripe' && basket.DueNow > 0 ? stripeForm(basket, alert) : paymentForm(basket, alert));
}

/** Stripe: one button to Stripe's payment page; a second click (or the way back from it) answers the same page. */
function stripeForm(basket: Basket, alert: HTMLElement): HTMLElement {
  const currency = basket.Currency ?? 'EUR';
  const label = t.payWithStripe(money(basket.DueNow, currency));
  const pay = h('button', { type: 'submit' }, label);
  const consent = termsConsent();
  const form = h(
    'form',
    { novalidate: true, 'aria-labelledby': 'payment-heading' },
    h('h2', { id: 'payment-heading' }, t.payment),
    h('p', null, t.stripeExplain),
    consent?.element,
    pay,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (pay.disabled) return;
    if (consent && !consent.check()) return;
    pay.disabled = true;
    pay.textContent = t.toStripe;
    replace(alert);
    void (async () => {
      try {
        const answered = await shop<Basket>('POST', `/baskets/${basket.BasketToken}/checkout`, {
          Payment: { Provider: 'stripe' },
          ...(consent && { AcceptTerms: true }),
        });
        if (answered.Status === 'paid') return go(`/confirmation/${basket.BasketToken}`);
        location.assign(answered.Payment!.RedirectURL!);
      } catch (error) {
        pay.disabled = false;
        pay.textContent = label;
        replace(alert, h('p', { class: 'error' }, lapsedOr(error)));
      }
    })();
  });
  return form;
}

/** A 409 at checkout means a hold lapsed (or the basket was paid meanwhile): explain it, not a generic error. */
function lapsedOr(error: unknown): string {
  if (error instanceof ShopError && error.status === 409 && /no longer held|holds no seats/i.test(error.detail)) return t.holdLapsed;
  return errorText(error);
}

function paymentForm(basket: Basket, alert: HTMLElement): HTMLElement {
  const currency = basket.Currency ?? 'EUR';
  const needsCard = basket.DueNow > 0;
  const card = h('input', { id: 'card-number', name: 'card', inputmode: 'numeric', autocomplete: 'cc-number', required: true });
  // The test cards are worth naming only where the test provider charges.
  const cardField = field(t.cardNumber, card, boot.TestMode ? t.cardHint : undefined);
  const pay = h('button', { type: 'submit' }, t.pay(money(basket.DueNow, currency)));
  const consent = termsConsent();
  // One key per attempt: a second click, or a retry of a lost answer, replays the first payment.
  let key = crypto.randomUUID();
  let paying = false;
  const form = h(
    'form',
    { novalidate: true, 'aria-labelledby': 'payment-heading' },
    h('h2', { id: 'payment-heading' }, t.payment),
    needsCard ? cardField.wrapper : null,
    consent?.element,
    pay,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (paying) return;
    const digits = card.value.replace(/[\s-]/g, '');
    if (needsCard && !/^[0-9]{12,19}$/.test(digits)) {
      cardField.setError(t.invalidCard);
      card.focus();
      return;
    }
    cardField.setError(undefined);
    if (consent && !consent.check()) return;
    paying = true;
    pay.disabled = true;
    pay.textContent = t.paying;
    replace(alert);
    void (async () => {
      try {
        const body = {
          ...(needsCard && { Payment: { Provider: 'test', CardNumber: digits } }),
          ...(consent && { AcceptTerms: true }),
        };
        await shop('POST', `/baskets/${basket.BasketToken}/checkout`, body, { 'Idempotency-Key': key });
        basketToken.clear();
        go(`/confirmation/${basket.BasketToken}`);
      } catch (error) {
        paying = false;
        pay.disabled = false;
        pay.textContent = t.pay(money(basket.DueNow, currency));
        if (error instanceof ShopError && error.status !== 0) key = crypto.randomUUID();
        if (error instanceof ShopError && error.status === 422 && error.errors.some((e) => e.field === 'Payment.CardNumber')) {
          const reason = error.errors
            .find((e) => e.field === 'Payment.CardNumber')!
            .message.replace(/^The payment was declined: /, '')
            .replace(/\.$/, '');
          const message = t.declined(reason);
          cardField.setError(message);
          replace(alert, h('p', { class: 'error' }, message));
          card.focus();
          return;
        }
        replace(alert, h('p', { class: 'error' }, lapsedOr(error)));
      }
    })();
  });
  return form;
}
