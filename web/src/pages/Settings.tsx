// The operator's shop settings (src/settings): whether the shop sells and whether it is a test shop, its
// name, address (slug), contact e-mail, brand colour, logo and the websites allowed to embed it; the embed
// snippet to copy and a link to preview the booking pages.
import { useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { api, type ApiError, csrfHeaders, request } from '../api';
import type { Schemas } from '../api-types';
import { Card, Checkbox, ErrorBanner, Icon, PageHeader, Spinner, TextArea, TextField, useLoad, useToast } from '../ui';
import { useSession } from '../session';
import { StripeCard } from './StripeSettings';

const SETTINGS = '/api/v2/admin/settings';

type OperatorSettings = Schemas['OperatorSettings'];

interface Draft {
  ShopName: string;
  Slug: string;
  ContactEmail: string;
  BrandColour: string;
  Origins: string;
  TermsUrl: string;
  PrivacyUrl: string;
}

const draftOf = (s: OperatorSettings): Draft => ({
  ShopName: s.ShopName ?? '',
  Slug: s.Slug,
  ContactEmail: s.ContactEmail ?? '',
  BrandColour: s.BrandColour ?? '',
  Origins: s.AllowedEmbedOrigins.join('\n'),
  TermsUrl: s.TermsUrl ?? '',
  PrivacyUrl: s.PrivacyUrl ?? '',
});

export function SettingsPage() {
  const settings = useLoad((signal) => api.get<OperatorSettings>(SETTINGS, undefined, signal), []);
  const { can } = useSession();
  // Connecting or disconnecting Stripe changes who charges the shop: its card reads it again.
  const [paymentsChanged, setPaymentsChanged] = useState(0);
  return (
    <>
      <PageHeader title="Shop settings" description="How your booking pages look, where they live, and which websites may show them." />
      {settings.loading && !settings.data && <Spinner />}
      <ErrorBanner error={settings.error} onRetry={settings.reload} />
      {settings.data && (
        <div className="stack">
          <ShopOpenCard version={paymentsChanged} />
          {can('payments:manage') && <StripeCard onChange={() => setPaymentsChanged((n) => n + 1)} />}
          <DetailsCard settings={settings.data} onSaved={settings.setData} />
          <LogoCard settings={settings.data} onSaved={settings.setData} />
          <EmbedCard settings={settings.data} />
        </div>
      )}
    </>
  );
}

type ShopSettings = Schemas['ShopSettings'];

const SHOP = '/api/v2/admin/shop';

function ShopOpenCard({ version }: { version: number }) {
  const toast = useToast();
  const shop = useLoad((signal) => api.get<ShopSettings>(SHOP, undefined, signal), [version]);
  const [error, setError] = useState<ApiError>();
  async function change(patch: Partial<Pick<ShopSettings, 'Open' | 'TestMode'>>, done: (saved: ShopSettings) => string) {
    const before = shop.data;
    if (!before) return;
    setError(undefined);
    shop.setData({ ...before, ...patch }); // shown at once; put back if the service refuses
    try {
      const saved = await api.patch<ShopSettings>(SHOP, patch);
      shop.setData(saved);
      toast(done(saved));
    } catch (caught) {
      shop.setData(before);
      setError(caught as ApiError);
    }
  }
  const data = shop.data;
  return (
    <Card title="Online shop">
      {data && (
        <>
          <Checkbox
            label="The shop is open"
            hint="Closed, the booking pages and the embed show nothing; baskets already holding seats can still be paid."
            checked={data.Open}
            onChange={(e) =>
              void change({ Open: e.target.checked }, (s) =>
                s.Open ? 'Your shop is open: guests can book online.' : 'Your shop is closed: its pages answer "not found".',
              )
            }
          />
          <Checkbox
            label="Test mode"
            hint={
              <>
                A test shop takes no real payments: guests pay with test cards (4242 4242 4242 4242 is accepted) and every booking page says
                &ldquo;Test mode&rdquo;, yet their bookings are confirmed and e-mailed like real ones. On a production server a shop opens once Stripe
                is connected, or in test mode.
              </>
            }
            checked={data.TestMode}
            onChange={(e) =>
              void change({ TestMode: e.target.checked }, (s) =>
                s.TestMode ? 'Test mode is on: your pages say so, and take test cards only.' : 'Test mode is off.',
              )
            }
          />
          <p className="muted">{paymentStatus(data)}</p>
        </>
      )}
      <ErrorBanner error={error ?? shop.error} />
    </Card>
  );
}

/** What the shop's payments are, in words: the service decides (PaymentProvider), this only explains it. */
function paymentStatus(shop: ShopSettings): string {
  if (shop.PaymentProvider === null)
    return "No payment provider takes this shop's payments, so it cannot open: connect Stripe, or turn test mode on to open it as a test shop.";
  if (shop.TestMode) return 'Payments are test payments: no money is charged.';
  if (shop.PaymentProvider === 'test')
    return 'This server is not in production: every payment is a test payment, and your booking pages say "Test mode" whatever you choose here.';
  if (shop.PaymentProvider === 'stripe') return "Guests pay on Stripe's page, into your Stripe account.";
  return `Payments go through ${shop.PaymentProvider}.`;
}

function originErrors(error: ApiError | undefined): string | undefined {
  const messages = error?.errors.filter((e) => e.field.startsWith('AllowedEmbedOrigins')).map((e) => e.message);
  return messages && messages.length > 0 ? messages.join(' ') : undefined;
}

function DetailsCard({ settings, onSaved }: { settings: OperatorSettings; onSaved: (s: OperatorSettings) => void }) {
  const toast = useToast();
  const [draft, setDraft] = useState<Draft>(() => draftOf(settings));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const colourId = useId();
  const set = (field: keyof Draft) => (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
    setDraft({ ...draft, [field]: event.target.value });

  async function save(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const saved = await api.patch<OperatorSettings>(SETTINGS, {
        ShopName: draft.ShopName.trim() === '' ? null : draft.ShopName.trim(),
        Slug: draft.Slug.trim(),
        ContactEmail: draft.ContactEmail.trim() === '' ? null : draft.ContactEmail.trim(),
        BrandColour: draft.BrandColour.trim() === '' ? null : draft.BrandColour.trim(),
        AllowedEmbedOrigins: draft.Origins.split(/[\s,]+/).filter((line) => line !== ''),
        TermsUrl: draft.TermsUrl.trim() === '' ? null : draft.TermsUrl.trim(),
        PrivacyUrl: draft.PrivacyUrl.trim() === '' ? null : draft.PrivacyUrl.trim(),
      });
      onSaved(saved);
      setDraft(draftOf(saved));
      toast('Saved.');
    } catch (caught) {
      setError(caught as ApiError);
    } finally {
      setBusy(false);
    }
  }

  const known = ['ShopName', 'Slug', 'ContactEmail', 'BrandColour', 'TermsUrl', 'PrivacyUrl'];
  const other = error && !known.some((f) => error.fieldError(f)) && !originErrors(error) ? error : undefined;
  const swatch = /^#[0-9a-f]{6}$/i.test(draft.BrandColour) ? draft.BrandColour : '#0b5cad';
  return (
    <Card title="Your shop">
      <form className="stack" onSubmit={save} noValidate>
        <TextField
          label="Shop name"
          value={draft.ShopName}
          onChange={set('ShopName')}
          placeholder={settings.DisplayName}
          maxLength={100}
          hint="Shown to guests on the booking pages and in their e-mails. Empty: your company name."
          error={error?.fieldError('ShopName')}
        />
        <TextField
          label="Address (slug)"
          value={draft.Slug}
          onChange={set('Slug')}
          autoComplete="off"
          spellCheck={false}
          hint={`Your booking pages: ${settings.BookingPageUrl.replace(/[^/]+$/, '')}${draft.Slug || '…'}. Lower-case letters, digits and hyphens. Links to the old address keep working until another shop takes it.`}
          error={error?.fieldError('Slug')}
        />
        <TextField
          label="Contact e-mail"
          type="email"
          value={draft.ContactEmail}
          onChange={set('ContactEmail')}
          placeholder="ops@example.com"
          hint="Where slotbook writes to you (also used for webhook notices)."
          error={error?.fieldError('ContactEmail')}
        />
        <div className="colour-field">
          <TextField
            label="Brand colour"
            value={draft.BrandColour}
            onChange={set('BrandColour')}
            placeholder="#0b5cad"
            hint="Buttons and headers of your pages and e-mails, with white text on it: it must be dark enough to read (contrast 4.5:1)."
            error={error?.fieldError('BrandColour')}
          />
          <label htmlFor={colourId} className="visually-hidden">
            Pick the brand colour
          </label>
          <input id={colourId} type="color" value={swatch} onChange={set('BrandColour')} className="colour-swatch" />
        </div>
        <TextField
          label="Terms and conditions (address)"
          type="url"
          value={draft.TermsUrl}
          onChange={set('TermsUrl')}
          placeholder="https://www.example.com/terms"
          spellCheck={false}
          hint="An https page of your website. When set, guests must accept it before they pay. Empty: nothing to accept."
          error={error?.fieldError('TermsUrl')}
        />
        <TextField
          label="Privacy notice (address)"
          type="url"
          value={draft.PrivacyUrl}
          onChange={set('PrivacyUrl')}
          placeholder="https://www.example.com/privacy"
          spellCheck={false}
          hint="An https page of your website, linked beside the terms before guests pay."
          error={error?.fieldError('PrivacyUrl')}
        />
        <TextArea
          label="Websites that may embed your pages"
          value={draft.Origins}
          onChange={set('Origins')}
          rows={3}
          placeholder="https://www.example.com"
          spellCheck={false}
          hint="One per line, like https://www.example.com. Empty: any website may show your booking pages."
          error={originErrors(error)}
        />
        <ErrorBanner error={other} />
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
    </Card>
  );
}

function LogoCard({ settings, onSaved }: { settings: OperatorSettings; onSaved: (s: OperatorSettings) => void }) {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const input = useRef<HTMLInputElement>(null);
  const id = useId();

  async function upload(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (!file) return;
    setError(undefined);
    if (!['image/png', 'image/jpeg', 'image/webp'].includes(file.type)) return setError('Choose a PNG, JPEG or WebP image (SVG is not accepted).');
    if (file.size > 512 * 1024) return setError(`The image is ${Math.ceil(file.size / 1024)} KiB; at most 512 KiB.`);
    setBusy(true);
    try {
      const response = await fetch(`${SETTINGS}/logo`, {
        method: 'PUT',
        credentials: 'same-origin',
        headers: { 'Content-Type': file.type, Accept: 'application/json', ...csrfHeaders() },
        body: file,
      });
      const body = (await response.json().catch(() => ({}))) as { data?: OperatorSettings; detail?: string };
      if (!response.ok || !body.data) throw new Error(body.detail ?? `The service answered ${response.status}`);
      onSaved(body.data);
      toast('Logo saved.');
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  }

  async function remove() {
    setError(undefined);
    try {
      onSaved(await request<OperatorSettings>('DELETE', `${SETTINGS}/logo`));
      toast('Logo removed.');
    } catch (caught) {
      setError((caught as Error).message);
    }
  }

  return (
    <Card title="Logo">
      <div className="logo-row">
        {settings.LogoUrl ? (
          <img src={new URL(settings.LogoUrl).pathname} alt={`Logo of ${settings.DisplayName}`} className="logo-preview" />
        ) : (
          <p className="muted">No logo yet: your pages show your shop name.</p>
        )}
        <div>
          <button type="button" className="btn btn-secondary" onClick={() => input.current?.click()} disabled={busy} aria-describedby={`${id}-hint`}>
            <Icon name="file" /> {busy ? 'Uploading…' : settings.LogoUrl ? 'Replace logo' : 'Upload logo'}
          </button>
          <input
            id={id}
            ref={input}
            type="file"
            accept="image/png,image/jpeg,image/webp"
            onChange={(e) => void upload(e)}
            className="visually-hidden"
            tabIndex={-1}
            aria-label="Logo image file"
          />
          {settings.LogoUrl && (
            <button type="button" className="btn btn-ghost" onClick={() => void remove()}>
              <Icon name="trash" /> Remove
            </button>
          )}
          <p className="field-hint" id={`${id}-hint`}>
            PNG, JPEG or WebP, at most 512 KiB; shown on your booking pages and in guests' e-mails.
          </p>
        </div>
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </Card>
  );
}

function EmbedCard({ settings }: { settings: OperatorSettings }) {
  const [copied, setCopied] = useState(false);
  const area = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  async function copy() {
    try {
      await navigator.clipboard.writeText(settings.EmbedSnippet);
    } catch {
      area.current?.select();
      document.execCommand('copy');
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 2500);
  }
  return (
    <Card
      title="Your website"
      actions={
        <a className="btn btn-secondary" href={settings.BookingPageUrl} target="_blank" rel="noopener noreferrer">
          <Icon name="globe" /> Preview booking pages
        </a>
      }
    >
      <p>
        Paste this into your website. Put an activity's ID (Activities page) into <code>data-slotbook-activity</code>: the link opens your booking
        pages in a dialog; <code>data-slotbook-inline</code> shows the calendar right in your page.
      </p>
      <label htmlFor={id} className="visually-hidden">
        Embed code
      </label>
      <textarea id={id} ref={area} readOnly rows={5} value={settings.EmbedSnippet} className="mono snippet" onFocus={(e) => e.target.select()} />
      <div className="form-actions">
        <button type="button" className="btn btn-secondary" onClick={() => void copy()}>
          <Icon name={copied ? 'check' : 'copy'} /> {copied ? 'Copied' : 'Copy code'}
        </button>
      </div>
      <span className="visually-hidden" role="status">
        {copied ? 'Copied to the clipboard' : ''}
      </span>
    </Card>
  );
}
