// After a timeslot is chosen: the party (per ticket type where the activity has several, bounded by the
// per-booking limits and the seats left), the guest's details (once per basket) and the waiver, then
// "Add to basket", which holds the seats (POST .../baskets/{token}/items) and shows the basket.
import { shop, ShopError, type Activity, type Basket, type Question, type Timeslot } from './api';
import { basketToken, boot, go, longDate, money, t, timeRange } from './app';
import { field, h, replace, type Field } from './dom';
import { customerFields } from './customer';
import { waiverFields } from './waiver';
import { errorText } from './ui';

interface Party {
  element: HTMLElement;
  read(): { Participants: number } | { Tickets: { Type: string; Quantity: number }[] } | undefined;
  setError(message: string | undefined): void;
}

function partyFields(activity: Activity, slot: Timeslot): Party {
  const max = activity.MaxParticipantsPerBooking;
  const error = h('p', { class: 'field-error', id: 'party-error', role: 'alert' });
  const types = activity.TicketTypes;
  if (types.length <= 1) {
    const input = h('input', {
      type: 'number',
      name: 'Participants',
      min: '1',
      max: String(Math.min(max, slot.Available)),
      value: '1',
      inputmode: 'numeric',
    });
    const f = field(t.participants, input, t.partyLimit(max));
    return {
      element: h('fieldset', null, h('legend', null, t.party), f.wrapper),
      read() {
        const n = Number(input.value);
        const problem =
          !Number.isInteger(n) || n < 1
            ? t.partyEmpty
            : n > max
              ? t.partyTooLarge(max)
              : n > slot.Available
                ? t.partyNoRoom(slot.Available)
                : undefined;
        f.setError(problem);
        return problem ? undefined : { Participants: n };
      },
      setError: f.setError,
    };
  }
  const inputs: { type: (typeof types)[number]; input: HTMLInputElement; field: Field }[] = types.map((type) => {
    const limit = type.MaxPerBooking ?? max;
    const input = h('input', {
      type: 'number',
      name: type.Type,
      min: '0',
      max: String(limit),
      value: type.Default ? '1' : '0',
      inputmode: 'numeric',
    });
    const hint = [money(type.Price, activity.Currency), t.ticketLimit(type.MinPerBooking, type.MaxPerBooking)].filter(Boolean).join(' · ');
    return { type, input, field: field(type.Name, input, hint) };
  });
  return {
    element: h(
      'fieldset',
      { 'aria-describedby': 'party-error' },
      h('legend', null, t.party),
      h('p', { class: 'hint' }, t.partyLimit(max)),
      inputs.map((entry) => entry.field.wrapper),
      error,
    ),
    read() {
      let ok = true;
      let people = 0;
      let seats = 0;
      for (const { type, input, field: f } of inputs) {
        const n = Number(input.value);
        const limit = type.MaxPerBooking ?? max;
        const problem =
          !Number.isInteger(n) || n < 0
            ? t.required
            : n > limit || (n > 0 && n < type.MinPerBooking)
              ? t.ticketLimit(type.MinPerBooking, limit)
              : undefined;
        f.setError(problem);
        if (problem) ok = false;
        people += n * type.People;
        if (type.TakesSeat) seats += n * type.People;
      }
      const problem =
        people === 0 ? t.partyEmpty : people > max ? t.partyTooLarge(max) : seats > slot.Available ? t.partyNoRoom(slot.Available) : undefined;
      error.textContent = problem ?? '';
      if (!ok || problem) return undefined;
      return {
        Tickets: inputs
          .filter((entry) => Number(entry.input.value) > 0)
          .map((entry) => ({ Type: entry.type.Type, Quantity: Number(entry.input.value) })),
      };
    },
    setError: (message) => (error.textContent = message ?? ''),
  };
}

/** The basket this guest is filling, when it still takes items. */
async function usableBasket(): Promise<Basket | undefined> {
  const token = basketToken.get();
  if (!token) return undefined;
  try {
    const basket = await shop<Basket>('GET', `/baskets/${token}`);
    if (basket.Status === 'open' && basket.CheckoutStartedAt === null) return basket;
  } catch {
    // An unknown basket (another database, a typo): start a new one.
  }
  basketToken.clear();
  return undefined;
}

export async function renderBookingForm(holder: HTMLElement, activity: Activity, date: string, slot: Timeslot): Promise<void> {
  const [basket, questions] = await Promise.all([
    usableBasket(),
    shop<Question[]>('GET', `/activities/${activity.ActivityID}/questions?Locale=${boot.Locale}`),
  ]);
  const party = partyFields(activity, slot);
  const customer = basket ? undefined : customerFields();
  const waiver = waiverFields(questions);
  const alert = h('div', { role: 'alert', class: 'alert-holder' });
  const submit = h('button', { type: 'submit' }, t.addToBasket);
  const when = `${longDate(date)}, ${timeRange(slot.StartsAt, slot.EndTime, activity.Timezone)}`;
  const form = h(
    'form',
    { novalidate: true, class: 'booking-form', 'aria-labelledby': 'booking-form-heading' },
    h('h2', { id: 'booking-form-heading' }, `${activity.Name}: ${when}`),
    party.element,
    customer?.element,
    waiver.element,
    alert,
    submit,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void (async () => {
      replace(alert);
      const chosen = party.read();
      const guest = customer?.read();
      const answered = waiver.check();
      if (!chosen || (customer && !guest) || !answered) {
        replace(alert, h('p', { class: 'error' }, t.fixErrors));
        (form.querySelector('[aria-invalid="true"]') as HTMLElement | null)?.focus();
        return;
      }
      submit.disabled = true;
      try {
        let token = basket?.BasketToken;
        if (!token) {
          token = (await shop<Basket>('POST', '/baskets', { Customer: guest, Locale: boot.Locale })).BasketToken;
          basketToken.set(token);
        }
        const answers = await waiver.answers({ basket: token });
        await shop<Basket>('POST', `/baskets/${token}/items`, {
          ActivityID: activity.ActivityID,
          Date: date,
          Time: slot.Time,
          ...chosen,
          ...(questions.length > 0 && { WaiverAnswers: answers }),
        });
        go(`/basket/${token}`);
      } catch (error) {
        submit.disabled = false;
        let message = errorText(error);
        if (error instanceof ShopError) {
          customer?.showErrors(error.errors.filter((e) => e.field.startsWith('Customer')));
          if (error.status === 409 && /seat|sold/i.test(error.detail)) message = t.slotGone;
          if (error.status === 422 && error.errors.some((e) => e.field === 'Participants' || e.field.startsWith('Tickets'))) {
            const partyError = error.errors.find((e) => e.field === 'Participants' || e.field.startsWith('Tickets'))!.message;
            party.setError(/basket/i.test(partyError) ? t.basketTooLarge : partyError);
          }
        }
        replace(alert, h('p', { class: 'error' }, message));
      }
    })();
  });
  replace(holder, form);
  (form.querySelector('input, select') as HTMLElement | null)?.focus();
}
