// An activity's page: a month calendar (days with room, sold-out days), the chosen day's timeslots with
// the seats left, then the party and the guest's details (booking-form.ts), or the waitlist of a sold-out
// timeslot (waitlist.ts). The chosen day is in the address (?date=), so it can be shared and reloaded.
import { shop, type Activity, type CalendarDay, type Timeslot } from './api';
import { boot, linkProps, longDate, money, monthName, t, timeRange } from './app';
import { announce, h, replace } from './dom';
import { loadStorefront } from './storefront';
import { showPage } from './ui';
import { renderBookingForm } from './booking-form';
import { renderWaitlistForm } from './waitlist';
import { basketLink } from './basket';
import { policySentences, rescheduleSentence } from './policy';
import { gallery } from './photos';

const addMonths = (month: string, n: number) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const date = new Date(Date.UTC(y, m - 1 + n, 1));
  return date.toISOString().slice(0, 7);
};

/** Where to meet, what is included, what to bring: what guests need before they pay, as the operator wrote it. */
function details(activity: Activity): HTMLElement | null {
  const point = activity.MeetingPoint;
  const list = (items: string[]) =>
    h(
      'ul',
      null,
      items.map((item) => h('li', null, item)),
    );
  const parts: Node[] = [];
  if (point) {
    const map =
      point.MapUrl ??
      (point.Latitude !== null
        ? `https://www.openstreetmap.org/?mlat=${point.Latitude}&mlon=${point.Longitude}#map=17/${point.Latitude}/${point.Longitude}`
        : null);
    parts.push(
      h('dt', null, t.meetingPoint),
      h('dd', null, h('address', null, point.Address), map ? h('a', { href: map, rel: 'noopener noreferrer', target: '_blank' }, t.openMap) : null),
    );
  }
  if (activity.Inclusions.length > 0) parts.push(h('dt', null, t.included), h('dd', null, list(activity.Inclusions)));
  if (activity.WhatToBring.length > 0) parts.push(h('dt', null, t.whatToBring), h('dd', null, list(activity.WhatToBring)));
  return parts.length === 0 ? null : h('dl', { class: 'facts card activity-details' }, parts);
}

export async function renderActivity(activityId: string, date: string | null): Promise<void> {
  const activity = (await loadStorefront()).Activities.find((candidate) => candidate.ActivityID === activityId);
  if (!activity) {
    showPage(t.notFound, h('h1', null, t.notFound), h('p', null, h('a', linkProps(''), t.back)));
    return;
  }
  const calendar = h('section', { 'aria-labelledby': 'choose-day', class: 'calendar' });
  const slots = h('section', { id: 'slots', 'aria-live': 'polite' });
  const step = h('div', { id: 'step' });
  showPage(
    activity.Name,
    h('p', null, h('a', linkProps(''), `← ${t.back}`)),
    h('h1', null, activity.Name),
    await basketLink(),
    gallery(activity),
    activity.Description ? h('p', { class: 'description' }, activity.Description) : null,
    h(
      'p',
      { class: 'facts-line' },
      `${t.durationLabel}: ${t.duration(activity.DurationMinutes)} · ${t.priceFrom(money(activity.PriceFrom, activity.Currency))} ${t.perPerson}`,
    ),
    h('p', { class: 'hint' }, t.timesIn(activity.Timezone)),
    details(activity),
    h(
      'section',
      { class: 'policy', 'aria-labelledby': 'policy-heading' },
      h('h2', { id: 'policy-heading' }, t.policyHeading),
      policySentences(activity.GuestCancellation).map((text) => h('p', null, text)),
      h('h3', null, t.rescheduleRuleHeading),
      h('p', null, rescheduleSentence(activity.GuestReschedule)),
    ),
    calendar,
    slots,
    step,
  );
  const month = (date ?? activity.NextAvailableDate ?? new Date().toISOString().slice(0, 10)).slice(0, 7);
  await renderCalendar(calendar, activity, month, date, slots, step);
  if (date) await renderSlots(slots, step, activity, date);
}

async function renderCalendar(
  holder: HTMLElement,
  activity: Activity,
  month: string,
  selected: string | null,
  slots: HTMLElement,
  step: HTMLElement,
): Promise<void> {
  const days = await shop<CalendarDay[]>('GET', `/activities/${activity.ActivityID}/calendar?Month=${month}`);
  const byDate = new Map(days.map((day) => [day.Date, day]));
  const [y, m] = month.split('-').map(Number) as [number, number];
  const first = new Date(Date.UTC(y, m - 1, 1));
  const length = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const offset = (first.getUTCDay() + 6) % 7; // Monday first
  const weekdayFormat = new Intl.DateTimeFormat(boot.Locale, { weekday: 'short', timeZone: 'UTC' });
  const weekdays = Array.from({ length: 7 }, (_, i) => weekdayFormat.format(Date.UTC(2024, 0, 1 + i))); // 2024-01-01 was a Monday
  const cells: Node[] = [];
  for (let i = 0; i < offset; i++) cells.push(h('td'));
  for (let day = 1; day <= length; day++) {
    const iso = `${month}-${String(day).padStart(2, '0')}`;
    const info = byDate.get(iso);
    if (!info) {
      cells.push(h('td', null, h('span', { class: 'day none' }, day)));
      continue;
    }
    const label = info.SoldOut ? t.daySoldOut(longDate(iso)) : t.dayWithRoom(longDate(iso), info.Available);
    const button = h(
      'button',
      {
        type: 'button',
        class: `day ${info.SoldOut ? 'sold-out' : 'room'}`,
        'aria-label': label,
        'aria-pressed': iso === selected ? 'true' : 'false',
        'data-date': iso,
        onclick: () => {
          history.replaceState(null, '', `${boot.Base}/activities/${activity.ActivityID}?date=${iso}`);
          holder.querySelectorAll('button.day').forEach((other) => other.setAttribute('aria-pressed', String(other === button)));
          void renderSlots(slots, step, activity, iso);
        },
      },
      day,
    );
    cells.push(h('td', null, button));
  }
  const rows: Node[] = [];
  for (let i = 0; i < cells.length; i += 7) rows.push(h('tr', null, cells.slice(i, i + 7)));
  const move = (n: number) => () =>
    void renderCalendar(holder, activity, addMonths(month, n), selected, slots, step).then(() => announce(monthName(addMonths(month, n))));
  const thisMonth = new Date().toISOString().slice(0, 7);
  replace(
    holder,
    h('h2', { id: 'choose-day' }, t.chooseDay),
    h(
      'div',
      { class: 'month-nav' },
      h('button', { type: 'button', class: 'secondary', onclick: move(-1), disabled: month <= thisMonth, 'aria-label': t.previousMonth }, '‹'),
      h('p', { class: 'month', id: 'month-name' }, monthName(month)),
      h('button', { type: 'button', class: 'secondary', onclick: move(1), 'aria-label': t.nextMonth }, '›'),
    ),
    h(
      'table',
      { 'aria-labelledby': 'month-name' },
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          weekdays.map((day) => h('th', { scope: 'col' }, day)),
        ),
      ),
      h('tbody', null, rows),
    ),
    h(
      'p',
      { class: 'legend' },
      h('span', { class: 'swatch room', 'aria-hidden': 'true' }),
      t.dayLegendRoom,
      ' ',
      h('span', { class: 'swatch sold-out', 'aria-hidden': 'true' }),
      t.dayLegendSoldOut,
    ),
    days.length === 0 ? h('p', null, t.noDaysThisMonth) : null,
  );
}

async function renderSlots(holder: HTMLElement, step: HTMLElement, activity: Activity, date: string): Promise<void> {
  replace(step);
  const slots = await shop<Timeslot[]>('GET', `/activities/${activity.ActivityID}/timeslots?Date=${date}`);
  const open = slots.filter((slot) => Date.parse(slot.StartsAt) > Date.now());
  const items = open.map((slot) => {
    const when = timeRange(slot.StartsAt, slot.EndTime, activity.Timezone);
    if (slot.Available === 0) {
      return h(
        'li',
        { class: 'slot sold-out' },
        h('span', { class: 'slot-time' }, when),
        h('span', null, t.soldOut),
        h(
          'button',
          { type: 'button', class: 'secondary', onclick: () => renderWaitlistForm(step, activity, date, slot) },
          `${t.joinWaitlist} (${when})`,
        ),
      );
    }
    return h(
      'li',
      { class: 'slot' },
      h(
        'button',
        {
          type: 'button',
          class: 'slot-button',
          'aria-pressed': 'false',
          onclick: (event: Event) => {
            holder
              .querySelectorAll('button.slot-button')
              .forEach((other) => other.setAttribute('aria-pressed', String(other === event.currentTarget)));
            void renderBookingForm(step, activity, date, slot);
          },
        },
        h('span', { class: 'slot-time' }, when),
        h('span', null, t.seatsLeft(slot.Available)),
      ),
    );
  });
  replace(holder, h('h2', null, t.chooseTime(longDate(date))), items.length ? h('ul', { class: 'slots' }, items) : h('p', null, t.noDaysThisMonth));
}
