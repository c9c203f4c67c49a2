// Adding or changing a webhook endpoint: URL, description, the events it wants (every event, or a
// choice; usage.recorded only when named), and for a new one an optional marketplace.
import { useState, type FormEvent } from 'react';
import { api, type ApiError } from '../api';
import { Checkbox, ErrorBanner, TextField, useLoad } from '../ui';
import { WEBHOOKS, type WebhookEndpoint, type WebhookEndpointWithSecret, type WebhookEventType } from '../webhooks';

interface Props {
  /** The endpoint to change; none: a new one. */
  endpoint?: WebhookEndpoint;
  onSaved: (endpoint: WebhookEndpoint | WebhookEndpointWithSecret) => void;
  onCancel?: () => void;
}

const FIELDS = ['URL', 'Description', 'EventTypes', 'Partner'];

export function WebhookForm({ endpoint, onSaved, onCancel }: Props) {
  const types = useLoad((signal) => api.get<WebhookEventType[]>(`${WEBHOOKS}/event-types`, undefined, signal), []);
  const [url, setUrl] = useState(endpoint?.URL ?? '');
  const [description, setDescription] = useState(endpoint?.Description ?? '');
  const [all, setAll] = useState(endpoint ? endpoint.EventTypes.includes('*') : true);
  const [chosen, setChosen] = useState<string[]>(endpoint?.EventTypes.filter((type) => type !== '*') ?? []);
  const [partner, setPartner] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const eventTypes = [...(all ? ['*'] : []), ...chosen];
  const toggle = (type: string, on: boolean) => setChosen((list) => (on ? [...list, type] : list.filter((t) => t !== type)));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const body = { URL: url.trim(), Description: description.trim(), EventTypes: eventTypes };
      const saved = endpoint
        ? await api.patch<WebhookEndpoint>(`${WEBHOOKS}/${endpoint.ID}`, body)
        : await api.post<WebhookEndpointWithSecret>(WEBHOOKS, { ...body, ...(partner.trim() && { Partner: partner.trim().toLowerCase() }) });
      onSaved(saved);
      if (!endpoint) {
        setUrl('');
        setDescription('');
        setPartner('');
      }
    } catch (caught) {
      setError(caught as ApiError);
    } finally {
      setBusy(false);
    }
  }

  const typeError = error?.errors.find((e) => e.field.startsWith('EventTypes'))?.message;
  return (
    <form onSubmit={submit} noValidate className="stack">
      <TextField
        label="URL"
        type="url"
        required
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        placeholder="https://example.com/slotbook/webhooks"
        hint="Events are POSTed here, signed. https (http only to localhost while developing)."
        error={error?.fieldError('URL')}
      />
      <TextField
        label="Description"
        maxLength={200}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        placeholder="Accounting sync"
        error={error?.fieldError('Description')}
      />
      <fieldset className="fieldset">
        <legend>Events</legend>
        <div className="checks">
          <Checkbox
            label="Every event"
            hint="All event types, new ones included; not usage (choose it below)"
            checked={all}
            onChange={(e) => setAll(e.target.checked)}
          />
          {types.data
            ?.filter((type) => type.OptIn || !all)
            .map((type) => (
              <Checkbox
                key={type.Type}
                label={<code>{type.Type}</code>}
                hint={type.Description}
                checked={chosen.includes(type.Type)}
                onChange={(e) => toggle(type.Type, e.target.checked)}
              />
            ))}
        </div>
        {typeError && <div className="field-error">{typeError}</div>}
      </fieldset>
      {!endpoint && (
        <TextField
          label="Marketplace (optional)"
          value={partner}
          maxLength={63}
          onChange={(e) => setPartner(e.target.value)}
          placeholder="viator"
          hint="Only that marketplace's bookings (and the public catalogue and availability events)"
          error={error?.fieldError('Partner')}
        />
      )}
      <ErrorBanner error={error && !FIELDS.some((f) => error.errors.some((e) => e.field.startsWith(f))) ? error : undefined} />
      <div className="form-actions">
        {onCancel && (
          <button type="button" className="btn btn-secondary" onClick={onCancel}>
            Cancel
          </button>
        )}
        <button type="submit" className="btn btn-primary" disabled={busy || eventTypes.length === 0}>
          {busy ? 'Saving…' : endpoint ? 'Save changes' : 'Add endpoint'}
        </button>
      </div>
    </form>
  );
}
