// The booking pages' script: routes the address under /book/{shop} to its page, renders it into <main>,
// moves focus to its heading (so a screen reader hears the new page) and keeps the language switcher and,
// in a shop that takes no real payments, the test-mode banner above every page.
import './book.css';
import { setShop } from './api';
import { errorText, showPage } from './ui';
import { boot, setRenderer, t } from './app';
import { h, replace } from './dom';
import { renderList } from './list';
import { renderActivity } from './activity';
import { renderBasket } from './basket';
import { renderConfirmation } from './confirmation';
import { renderManage } from './manage';
import { renderWaiverPage } from './waiver-page';

setShop(boot.OperatorID);
function languageSwitcher(): void {
  const holder = document.getElementById('language');
  if (!holder) return;
  const other = (lang: 'en' | 'de', label: string) => {
    const url = new URL(location.href);
    url.searchParams.set('lang', lang);
    return h('a', { href: url.pathname + url.search, lang, hreflang: lang, 'aria-current': boot.Locale === lang ? 'true' : null }, label);
  };
  replace(holder, h('nav', { 'aria-label': t.language, class: 'languages' }, other('en', 'English'), ' · ', other('de', 'Deutsch')));
}

/**
 * A guest must never believe a test payment was real, nor a test shop a real one: while the shop's payments
 * are test payments (boot.TestMode, from the server), every page starts with this notice. A landmark of
 * its own (complementary, named), read before the shop's header; it is static, so it is no live region.
 */
function testModeBanner(): void {
  if (!boot.TestMode) return;
  document.body.prepend(h('aside', { class: 'test-mode', 'aria-label': t.testMode }, h('strong', null, t.testMode), ' ', t.testModeText));
}

async function route(path: string, query: URLSearchParams): Promise<void> {
  const parts = path.split('/').filter(Boolean);
  try {
    if (parts.length === 0) return await renderList();
    if (parts[0] === 'activities' && parts[1]) return await renderActivity(decodeURIComponent(parts[1]), query.get('date'));
    if (parts[0] === 'basket' && parts[1]) return await renderBasket(parts[1]);
    if (parts[0] === 'confirmation' && parts[1]) return await renderConfirmation(parts[1]);
    if (parts[0] === 'manage' && parts[1] && parts[2] === 'waiver') return await renderWaiverPage(parts[1]);
    if (parts[0] === 'manage' && parts[1]) return await renderManage(parts[1]);
    showPage(t.notFound, h('h1', null, t.notFound));
  } catch (error) {
    showPage(errorText(error), h('h1', null, errorText(error)));
  }
}

setRenderer(route);
testModeBanner();
languageSwitcher();
const current = () => route(location.pathname.slice(boot.Base.length), new URLSearchParams(location.search));
window.addEventListener('popstate', () => void current());
void current();
