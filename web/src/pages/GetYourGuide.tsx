// The GetYourGuide connection (src/getyourguide, docs/channels/getyourguide.md): switch it on, give GYG the
// endpoint and the inbound credentials (the password is shown once), its supplier ID, its own credentials
// for pushes, the hold length and ticket style; map products below (GygProducts) and read what GYG did
// (GygActivity). Owners and admins only (keys:manage): the credentials let a marketplace book, as a key does.
import { useState, type FormEvent } from 'react';
import { api, type ApiError, request } from '../api';
import { GYG, type GygConnection } from '../getyourguide';
import { usePageTitle } from '../router';
import {
  Badge,
  Card,
  Checkbox,
  ConfirmDialog,
  CopyableSecret,
  ErrorBanner,
  Icon,
  PageHeader,
  SelectField,
  Spinner,
  TextField,
  useLoad,
  useToast,
} from '../ui';
import { GygActivity } from './GygActivity';
import { GygProducts } from './GygProducts';

export function GetYourGuidePage() {
  usePageTitle('GetYourGuide');
  const connection = useLoad((signal) => api.get<GygConnection>(GYG, undefined, signal), []);
  // The password of the answer that made it: kept on the page until the operator leaves, never fetched again.
  const [password, setPassword] = useState<string>();

  function changed(next: GygConnection) {
    if (next.Password) setPassword(next.Password);
    connection.setData(next);
  }

  const data = connection.data;
  return (
    <div className="page">
      <PageHeader
        title="GetYourGuide"
        description="Sell your activities on GetYourGuide from the same seats as every other channel: GetYourGuide asks slotbook for availability, holds seats while a traveller pays and books them."
      />
      <ErrorBanner error={connection.error} onRetry={connection.reload} />
      {!data && !connection.error && <Spinner />}
      {data && (
        <div className="stack">
          <ConnectionCard data={data} password={password} onChange={changed} />
          {data.Configured && (
            <>
              <SettingsCard data={data} onChange={changed} />
              <OutboundCard data={data} onChange={changed} />
              <GygProducts />
              <GygActivity data={data} onReload={connection.reload} loading={connection.loading} />
            </>
          )}
        </div>
      )}
    </div>
  );
}

function ConnectionCard({ data, password, onChange }: { data: GygConnection; password?: string; onChange: (next: GygConnection) => void }) {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const [rotating, setRotating] = useState(false);

  async function run(action: () => Promise<GygConnection>, message: string) {
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

  if (!data.Configured) {
    return (
      <Card title="Connection">
        <div className="stack">
          <p>
            Not set up yet. Setting it up creates the user name and password GetYourGuide calls slotbook with, and switches the connection on. Then
            give GetYourGuide the endpoint, the user name and the password in its supplier portal.
          </p>
          <ErrorBanner error={error} />
          <div className="form-actions">
            <button
              type="button"
              className="btn btn-primary"
              disabled={busy}
              onClick={() =>
                void run(() => api.patch<GygConnection>(GYG, { Enabled: true }), 'The GetYourGuide connection is set up and switched on.')
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
          hint="Off: GetYourGuide's calls are refused (AUTHORIZATION_FAILURE) and nothing is pushed; bookings already made stay."
          checked={data.Enabled}
          // Never disabled while saving: a disabled box would drop the keyboard's focus.
          onChange={(event) => {
            const enabled = event.target.checked;
            void run(
              () => api.patch<GygConnection>(GYG, { Enabled: enabled }),
              enabled ? 'The GetYourGuide connection is switched on.' : 'The GetYourGuide connection is switched off.',
            );
          }}
        />
        <dl className="facts">
          <dt>Endpoint</dt>
          <dd>
            <code>{data.EndpointURL}</code>
          </dd>
          <dt>User name</dt>
          <dd>
            <code>{data.Username}</code>
          </dd>
          <dt>Password</dt>
          <dd>{password ? 'Shown below, this once' : 'Stored as a hash; never shown again (rotate to get a new one)'}</dd>
        </dl>
        {password && (
          <div className="stack">
            <div className="banner banner-warning">
              <Icon name="alert" />
              <div>
                Copy the password now and enter it in GetYourGuide&rsquo;s supplier portal. You will not see it again: slotbook keeps only a hash.
              </div>
            </div>
            <CopyableSecret value={password} label="Password for GetYourGuide" />
          </div>
        )}
        <ErrorBanner error={error} />
        <div className="form-actions">
          <button type="button" className="btn" disabled={busy} onClick={() => setRotating(true)}>
            Rotate the credentials
          </button>
        </div>
      </div>
      <ConfirmDialog
        open={rotating}
        title="Rotate the GetYourGuide credentials?"
        confirmLabel="Rotate"
        busy={busy}
        error={error}
        onClose={() => setRotating(false)}
        onConfirm={() =>
          void run(() => api.post<GygConnection>(`${GYG}/credentials`), 'New credentials: give them to GetYourGuide now.').then(
            (done) => done && setRotating(false),
          )
        }
      >
        <p>The current user name and password stop working at once: GetYourGuide cannot reserve or book until you enter the new ones there.</p>
      </ConfirmDialog>
    </Card>
  );
}

function SettingsCard({ data, onChange }: { data: GygConnection; onChange: (next: GygConnection) => void }) {
  const toast = useToast();
  const [supplierId, setSupplierId] = useState(data.SupplierID ?? '');
  const [holdMinutes, setHoldMinutes] = useState(data.HoldMinutes === null ? '' : String(data.HoldMinutes));
  const [ticketStyle, setTicketStyle] = useState(data.TicketStyle);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();

  async function save(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const minutes = holdMinutes.trim() === '' ? null : Number(holdMinutes);
      onChange(
        await api.patch<GygConnection>(GYG, {
          SupplierID: supplierId.trim() === '' ? null : supplierId.trim(),
          HoldMinutes: minutes !== null && Number.isInteger(minutes) ? minutes : minutes === null ? null : holdMinutes,
          TicketStyle: ticketStyle,
        }),
      );
      toast('The GetYourGuide settings are saved.');
    } catch (caught) {
      setError(caught as ApiError);
    } finally {
      setBusy(false);
    }
  }

  const fields = ['SupplierID', 'HoldMinutes', 'TicketStyle'];
  const other = error && !fields.some((field) => error.fieldError(field)) ? error : undefined;
  return (
    <Card title="Settings">
      <form className="stack" onSubmit={save} noValidate aria-label="GetYourGuide settings">
        <TextField
          label="GetYourGuide supplier ID"
          value={supplierId}
          onChange={(e) => setSupplierId(e.target.value)}
          spellCheck={false}
          hint="Your supplier ID in GetYourGuide's supplier portal: GetYourGuide asks for your products with it."
          error={error?.fieldError('SupplierID')}
        />
        <TextField
          label="Hold minutes"
          inputMode="numeric"
          value={holdMinutes}
          onChange={(e) => setHoldMinutes(e.target.value)}
          placeholder={data.HoldMinutes === null ? String(data.EffectiveHoldMinutes) : undefined}
          hint={
            data.HoldMinutes === null
              ? `How long a GetYourGuide reservation holds its seats. Empty: this instance's default, ${data.EffectiveHoldMinutes} minutes.`
              : `How long a GetYourGuide reservation holds its seats (now ${data.EffectiveHoldMinutes} minutes). Empty: this instance's default.`
          }
          error={error?.fieldError('HoldMinutes')}
        />
        <SelectField
          label="Tickets"
          value={ticketStyle}
          onChange={(e) => setTicketStyle(e.target.value as GygConnection['TicketStyle'])}
          hint="What GetYourGuide gives travellers to show at check-in."
          error={error?.fieldError('TicketStyle')}
        >
          <option value="INDIVIDUAL">Individual: one ticket per person (or group)</option>
          <option value="COLLECTIVE">Collective: one ticket for the whole booking</option>
        </SelectField>
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

function OutboundCard({ data, onChange }: { data: GygConnection; onChange: (next: GygConnection) => void }) {
  const toast = useToast();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();

  async function run(action: () => Promise<GygConnection>, message: string) {
    setBusy(true);
    setError(undefined);
    try {
      onChange(await action());
      // GYG's password leaves the page once stored: the service keeps it sealed and never answers it.
      setUsername('');
      setPassword('');
      toast(message);
    } catch (caught) {
      setError(caught as ApiError);
    } finally {
      setBusy(false);
    }
  }

  function store(event: FormEvent) {
    event.preventDefault();
    void run(
      () => api.put<GygConnection>(`${GYG}/outbound`, { Username: username.trim(), Password: password }),
      "GetYourGuide's credentials are stored: availability changes are pushed to GetYourGuide.",
    );
  }

  const other = error && !error.fieldError('Username') && !error.fieldError('Password') ? error : undefined;
  return (
    <Card title="GetYourGuide's credentials for its API">
      <div className="stack" style={{ overflowWrap: 'anywhere' }}>
        <p>
          {data.PushesAvailability ? (
            <>
              Stored for the user name <code>{data.OutboundUsername}</code>: slotbook pushes availability changes to GetYourGuide within seconds.
            </>
          ) : data.OutboundPasswordSet ? (
            <>
              Stored for the user name <code>{data.OutboundUsername}</code>. Pushes to GetYourGuide are off while the connection is switched off.
            </>
          ) : (
            <>
              <strong>Pushes to GetYourGuide are off until you store its credentials.</strong> Until then slotbook sends GetYourGuide nothing, and
              GetYourGuide learns of availability changes only when it asks. Enter the user name and password GetYourGuide issued for its supplier
              API.
            </>
          )}
        </p>
        <form className="stack" onSubmit={store} noValidate aria-label="GetYourGuide's credentials">
          <TextField
            label="GetYourGuide user name"
            autoComplete="off"
            spellCheck={false}
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            error={error?.fieldError('Username')}
            required
          />
          <TextField
            label="GetYourGuide password"
            type="password"
            autoComplete="off"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            hint="Stored sealed and never shown again."
            error={error?.fieldError('Password')}
            required
          />
          <ErrorBanner error={other} />
          <div className="form-actions">
            <button type="submit" className="btn btn-primary" disabled={busy || username.trim() === '' || password === ''}>
              {data.OutboundPasswordSet ? 'Replace' : 'Store'}
            </button>
            {data.OutboundPasswordSet && (
              <button
                type="button"
                className="btn"
                disabled={busy}
                onClick={() =>
                  void run(
                    () => request<GygConnection>('DELETE', `${GYG}/outbound`),
                    "GetYourGuide's credentials are forgotten: nothing is pushed any more.",
                  )
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
