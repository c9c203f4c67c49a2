// The first page: the operator's activities with duration, price from and the next free date.
import { linkProps, longDate, money, t } from './app';
import { h } from './dom';
import { showPage } from './ui';
import { basketLink } from './basket';
import { loadStorefront } from './storefront';
import { photoImage } from './photos';

export async function renderList(): Promise<void> {
  const { Activities: activities } = await loadStorefront();
  const cards = activities.map((activity, index) =>
    h(
      'li',
      { class: 'card' },
      // The cover, with the operator's alternative text (none written: decorative, the card's name says what it is).
      activity.Photos[0] ? photoImage(activity.Photos[0], '(min-width: 720px) 340px, 100vw', index === 0) : null,
      h('h2', null, activity.Name),
      activity.Description ? h('p', { class: 'description' }, activity.Description) : null,
      h(
        'dl',
        { class: 'facts' },
        h('dt', null, t.durationLabel),
        h('dd', null, t.duration(activity.DurationMinutes)),
        h('dt', { class: 'visually-hidden' }, 'Price'),
        h('dd', { class: 'price' }, t.priceFrom(money(activity.PriceFrom, activity.Currency)), ' ', h('span', { class: 'muted' }, t.perPerson)),
      ),
      h('p', { class: 'next-date' }, activity.NextAvailableDate ? t.nextFree(longDate(activity.NextAvailableDate, 'short')) : t.noFreeDate),
      h('a', { class: 'button', ...linkProps(`/activities/${activity.ActivityID}`) }, t.book(activity.Name)),
    ),
  );
  showPage(
    t.activitiesHeading,
    h('h1', null, t.activitiesHeading),
    await basketLink(),
    activities.length === 0 ? h('p', null, t.noActivities) : h('ul', { class: 'cards' }, cards),
  );
}
