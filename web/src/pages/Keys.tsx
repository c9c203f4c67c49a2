import { useState, type FormEvent } from 'react';
import { api, type ApiError, SCOPES, type ApiKey, type CreatedKey, type Scope } from '../api';
import { formatInstant } from '../format';

const dayFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
const formatDay = (iso: string) => dayFormat.format(new Date(iso));
import { usePageTitle } from '../router';
import {
  Badge,
  Card,
  Checkbox,
  ConfirmDialog,
  CopyableSecret,
  DataTable,
  Dialog,
  EmptyState,
  ErrorBanner,
  Icon,
  PageHeader,
  SelectField,
  Spinner,
  TextField,
  useLoad,
  useToast,
} from '../ui';

const SCOPE_INFO: Record<Scope, { label: string; hint: string }> = {
  ota: { label: 'Partner (ota)', hint: 'A marketplace lists your activities and books seats' },
  'usage:read': { label: 'Usage: read', hint: 'Read usage summaries' },
  'usage:write': { label: 'Usage: write', hint: 'Record usage entries' },
  admin: { label: 'Admin', hint: 'The operator API: everything an owner may do except managing users' },
};

const MARKETPLACES = ['viator', 'getyourguide', 'klook', 'tiqets', 'expedia', 'airbnb', 'musement', 'headout'];
const OTHER = '__other__';

export function KeysPage() {
  usePageTitle('API keys');
  const toast = useToast();
  const keys = useLoad((signal) => api.get<ApiKey[]>('/api/v2/admin/keys', undefined, signal), []);
  const [created, setCreated] = useState<CreatedKey>();
  const [revoking, setRevoking] = useState<ApiKey>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const [showRevoked, setShowRevoked] = useState(true);
  const list = (keys.data ?? []).filter((key) => showRevoked || !key.RevokedAt);
  const knownMarketplaces = [...new Set([...(keys.data ?? []).map((key) => key.Partner).filter((p): p is string => !!p), ...MARKETPLACES])];

  async function revoke() {
    if (!revoking) return;
    setBusy(true);
    setError(undefined);
    try {
      await api.del(`/api/v2/admin/keys/${revoking.ID}`);
      toast(`Key “${revoking.Name}” is revoked. Requests with it now get 401.`);
      setRevoking(undefined);
      keys.reload();
    } catch (caught) {
      setError(caught as ApiError);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="page">
      <PageHeader
        title="API keys"
        description="Keys for marketplaces, usage reporting and your own scripts. A key's secret is shown only once, when it is created."
      />
      <div className="keys-layout">
        <Card title="Create a key" className="keys-create">
          <CreateKeyForm
            marketplaces={knownMarketplaces}
            onCreated={(key) => {
              setCreated(key);
              keys.reload();
            }}
          />
        </Card>
        <Card
          title="Your keys"
          className="keys-list"
          actions={<Checkbox label="Show revoked" checked={showRevoked} onChange={(e) => setShowRevoked(e.target.checked)} />}
        >
          <ErrorBanner error={keys.error} onRetry={keys.reload} />
          {keys.loading && !keys.data && <Spinner label="Loading keys" />}
          <DataTable
            rows={keys.data && list}
            columns={['Name', 'Scopes', 'Marketplace', 'Created', 'Status']}
            actions="Actions"
            className="keys-table"
            empty={<EmptyState icon="keys" title="No keys to show" />}
          >
            {(key) => (
              <tr key={key.ID} data-key={key.ID} className={key.RevokedAt ? 'row-muted' : ''}>
                <td data-label="Name" className="strong">
                  {key.Name}
                </td>
                <td data-label="Scopes">
                  <span className="badge-list">
                    {key.Scopes.map((scope) => (
                      <Badge key={scope} tone={scope === 'admin' ? 'warning' : scope === 'ota' ? 'violet' : 'info'}>
                        {scope}
                      </Badge>
                    ))}
                  </span>
                </td>
                <td data-label="Marketplace">{key.Partner ?? <span className="muted">–</span>}</td>
                <td data-label="Created" className="nowrap">
                  {formatDay(key.CreatedAt)}
                </td>
                <td data-label="Status">
                  {key.RevokedAt ? (
                    <Badge tone="danger" title={`Revoked ${formatInstant(key.RevokedAt)}`}>
                      Revoked
                    </Badge>
                  ) : (
                    <Badge tone="success">Active</Badge>
                  )}
                </td>
                <td className="actions">
                  {!key.RevokedAt && (
                    <button
                      type="button"
                      className="btn btn-sm btn-danger-outline"
                      onClick={() => setRevoking(key)}
                      aria-label={`Revoke ${key.Name}`}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            )}
          </DataTable>
        </Card>
      </div>
      <SecretDialog created={created} onClose={() => setCreated(undefined)} />
      <ConfirmDialog
        open={revoking !== undefined}
        title={`Revoke “${revoking?.Name}”?`}
        confirmLabel="Revoke key"
        busy={busy}
        error={error}
        onConfirm={() => void revoke()}
        onClose={() => {
          setRevoking(undefined);
          setError(undefined);
        }}
      >
        <p>
          Every request with this key is refused from now on
          {revoking?.Partner ? `: ${revoking.Partner} can no longer list or book your activities` : ''}. This cannot be undone; create a new key to
          replace it.
        </p>
        {revoking?.Scopes.includes('admin') && <p className="muted">If this is the key you signed in with, you will be signed out.</p>}
      </ConfirmDialog>
    </div>
  );
}

function CreateKeyForm({ marketplaces, onCreated }: { marketplaces: string[]; onCreated: (key: CreatedKey) => void }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['ota']);
  const [marketplace, setMarketplace] = useState(marketplaces[0] ?? 'viator');
  const [other, setOther] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const ota = scopes.includes('ota');

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const partner = marketplace === OTHER ? other.trim().toLowerCase() : marketplace;
      const key = await api.post<CreatedKey>('/api/v2/admin/keys', { Name: name.trim(), Scopes: scopes, ...(ota ? { Partner: partner } : {}) });
      setName('');
      setOther('');
      onCreated(key);
    } catch (caught) {
      setError(caught as ApiError);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="stack">
      <TextField
        label="Name"
        required
        maxLength={100}
        value={name}
        onChange={(e) => setName(e.target.value)}
        placeholder="Viator production"
        error={error?.fieldError('Name')}
      />
      <fieldset className="fieldset">
        <legend>Scopes</legend>
        <div className="checks">
          {SCOPES.map((scope) => (
            <Checkbox
              key={scope}
              label={SCOPE_INFO[scope].label}
              hint={SCOPE_INFO[scope].hint}
              checked={scopes.includes(scope)}
              onChange={(e) => setScopes(e.target.checked ? [...scopes, scope] : scopes.filter((s) => s !== scope))}
            />
          ))}
        </div>
        {error?.fieldError('Scopes') && <div className="field-error">{error.fieldError('Scopes')}</div>}
      </fieldset>
      {ota && (
        <>
          <SelectField
            label="Marketplace"
            value={marketplace}
            onChange={(e) => setMarketplace(e.target.value)}
            hint="The partner path segment this key sells through"
            error={marketplace !== OTHER ? error?.fieldError('Partner') : undefined}
          >
            {marketplaces.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
            <option value={OTHER}>Other…</option>
          </SelectField>
          {marketplace === OTHER && (
            <TextField
              label="Marketplace name"
              value={other}
              onChange={(e) => setOther(e.target.value)}
              placeholder="my-marketplace"
              maxLength={63}
              error={error?.fieldError('Partner')}
            />
          )}
        </>
      )}
      <ErrorBanner error={error && !['Name', 'Scopes', 'Partner'].some((f) => error.fieldError(f)) ? error : undefined} />
      <button type="submit" className="btn btn-primary" disabled={busy || scopes.length === 0}>
        {busy ? 'Creating…' : 'Create key'}
      </button>
    </form>
  );
}

function SecretDialog({ created, onClose }: { created?: CreatedKey; onClose: () => void }) {
  return (
    <Dialog
      open={created !== undefined}
      title="Your new API key"
      onClose={onClose}
      footer={
        <button type="button" className="btn btn-primary" onClick={onClose}>
          I have stored it
        </button>
      }
    >
      {created && (
        <>
          <div className="banner banner-warning">
            <Icon name="alert" />
            <div>Copy the key now. It is shown only this once; slotbook keeps only a hash of it.</div>
          </div>
          <CopyableSecret value={created.Key} label="Secret key" />
          <dl className="facts">
            <dt>Name</dt>
            <dd>{created.Name}</dd>
            <dt>Scopes</dt>
            <dd>{created.Scopes.join(', ')}</dd>
            {created.Partner && (
              <>
                <dt>Marketplace</dt>
                <dd>
                  {created.Partner} <span className="muted">(calls go to /api/v2/ota/{created.Partner}/…)</span>
                </dd>
              </>
            )}
          </dl>
        </>
      )}
    </Dialog>
  );
}
