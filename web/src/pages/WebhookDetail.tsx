// One webhook endpoint: test it, disable or enable it, rotate its secret, change or delete it, and its
// deliveries (status, response code and time), each to inspect, with every attempt, and replay
// (WebhookDeliveries.tsx).
import { useState } from 'react';
import { api, type ApiError } from '../api';
import { formatInstant } from '../format';
import { Link, navigate, usePageTitle } from '../router';
import { Card, ConfirmDialog, ErrorBanner, Icon, PageHeader, SelectField, Spinner, useLoad, useToast } from '../ui';
import {
  DELIVERY_LABELS,
  describeTypes,
  WEBHOOKS,
  type DeliveryStatus,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
} from '../webhooks';
import { DeliveryDialog, DeliveryTable } from './WebhookDeliveries';
import { EndpointStatus, SecretDialog } from './Webhooks';
import { WebhookForm } from './WebhookForm';

const PAGE = 50;

export function WebhookDetailPage({ id }: { id: number }) {
  const endpoint = useLoad((signal) => api.get<WebhookEndpoint>(`${WEBHOOKS}/${id}`, undefined, signal), [id]);
  usePageTitle(endpoint.data ? `Webhook ${endpoint.data.Description || endpoint.data.URL}` : 'Webhook');
  const toast = useToast();
  const [status, setStatus] = useState<DeliveryStatus | ''>('');
  const [limit, setLimit] = useState(PAGE);
  const deliveries = useLoad(
    (signal) => api.get<WebhookDelivery[]>(`${WEBHOOKS}/${id}/deliveries`, { Status: status, Limit: limit }, signal),
    [id, status, limit],
  );
  const [editing, setEditing] = useState(false);
  const [secret, setSecret] = useState<WebhookEndpointWithSecret>();
  const [confirm, setConfirm] = useState<'rotate' | 'delete'>();
  const [inspecting, setInspecting] = useState<number>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();

  async function act(action: () => Promise<void>) {
    setBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (caught) {
      setError(caught as ApiError);
    } finally {
      setBusy(false);
    }
  }
  const sendTest = () =>
    act(async () => {
      const delivery = await api.post<WebhookDelivery>(`${WEBHOOKS}/${id}/test`);
      toast(
        delivery.Status === 'delivered'
          ? `Test event delivered: HTTP ${delivery.LastStatusCode} in ${delivery.LastDurationMs} ms.`
          : `Test event failed: ${delivery.LastError}`,
        delivery.Status === 'delivered' ? 'success' : 'error',
      );
      deliveries.reload();
    });
  const setEnabled = (Enabled: boolean) =>
    act(async () => {
      endpoint.setData(await api.patch<WebhookEndpoint>(`${WEBHOOKS}/${id}`, { Enabled }));
      toast(Enabled ? 'Enabled: deliveries resume.' : 'Disabled: nothing is sent to it until you enable it again.');
      deliveries.reload();
    });
  const rotate = () =>
    act(async () => {
      const rotated = await api.post<WebhookEndpointWithSecret>(`${WEBHOOKS}/${id}/rotate-secret`);
      endpoint.setData(rotated);
      setConfirm(undefined);
      setSecret(rotated);
    });
  const remove = () =>
    act(async () => {
      await api.del(`${WEBHOOKS}/${id}`);
      toast('Endpoint deleted.');
      navigate('/webhooks');
    });

  const e = endpoint.data;
  return (
    <div className="page">
      <Link href="/webhooks" className="back-link">
        <Icon name="left" size={16} />
        Webhooks
      </Link>
      <ErrorBanner error={endpoint.error} onRetry={endpoint.reload} />
      {!e && endpoint.loading && <Spinner label="Loading the endpoint" />}
      {e && (
        <>
          <PageHeader
            title={e.Description || 'Webhook endpoint'}
            description={<span className="mono">{e.URL}</span>}
            actions={
              <>
                <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void sendTest()}>
                  <Icon name="webhook" />
                  Send test event
                </button>
                <button type="button" className="btn btn-secondary" disabled={busy} onClick={() => void setEnabled(e.Status === 'disabled')}>
                  {e.Status === 'disabled' ? 'Enable' : 'Disable'}
                </button>
                <button type="button" className="btn btn-secondary" disabled={busy} onClick={() => setConfirm('rotate')}>
                  Rotate secret
                </button>
                <button type="button" className="btn btn-danger-outline" disabled={busy} onClick={() => setConfirm('delete')}>
                  Delete
                </button>
              </>
            }
          />
          <ErrorBanner error={error && !confirm ? error : undefined} />
          {e.Status === 'disabled' && e.DisabledReason === 'failing' && (
            <div className="banner banner-error" role="alert">
              <Icon name="alert" />
              <div>
                slotbook disabled this endpoint {e.DisabledAt ? `on ${formatInstant(e.DisabledAt)} ` : ''}because it failed every delivery for days.
                Fix it, send a test event, then enable it: the deliveries that wait are sent then, and failed ones can be replayed below.
              </div>
            </div>
          )}
          <Card
            title="Endpoint"
            actions={
              !editing && (
                <button type="button" className="btn btn-sm btn-secondary" onClick={() => setEditing(true)}>
                  Edit
                </button>
              )
            }
          >
            {editing ? (
              <WebhookForm
                endpoint={e}
                onCancel={() => setEditing(false)}
                onSaved={(saved) => {
                  endpoint.setData(saved);
                  setEditing(false);
                  toast('Saved.');
                }}
              />
            ) : (
              <dl className="facts">
                <dt>Status</dt>
                <dd>
                  <EndpointStatus endpoint={e} />
                </dd>
                <dt>Events</dt>
                <dd>{describeTypes(e.EventTypes)}</dd>
                <dt>Marketplace</dt>
                <dd>{e.Partner ?? <span className="muted">– (all of your events)</span>}</dd>
                <dt>Last delivered</dt>
                <dd>{e.LastSuccessAt ? formatInstant(e.LastSuccessAt) : '–'}</dd>
                {e.FailingSince && (
                  <>
                    <dt>Failing since</dt>
                    <dd>{formatInstant(e.FailingSince)}</dd>
                  </>
                )}
                {e.PreviousSecretExpiresAt && (
                  <>
                    <dt>Previous secret</dt>
                    <dd>still signs until {formatInstant(e.PreviousSecretExpiresAt)}</dd>
                  </>
                )}
                <dt>Created</dt>
                <dd>{formatInstant(e.CreatedAt)}</dd>
              </dl>
            )}
          </Card>
          <Card
            title="Deliveries"
            className="keys-list"
            actions={
              <>
                <SelectField
                  label="Status"
                  value={status}
                  onChange={(event) => setStatus(event.target.value as DeliveryStatus | '')}
                  className="inline-select"
                >
                  <option value="">All</option>
                  {(Object.keys(DELIVERY_LABELS) as DeliveryStatus[]).map((s) => (
                    <option key={s} value={s}>
                      {DELIVERY_LABELS[s]}
                    </option>
                  ))}
                </SelectField>
                <button type="button" className="btn btn-sm btn-ghost" onClick={deliveries.reload} aria-label="Refresh deliveries">
                  <Icon name="refresh" />
                </button>
              </>
            }
          >
            <ErrorBanner error={deliveries.error} onRetry={deliveries.reload} />
            {deliveries.loading && !deliveries.data && <Spinner label="Loading deliveries" />}
            <DeliveryTable deliveries={deliveries.data} onInspect={setInspecting} />
            {deliveries.data?.length === limit && (
              <div className="table-more">
                <button type="button" className="btn btn-secondary" onClick={() => setLimit(limit + PAGE)}>
                  Show more
                </button>
              </div>
            )}
          </Card>
        </>
      )}
      <DeliveryDialog
        endpointId={id}
        deliveryId={inspecting}
        onClose={() => setInspecting(undefined)}
        onReplayed={() => {
          setInspecting(undefined);
          toast('Replay queued: the event goes out again in a moment.');
          deliveries.reload();
        }}
      />
      <ConfirmDialog
        open={confirm === 'rotate'}
        title="Rotate the signing secret?"
        confirmLabel="Rotate secret"
        tone="primary"
        busy={busy}
        error={error}
        onConfirm={() => void rotate()}
        onClose={() => setConfirm(undefined)}
      >
        <p>
          A new secret signs every delivery from now on. For 24 hours the current one signs beside it, so your endpoint keeps verifying while you
          switch.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirm === 'delete'}
        title="Delete this endpoint?"
        confirmLabel="Delete endpoint"
        busy={busy}
        error={error}
        onConfirm={() => void remove()}
        onClose={() => setConfirm(undefined)}
      >
        <p>Nothing more is sent to it, and its deliveries are forgotten. This cannot be undone.</p>
      </ConfirmDialog>
      <SecretDialog title="The new signing secret" endpoint={secret} onClose={() => setSecret(undefined)} />
    </div>
  );
}
