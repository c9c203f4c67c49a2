// A sold-out timeslot's waitlist, right where the guest found it sold out: party size and contact details.
// The service e-mails a link to confirm the place (double opt-in); the page says so.
import { shop, ShopError, type Activity, type Timeslot } from './api';
import { longDate, t, timeRange } from './app';
import { field, h, replace } from './dom';
import { customerFields } from './customer';
import { errorText } from './ui';

export function renderWaitlistForm(holder: HTMLElement, activity: Activity, date: string, slot: Timeslot): void {
  const max = activity.MaxParticipantsPerBooking;
  const people = h('input', { type: 'number', name: 'Participants', min: '1', max: String(max), value: '1', inputmode: 'numeric' });
  const peopleField = field(t.participants, people, t.partyLimit(max));
  const customer = customerFields();
  const alert = h('div', { role: 'alert', class: 'alert-holder' });
  const submit = h('button', { type: 'submit' }, t.joinWaitlist);
  const form = h(
    'form',
    { novalidate: true, class: 'booking-form', 'aria-labelledby': 'waitlist-heading' },
    h('h2', { id: 'waitlist-heading' }, `${t.waitlistHeading}: ${longDate(date)}, ${timeRange(slot.StartsAt, slot.EndTime, activity.Timezone)}`),
    h('p', null, t.waitlistIntro),
    peopleField.wrapper,
    customer.element,
    alert,
    submit,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void (async () => {
      const n = Number(people.value);
      const partyProblem = !Number.isInteger(n) || n < 1 ? t.partyEmpty : n > max ? t.partyTooLarge(max) : undefined;
      peopleField.setError(partyProblem);
      const guest = customer.read();
      if (partyProblem || !guest) {
        replace(alert, h('p', { class: 'error' }, t.fixErrors));
        return;
      }
      submit.disabled = true;
      try {
        await shop('POST', '/waitlists', { ActivityID: activity.ActivityID, Date: date, Time: slot.Time, Participants: n, Customer: guest });
        replace(
          form,
          h('h2', { tabindex: '-1', id: 'waitlist-heading' }, t.waitlistHeading),
          h('p', { class: 'success', role: 'status' }, t.waitlistSent),
        );
        (form.querySelector('h2') as HTMLElement).focus();
      } catch (error) {
        submit.disabled = false;
        if (error instanceof ShopError) customer.showErrors(error.errors.filter((e) => e.field.startsWith('Customer')));
        replace(alert, h('p', { class: 'error' }, errorText(error)));
      }
    })();
  });
  replace(holder, form);
  people.focus();
}
