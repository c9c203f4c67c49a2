// An endpoint's deliveries: the table (event, status, response code and time, attempts; or that there are
// none yet) and the dialog that shows one with every attempt and the payload sent, and replays it.
import { useState } from 'react';
import { api, type ApiError } from '../api';
import { formatInstant } from '../format';
import { Badge, DataTable, Dialog, EmptyState, ErrorBanner, Spinner, useLoad } from '../ui';
import { DELIVERY_LABELS, DELIVERY_TONES, WEBHOOKS, type WebhookDelivery, type WebhookDeliveryDetail } from '../webhooks';

export function DeliveryTable({ deliveries, onInspect }: { deliveries: WebhookDelivery[] | undefined; onInspect: (id: number) => void }) {
  return (
    <DataTable
      rows={deliveries}
      columns={['Event', 'Status', 'Response', 'Attempts', 'Created']}
      actions="Actions"
      className="keys-table webhooks-table"
      empty={
        <EmptyState icon="inbox" title="No deliveries">
          Events you subscribed to appear here as they are sent.
        </EmptyState>
      }
    >
      {(d) => (
        <tr key={d.ID} data-delivery={d.ID}>
          <td data-label="Event">
            <code>{d.EventType}</code>
            {d.ReplayOf && <span className="muted small"> (replay)</span>}
          </td>
          <td data-label="Status">
            <Badge tone={DELIVERY_TONES[d.Status]}>{DELIVERY_LABELS[d.Status]}</Badge>
          </td>
          <td data-label="Response" className="nowrap">
            {d.LastAttemptAt ? `${d.LastStatusCode ?? 'no answer'} · ${d.LastDurationMs} ms` : <span className="muted">–</span>}
          </td>
          <td data-label="Attempts">{d.Attempts}</td>
          <td data-label="Created" className="nowrap">
            {formatInstant(d.CreatedAt)}
          </td>
          <td className="actions">
            <button
              type="button"
              className="btn btn-sm btn-ghost"
              onClick={() => onInspect(d.ID)}
              aria-label={`Inspect delivery ${d.ID} (${d.EventType})`}
            >
              Inspect
            </button>
          </td>
        </tr>
      )}
    </DataTable>
  );
}

export function DeliveryDialog({
  endpointId,
  deliveryId,
  onClose,
  onReplayed,
}: {
  endpointId: number;
  deliveryId?: number;
  onClose: () => void;
  onReplayed: () => void;
}) {
  const detail = useLoad(
    (signal) =>
      deliveryId === undefined
        ? Promise.resolve(undefined)
        : api.get<WebhookDeliveryDetail>(`${WEBHOOKS}/${endpointId}/deliveries/${deliveryId}`, undefined, signal),
    [endpointId, deliveryId],
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  async function replay() {
    setBusy(true);
    setError(undefined);
    try {
      await api.post(`${WEBHOOKS}/${endpointId}/deliveries/${deliveryId}/replay`);
      onReplayed();
    } catch (caught) {
      setError(caught as ApiError);
    } finally {
      setBusy(false);
    }
  }
  const d = detail.data;
  return (
    <Dialog
      open={deliveryId !== undefined}
      title={d ? `Delivery of ${d.EventType}` : 'Delivery'}
      onClose={onClose}
      wide
      footer={
        <button type="button" className="btn btn-primary" disabled={busy || !d} onClick={() => void replay()}>
          {busy ? 'Replaying…' : 'Replay'}
        </button>
      }
    >
      <ErrorBanner error={detail.error ?? error} />
      {!d && detail.loading && <Spinner label="Loading the delivery" />}
      {d && (
        <>
          <dl className="facts">
            <dt>Event ID</dt>
            <dd className="mono">{d.EventID}</dd>
            <dt>Status</dt>
            <dd>
              <Badge tone={DELIVERY_TONES[d.Status]}>{DELIVERY_LABELS[d.Status]}</Badge>
              {d.NextAttemptAt && <span className="muted small"> next attempt {formatInstant(d.NextAttemptAt)}</span>}
            </dd>
            {d.DeliveredAt && (
              <>
                <dt>Delivered</dt>
                <dd>{formatInstant(d.DeliveredAt)}</dd>
              </>
            )}
          </dl>
          <h3>Attempts</h3>
          {d.AttemptLog.length === 0 ? (
            <p className="muted">Not attempted yet.</p>
          ) : (
            <ol className="attempts">
              {d.AttemptLog.map((a, index) => (
                <li key={index}>
                  <strong>{a.StatusCode === null ? 'No answer' : `HTTP ${a.StatusCode}`}</strong> in {a.DurationMs} ms, {formatInstant(a.AttemptedAt)}
                  {a.Error && <div className="field-error">{a.Error}</div>}
                  {a.ResponseBody && (
                    // Focusable: a scrolling region must be reachable by keyboard.
                    <pre className="email-body" tabIndex={0} aria-label={`Answer of attempt ${index + 1}`}>
                      {a.ResponseBody}
                    </pre>
                  )}
                </li>
              ))}
            </ol>
          )}
          <h3>Payload</h3>
          <pre className="email-body" tabIndex={0} aria-label="Payload sent">
            {JSON.stringify(d.Event, null, 2)}
          </pre>
        </>
      )}
    </Dialog>
  );
}
