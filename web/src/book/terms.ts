// The shop's terms and privacy pages, accepted before paying (docs/booking-pages.md, "Terms"): a real
// checkbox with a label (its links open in a new tab, said in words), an error tied to it with
// aria-describedby, and the focus moved to it when the guest pays without ticking it. The shop API refuses
// the checkout too (AcceptTerms), so this is help for the guest, not the rule.
import { boot, t } from './app';
import { h, nextId } from './dom';

export interface TermsConsent {
  element: HTMLElement;
  /** true when accepted; else shows the error, moves the focus to the box and answers false. */
  check(): boolean;
}

const pageLink = (href: string, text: string) =>
  h('a', { href, target: '_blank', rel: 'noopener noreferrer' }, text, h('span', { class: 'visually-hidden' }, ` ${t.opensInNewTab}`));

/** The checkbox, or null while the shop has no terms or privacy page. */
export function termsConsent(): TermsConsent | null {
  const { TermsUrl: terms, PrivacyUrl: privacy } = boot.Profile;
  if (terms === null && privacy === null) return null;
  const id = nextId('accept-terms');
  const box = h('input', { type: 'checkbox', id, name: 'accept-terms', required: true, 'aria-describedby': `${id}-error` });
  const error = h('p', { id: `${id}-error`, class: 'field-error' });
  const sentence = terms !== null && privacy !== null ? t.acceptTermsBoth : terms !== null ? t.acceptTermsOnly : t.acceptPrivacyOnly;
  // The sentence's {terms} and {privacy} become links; the rest stays text.
  const label = h(
    'label',
    { for: id },
    sentence
      .split(/(\{terms\}|\{privacy\})/)
      .map((part) => (part === '{terms}' ? pageLink(terms!, t.termsLink) : part === '{privacy}' ? pageLink(privacy!, t.privacyLink) : part)),
  );
  box.addEventListener('change', () => {
    if (box.checked) {
      error.textContent = '';
      box.removeAttribute('aria-invalid');
    }
  });
  return {
    element: h('div', { class: 'field consent' }, h('div', { class: 'consent-row' }, box, label), error),
    check() {
      if (box.checked) return true;
      error.textContent = t.termsRequired;
      box.setAttribute('aria-invalid', 'true');
      box.focus();
      return false;
    },
  };
}
