// Completing a booking's waiver after it was made (a desk or marketplace booking, a waitlist claim): the
// activity's questions, files uploaded through the booking's own link, the answers sent once. Reached from
// the booking's page and the link in the guest's e-mails: /book/{shop}/manage/{token}/waiver.
import { shop, type BookingWaiver, type ManagedBooking } from './api';
import { boot, linkProps, longDate, t } from './app';
import { h, replace } from './dom';
import { errorText, showPage } from './ui';
import { waiverFields } from './waiver';

export async function renderWaiverPage(token: string): Promise<void> {
  const [booking, waiver] = await Promise.all([
    shop<ManagedBooking>('GET', `/bookings/${token}`),
    shop<BookingWaiver>('GET', `/bookings/${token}/waiver?Locale=${boot.Locale}`),
  ]);
  const back = h('p', null, h('a', linkProps(`/manage/${token}`), t.backToBooking));
  const facts = h('p', { class: 'facts-line' }, `${booking.ActivityName} · ${longDate(booking.Date)} · ${booking.Time} (${booking.Timezone})`);
  if (waiver.WaiverStatus === 'complete')
    return showPage(t.waiverHeading, h('h1', null, t.waiverHeading), facts, h('p', { class: 'success' }, t.waiverDone), back);
  if (booking.Status !== 'confirmed' && booking.Status !== 'on_hold')
    return showPage(t.waiverHeading, h('h1', null, t.waiverHeading), facts, h('p', { class: 'note' }, t.waiverClosed), back);

  const fields = waiverFields(waiver.Questions);
  const alert = h('div', { role: 'alert', class: 'alert-holder' });
  const send = h('button', { type: 'submit' }, t.waiverSend);
  const form = h('form', { novalidate: true, 'aria-labelledby': 'waiver-heading' }, fields.element, alert, send);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (send.disabled || !fields.check()) return;
    send.disabled = true;
    send.textContent = t.waiverSending;
    replace(alert);
    void (async () => {
      try {
        const answers = await fields.answers({ booking: token });
        await shop('POST', `/bookings/${token}/waiver`, { WaiverAnswers: answers });
        await renderWaiverPage(token);
      } catch (error) {
        send.disabled = false;
        send.textContent = t.waiverSend;
        replace(alert, h('p', { class: 'error' }, errorText(error)));
      }
    })();
  });
  showPage(t.waiverHeading, h('h1', { id: 'waiver-heading' }, t.waiverHeading), facts, form, back);
}
