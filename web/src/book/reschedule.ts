// A guest moving their own booking to another time of the same activity from the manage page, while the
// operator allows it (ManagedBooking.Reschedule): a date, then that day's times with room, then the move.
// The tickets and what was paid stay as they are (docs/booking-pages.md).
import { shop, type ManagedBooking, type Timeslot } from './api';
import { announce, h, replace } from './dom';
import { longDate, t, timeRange } from './app';
import { errorText } from './ui';

/** The "Change the time" button, and the picker it opens in `holder`; `moved` runs after a successful move. */
export function rescheduleButton(holder: HTMLElement, booking: ManagedBooking, token: string, moved: (message: string) => void): HTMLElement {
  const open = h('button', { type: 'button', class: 'secondary', id: 'change-time' }, t.changeTime);
  open.addEventListener('click', () => {
    const date = h('input', { type: 'date', id: 'reschedule-date', value: booking.Date, min: new Date().toISOString().slice(0, 10) });
    const list = h('div', { id: 'reschedule-slots' });
    const alert = h('div', { role: 'alert', class: 'alert-holder' });
    const show = async () => {
      replace(alert);
      replace(list, h('p', null, t.loading));
      try {
        const slots = await shop<Timeslot[]>('GET', `/activities/${booking.ActivityID}/timeslots?Date=${date.value}`);
        const choices = slots.filter(
          (slot) => slot.Available > 0 && Date.parse(slot.StartsAt) > Date.now() && !(date.value === booking.Date && slot.Time === booking.Time),
        );
        if (choices.length === 0) return replace(list, h('p', { class: 'note' }, t.rescheduleNoSlots));
        replace(
          list,
          h(
            'fieldset',
            null,
            h('legend', null, t.rescheduleSlots),
            h(
              'ul',
              { class: 'slots' },
              choices.map((slot) => {
                const when = timeRange(slot.StartsAt, slot.EndTime, booking.Timezone);
                const button = h('button', { type: 'button', class: 'slot-button' }, t.rescheduleTo(`${longDate(date.value)}, ${when}`));
                button.addEventListener('click', () => {
                  button.disabled = true;
                  void shop('POST', `/bookings/${token}/reschedule`, { Date: date.value, Time: slot.Time })
                    .then(() => moved(t.rescheduled(longDate(date.value), slot.Time)))
                    .catch((error: unknown) => {
                      button.disabled = false;
                      replace(alert, h('p', { class: 'error' }, errorText(error)));
                      void show();
                    });
                });
                return h('li', { class: 'slot' }, button);
              }),
            ),
          ),
        );
      } catch (error) {
        replace(list, h('p', { class: 'error' }, errorText(error)));
      }
    };
    date.addEventListener('change', () => void show());
    replace(
      holder,
      h('h2', null, t.changeTime),
      h('p', null, t.rescheduleSamePrice),
      h('label', { for: 'reschedule-date' }, t.rescheduleDate),
      date,
      list,
      alert,
    );
    announce(t.changeTime);
    date.focus();
    void show();
  });
  return open;
}
