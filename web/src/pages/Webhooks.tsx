// Webhooks: the operator's endpoints (its marketplaces' too), adding one (its secret shown once), where
// slotbook e-mails notices about them, and the banner when slotbook disabled one for failing.
import { useState, type FormEvent } from 'react';
import { api, type ApiError } from '../api';
import { formatInstant } from '../format';
import { Link, useLocation, usePageTitle } from '../router';
import {
  Badge,
  Card,
  CopyableSecret,
  DataTable,
  Dialog,
  EmptyState,
  ErrorBanner,
  Icon,
  PageHeader,
  Spinner,
  TextField,
  useLoad,
  useToast,
} from '../ui';
import { describeTypes, failingEndpoints, WEBHOOKS, type WebhookEndpoint, type WebhookEndpointWithSecret } from '../webhooks';
import { WebhookForm } from './WebhookForm';

export function WebhooksPage() {
  usePageTitle('Webhooks');
  const endpoints = useLoad((signal) => api.get<WebhookEndpoint[]>(WEBHOOKS, undefined, signal), []);
  const [created, setCreated] = useState<WebhookEndpointWithSecret>();
  const failing = failingEndpoints(endpoints.data ?? []);

  return (
    <div className="page">
      <PageHeader
        title="Webhooks"
        description="slotbook POSTs events (bookings, availability, products, orders, waitlist offers, usage) to your endpoints, signed as the Standard Webhooks specification says, and retries for about three days."
      />
      {failing.length > 0 && <FailingBanner endpoints={failing} />}
      <div className="keys-layout webhooks-layout">
        <Card title="Add an endpoint" className="keys-create">
          <WebhookForm
            onSaved={(endpoint) => {
              setCreated(endpoint as WebhookEndpointWithSecret);
              endpoints.reload();
            }}
          />
        </Card>
        <div className="stack">
          <Card title="Endpoints" className="keys-list">
            <ErrorBanner error={endpoints.error} onRetry={endpoints.reload} />
            {endpoints.loading && !endpoints.data && <Spinner label="Loading endpoints" />}
            <EndpointTable endpoints={endpoints.data} />
          </Card>
          <ContactCard />
        </div>
      </div>
      <SecretDialog title="Your endpoint's signing secret" endpoint={created} onClose={() => setCreated(undefined)} />
    </div>
  );
}

function EndpointTable({ endpoints }: { endpoints: WebhookEndpoint[] | undefined }) {
  return (
    <DataTable
      rows={endpoints}
      columns={['Endpoint', 'Events', 'Status', 'Last delivered']}
      className="keys-table webhooks-table"
      empty={
        <EmptyState icon="webhook" title="No endpoints yet">
          Add one to hear of bookings, cancellations and sold-out timeslots as they happen.
        </EmptyState>
      }
    >
      {(endpoint) => (
        <tr key={endpoint.ID} data-endpoint={endpoint.ID} className={endpoint.Status === 'disabled' ? 'row-muted' : ''}>
          <td data-label="Endpoint" className="endpoint-cell">
            <Link href={`/webhooks/${endpoint.ID}`} className="strong">
              {endpoint.Description || endpoint.URL}
            </Link>
            <div className="muted small mono">{endpoint.URL}</div>
            {endpoint.Partner && <Badge tone="violet">{endpoint.Partner}</Badge>}
          </td>
          <td data-label="Events">{describeTypes(endpoint.EventTypes)}</td>
          <td data-label="Status">
            <EndpointStatus endpoint={endpoint} />
          </td>
          <td data-label="Last delivered" className="nowrap">
            {endpoint.LastSuccessAt ? formatInstant(endpoint.LastSuccessAt) : <span className="muted">–</span>}
          </td>
        </tr>
      )}
    </DataTable>
  );
}

export function EndpointStatus({ endpoint }: { endpoint: WebhookEndpoint }) {
  if (endpoint.Status === 'disabled') {
    return <Badge tone="danger">{endpoint.DisabledReason === 'failing' ? 'Disabled: failing' : 'Disabled'}</Badge>;
  }
  if (endpoint.FailingSince)
    return (
      <Badge tone="warning" title={`Failing since ${formatInstant(endpoint.FailingSince)}`}>
        Failing
      </Badge>
    );
  return <Badge tone="success">Enabled</Badge>;
}

/** A signing secret, new or rotated, shown this once. */
export function SecretDialog({ title, endpoint, onClose }: { title: string; endpoint?: WebhookEndpointWithSecret; onClose: () => void }) {
  return (
    <Dialog
      open={endpoint !== undefined}
      title={title}
      onClose={onClose}
      footer={
        <button type="button" className="btn btn-primary" onClick={onClose}>
          I have stored it
        </button>
      }
    >
      {endpoint && (
        <>
          <div className="banner banner-warning">
            <Icon name="alert" />
            <div>Copy the secret now. It is shown only this once. Your endpoint checks each request's signature with it (see Standard Webhooks).</div>
          </div>
          <CopyableSecret value={endpoint.Secret} label="Signing secret" />
          <p className="muted small">
            Endpoint: <span className="mono">{endpoint.URL}</span>
          </p>
        </>
      )}
    </Dialog>
  );
}

function FailingBanner({ endpoints }: { endpoints: WebhookEndpoint[] }) {
  return (
    <div className="banner banner-error" role="alert">
      <Icon name="alert" />
      <div>
        <strong>{endpoints.length === 1 ? 'A webhook endpoint was disabled' : `${endpoints.length} webhook endpoints were disabled`}</strong>
        <div>
          It failed every delivery for days, so slotbook stopped sending to it:{' '}
          {endpoints.map((endpoint, index) => (
            <span key={endpoint.ID}>
              {index > 0 && ', '}
              <Link href={`/webhooks/${endpoint.ID}`}>{endpoint.Description || endpoint.URL}</Link>
            </span>
          ))}
          . Fix it, then enable it again: what waits is sent then.
        </div>
      </div>
    </div>
  );
}

/** Shown on every other page while an endpoint is disabled for failing (the Webhooks page shows its own). */
export function WebhookAlert() {
  const { path } = useLocation();
  const endpoints = useLoad((signal) => api.get<WebhookEndpoint[]>(WEBHOOKS, undefined, signal).catch(() => []), [path]);
  const failing = failingEndpoints(endpoints.data ?? []);
  if (failing.length === 0 || path.startsWith('/webhooks')) return null;
  return (
    <div className="page shell-alert">
      <FailingBanner endpoints={failing} />
    </div>
  );
}

function ContactCard() {
  const toast = useToast();
  const settings = useLoad((signal) => api.get<{ ContactEmail: string | null }>(`${WEBHOOKS}/settings`, undefined, signal), []);
  const [email, setEmail] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const value = email ?? settings.data?.ContactEmail ?? '';

  async function save(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      settings.setData(
        await api.patch<{ ContactEmail: string | null }>(`${WEBHOOKS}/settings`, { ContactEmail: value.trim() === '' ? null : value.trim() }),
      );
      setEmail(undefined);
      toast('Saved: notices about your webhooks go to that address.');
    } catch (caught) {
      setError(caught as ApiError);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card title="Notices">
      <form className="inline-form" onSubmit={save} noValidate>
        <TextField
          label="E-mail for notices"
          type="email"
          value={value}
          onChange={(e) => setEmail(e.target.value)}
          placeholder="ops@example.com"
          hint="slotbook writes here when it disables an endpoint that keeps failing"
          error={error?.fieldError('ContactEmail')}
        />
        <button type="submit" className="btn btn-secondary" disabled={busy}>
          {busy ? 'Saving…' : 'Save'}
        </button>
      </form>
      <ErrorBanner error={error && !error.fieldError('ContactEmail') ? error : undefined} />
    </Card>
  );
}
