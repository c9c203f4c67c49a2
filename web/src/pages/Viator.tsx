// The Viator connection (src/viator, docs/channels/viator.md): switch it on, give Viator the endpoint and
// the key it sends (shown once, rotatable), Viator's supplier ID and its key for event notifications
// (sealed); map products and age bands below (ViatorProducts), read Viator's latest requests, and the
// notes for Viator's contract tests and certification. Owners and admins only (keys:manage): the key lets
// a marketplace book, as an API key does.
import { useState, type FormEvent } from 'react';
import { api, type ApiError, request } from '../api';
import { formatInstant } from '../format';
import { usePageTitle } from '../router';
import {
  Badge,
  Card,
  Checkbox,
  ConfirmDialog,
  CopyableSecret,
  DataTable,
  ErrorBanner,
  figure,
  Icon,
  PageHeader,
  Spinner,
  TextField,
  useLoad,
  useToast,
} from '../ui';
import { VIATOR, type ViatorConnection } from '../viator';
import { ViatorProducts } from './ViatorProducts';

export function ViatorPage() {
  usePageTitle('Viator');
  const connection = useLoad((signal) => api.get<ViatorConnection>(VIATOR, undefined, signal), []);
  // The key of the answer that made it: kept on the page until the operator leaves, never fetched again.
  const [key, setKey] = useState<string>();

  function changed(next: ViatorConnection) {
    if (next.Key) setKey(next.Key);
    connection.setData(next);
  }

  const data = connection.data;
  return (
    <div className="page">
      <PageHeader
        title="Viator"
        description="Sell your activities on Viator from the same seats as every other channel: Viator reads your calendar, checks and holds seats while a traveller pays, and books, amends and cancels them."
      />
      <ErrorBanner error={connection.error} onRetry={connection.reload} />
      {!data && !connection.error && <Spinner />}
      {data && (
        <div className="stack">
          <ConnectionCard data={data} secret={key} onChange={changed} />
          {data.Configured && (
            <>
              <SettingsCard data={data} onChange={changed} />
              <OutboundCard data={data} onChange={changed} />
              <ViatorProducts />
              <RequestsCard data={data} onReload={connection.reload} loading={connection.loading} />
              <CertificationCard data={data} />
            </>
          )}
        </div>
      )}
    </div>
  );
}

function useAction(onChange: (next: ViatorConnection) => void) {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  async function run(action: () => Promise<ViatorConnection>, message: string): Promise<boolean> {
    setBusy(true);
    setError(undefined);
    try {
      onChange(await action());
      toast(message);
      return true;
    } catch (caught) {
      setError(caught as ApiError);
      return false;
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, run };
}

function ConnectionCard({ data, secret, onChange }: { data: ViatorConnection; secret?: string; onChange: (next: ViatorConnection) => void }) {
  const { busy, error, run } = useAction(onChange);
  const [rotating, setRotating] = useState(false);

  if (!data.Configured) {
    return (
      <Card title="Connection">
        <div className="stack">
          <p>
            Not set up yet. Setting it up creates the key Viator sends with every call, and switches the connection on. Then give Viator&rsquo;s
            integration team the endpoint and the key.
          </p>
          <ErrorBanner error={error} />
          <div className="form-actions">
            <button
              type="button"
              className="btn btn-primary"
              disabled={busy}
              onClick={() =>
                void run(() => api.patch<ViatorConnection>(VIATOR, { Enabled: true }), 'The Viator connection is set up and switched on.')
              }
            >
              Set up the connection
            </button>
          </div>
        </div>
      </Card>
    );
  }

  return (
    <Card title="Connection" actions={data.Enabled ? <Badge tone="success">On</Badge> : <Badge>Off</Badge>}>
      <div className="stack" style={{ overflowWrap: 'anywhere' }}>
        <Checkbox
          label="Switched on"
          hint="Off: Viator's calls are refused (API_DISABLED) and nothing is pushed; bookings already made stay."
          checked={data.Enabled}
          // Never disabled while saving: a disabled box would drop the keyboard's focus.
          onChange={(event) => {
            const enabled = event.target.checked;
            void run(
              () => api.patch<ViatorConnection>(VIATOR, { Enabled: enabled }),
              enabled ? 'The Viator connection is switched on.' : 'The Viator connection is switched off.',
            );
          }}
        />
        <dl className="facts">
          <dt>Endpoint</dt>
          <dd>
            <code>{data.EndpointURL}</code>
          </dd>
          <dt>Key Viator sends</dt>
          <dd>
            {secret ? (
              'Shown below, this once'
            ) : (
              <>
                Starts with <code>{data.KeyHint}</code>; stored as a hash, never shown again (rotate to get a new one)
              </>
            )}
          </dd>
          <dt>Holds last</dt>
          <dd>{data.HoldMinutes} minutes</dd>
        </dl>
        {secret && (
          <div className="stack">
            <div className="banner banner-warning">
              <Icon name="alert" />
              <div>Copy the key now and give it to Viator with the endpoint. You will not see it again: slotbook keeps only a hash.</div>
            </div>
            <CopyableSecret value={secret} label="Key for Viator (X-Api-Key)" />
          </div>
        )}
        <ErrorBanner error={error} />
        <div className="form-actions">
          <button type="button" className="btn" disabled={busy} onClick={() => setRotating(true)}>
            Rotate the key
          </button>
        </div>
      </div>
      <ConfirmDialog
        open={rotating}
        title="Rotate the key Viator sends?"
        confirmLabel="Rotate"
        busy={busy}
        error={error}
        onClose={() => setRotating(false)}
        onConfirm={() =>
          void run(() => api.post<ViatorConnection>(`${VIATOR}/key`), 'A new key: give it to Viator now.').then((done) => done && setRotating(false))
        }
      >
        <p>The current key stops working at once: Viator cannot check, reserve or book until it uses the new one.</p>
      </ConfirmDialog>
    </Card>
  );
}

function SettingsCard({ data, onChange }: { data: ViatorConnection; onChange: (next: ViatorConnection) => void }) {
  const { busy, error, run } = useAction(onChange);
  const [supplierId, setSupplierId] = useState(data.SupplierID ?? '');

  function save(event: FormEvent) {
    event.preventDefault();
    void run(
      () => api.patch<ViatorConnection>(VIATOR, { SupplierID: supplierId.trim() === '' ? null : supplierId.trim() }),
      'The Viator supplier ID is saved.',
    );
  }

  const other = error && !error.fieldError('SupplierID') ? error : undefined;
  return (
    <Card title="Settings">
      <form className="stack" onSubmit={save} noValidate aria-label="Viator settings">
        <TextField
          label="Viator supplier ID"
          inputMode="numeric"
          value={supplierId}
          onChange={(e) => setSupplierId(e.target.value)}
          spellCheck={false}
          hint="The number Viator gave you at the kick-off: every call of Viator names it, and a call with another is refused (INVALID_SUPPLIER)."
          error={error?.fieldError('SupplierID')}
        />
        <ErrorBanner error={other} />
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            Save settings
          </button>
        </div>
      </form>
    </Card>
  );
}

function OutboundCard({ data, onChange }: { data: ViatorConnection; onChange: (next: ViatorConnection) => void }) {
  const { busy, error, run } = useAction((next) => {
    // Viator's key leaves the page once stored: the service keeps it sealed and never answers it.
    setValue('');
    onChange(next);
  });
  const [value, setValue] = useState('');

  function store(event: FormEvent) {
    event.preventDefault();
    void run(() => api.put<ViatorConnection>(`${VIATOR}/outbound`, { Key: value.trim() }), "Viator's key is stored: changes are notified to Viator.");
  }

  const other = error && !error.fieldError('Key') ? error : undefined;
  return (
    <Card title="Viator's key for event notifications">
      <div className="stack" style={{ overflowWrap: 'anywhere' }}>
        <p>
          {data.OutboundKeySet
            ? 'Stored: availability and capacity changes are posted to Viator within seconds, once Viator has read a product’s calendar.'
            : 'Not stored: nothing is posted to Viator, which then learns of changes only when it reads the calendar again. Enter the API key Viator issued.'}{' '}
          They go to <code>{data.NotificationsURL}</code>.
        </p>
        <form className="stack" onSubmit={store} noValidate aria-label="Viator's key">
          <TextField
            label="Viator's API key"
            type="password"
            autoComplete="off"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            hint="Stored sealed and never shown again."
            error={error?.fieldError('Key')}
            required
          />
          <ErrorBanner error={other} />
          <div className="form-actions">
            <button type="submit" className="btn btn-primary" disabled={busy || value.trim() === ''}>
              {data.OutboundKeySet ? 'Replace' : 'Store'}
            </button>
            {data.OutboundKeySet && (
              <button
                type="button"
                className="btn"
                disabled={busy}
                onClick={() =>
                  void run(() => request<ViatorConnection>('DELETE', `${VIATOR}/outbound`), "Viator's key is forgotten: nothing is pushed any more.")
                }
              >
                Forget
              </button>
            )}
          </div>
        </form>
      </div>
    </Card>
  );
}

function RequestsCard({ data, onReload, loading }: { data: ViatorConnection; onReload: () => void; loading: boolean }) {
  return (
    <Card
      title="Latest requests from Viator"
      actions={
        <button type="button" className="btn btn-sm" onClick={onReload} disabled={loading} aria-label="Refresh requests">
          Refresh
        </button>
      }
    >
      <DataTable
        rows={data.Requests}
        columns={['Time', 'Endpoint', 'Product option', 'Answer', figure('Took')]}
        label="Latest requests from Viator"
        scrollable
        empty={<p className="muted">Viator has not called yet.</p>}
      >
        {(entry, index) => (
          <tr key={`${entry.At}-${index}`}>
            <td className="nowrap">{formatInstant(entry.At)}</td>
            <td className="mono">{entry.Endpoint}</td>
            <td className="mono">{entry.ProductOptionID ?? '—'}</td>
            <td>{entry.Outcome ? <Badge tone="danger">{entry.Outcome}</Badge> : <Badge tone="success">OK</Badge>}</td>
            <td className="num">{entry.DurationMs} ms</td>
          </tr>
        )}
      </DataTable>
    </Card>
  );
}

function CertificationCard({ data }: { data: ViatorConnection }) {
  return (
    <Card title="Contract tests and certification">
      <ol className="stack">
        <li>
          Give Viator&rsquo;s integration team the endpoint <code>{data.EndpointURL}</code>, the key, and your supplier ID. slotbook answers the v2
          calendar, availability check and reserve, and the booking, amendment, cancellation, redemption and tour list.
        </li>
        <li>
          Run Viator&rsquo;s contract testing tool against the endpoint with the key and supplier ID: it exercises each capability&rsquo;s scenarios
          (available, sold out, past the cut-off, unsupported ticket mix, unknown product option, wrong supplier, a hold booked, a retried booking, a
          cancellation).
        </li>
        <li>
          Map your products in Viator&rsquo;s supply center from the tour list: each offered activity is one product option, its ID the one set below.
          Only ticket types with an age band are sold; the reason is shown for the others.
        </li>
        <li>
          Store Viator&rsquo;s key above so that changes reach Viator: event notifications start once Viator has read a product&rsquo;s calendar.
        </li>
        <li>
          Certification: Viator books, amends and cancels test bookings; they appear in Bookings as &ldquo;Viator&rdquo;. Then Viator switches
          products on.
        </li>
      </ol>
    </Card>
  );
}
