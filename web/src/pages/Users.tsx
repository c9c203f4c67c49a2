// Users (owners only): invite by e-mail, change a role, lift a lock-out, turn off someone's two-factor (a
// lost phone), end someone's sessions, remove.
import { useState, type FormEvent } from 'react';
import { api, type ApiError, ROLE_LABELS, ROLES, type Role, type StaffUser } from '../api';
import { formatClock, formatInstant } from '../format';
import { usePageTitle } from '../router';
import { useSession } from '../session';
import {
  Badge,
  Card,
  ConfirmDialog,
  DataTable,
  EmptyState,
  ErrorBanner,
  PageHeader,
  SelectField,
  Spinner,
  TextField,
  useLoad,
  useToast,
} from '../ui';

const ROLE_HINTS: Record<Role, string> = {
  owner: 'Everything, including users and API keys',
  manager: 'Everything but users and API keys',
  'front-desk': 'Bookings, point of sale, check-in and waitlists',
  guide: "Today's manifests and check-in",
};

export function UsersPage() {
  usePageTitle('Users');
  const toast = useToast();
  const { me } = useSession();
  const users = useLoad((signal) => api.get<StaffUser[]>('/api/v2/admin/users', undefined, signal), []);
  const [removing, setRemoving] = useState<StaffUser>();
  const [resettingTotp, setResettingTotp] = useState<StaffUser>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();

  async function act(action: () => Promise<unknown>, done: string) {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      toast(done);
      users.reload();
      return true;
    } catch (caught) {
      setError(caught as ApiError);
      return false;
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="page">
      <PageHeader
        title="Users"
        description="Your team's accounts. Each person signs in with their own e-mail address; their role decides what they see and may change."
      />
      <div className="keys-layout">
        <Card title="Invite someone" className="keys-create">
          <InviteForm
            onInvited={(user) => {
              toast(`Invitation sent to ${user.Email}.`);
              users.reload();
            }}
          />
        </Card>
        <Card title="Your team" className="keys-list">
          <ErrorBanner error={users.error ?? error} onRetry={users.error ? users.reload : undefined} />
          {users.loading && !users.data && <Spinner label="Loading users" />}
          <DataTable
            rows={users.data}
            columns={['Name', 'Role', 'Status']}
            actions="Actions"
            className="stacked-table users-table"
            empty={<EmptyState icon="user" title="No users yet" />}
          >
            {(user) => (
              <tr key={user.ID}>
                <td data-label="Name">
                  <strong>{user.Name}</strong>
                  <div className="muted">{user.Email}</div>
                </td>
                <td data-label="Role">
                  <select
                    className="select-inline"
                    aria-label={`Role of ${user.Email}`}
                    value={user.Role}
                    disabled={busy}
                    onChange={(e) =>
                      void act(
                        () => api.patch(`/api/v2/admin/users/${user.ID}`, { Role: e.target.value }),
                        `${user.Email} is now ${ROLE_LABELS[e.target.value as Role].toLowerCase()}.`,
                      )
                    }
                  >
                    {ROLES.map((role) => (
                      <option key={role} value={role}>
                        {ROLE_LABELS[role]}
                      </option>
                    ))}
                  </select>
                </td>
                <td data-label="Status">
                  {user.Status === 'invited' ? (
                    <Badge tone="warning">Invited</Badge>
                  ) : user.LockedUntil ? (
                    <Badge tone="danger" title="5 wrong passwords or codes in a row">
                      Locked until {formatClock(user.LockedUntil)}
                    </Badge>
                  ) : (
                    <Badge tone="success">Active</Badge>
                  )}
                  {user.TwoFactor && (
                    <Badge tone="info" title="Two-factor authentication is on">
                      2FA
                    </Badge>
                  )}
                  <div className="muted">since {formatInstant(user.CreatedAt)}</div>
                </td>
                <td className="actions">
                  {user.Status === 'invited' && (
                    <button
                      type="button"
                      className="btn btn-sm btn-ghost"
                      disabled={busy}
                      onClick={() => void act(() => api.post(`/api/v2/admin/users/${user.ID}/invitation`), `A new invitation went to ${user.Email}.`)}
                    >
                      Resend invitation
                    </button>
                  )}
                  {user.LockedUntil && (
                    <button
                      type="button"
                      className="btn btn-sm btn-ghost"
                      disabled={busy}
                      aria-label={`Unlock ${user.Email}`}
                      onClick={() => void act(() => api.post(`/api/v2/admin/users/${user.ID}/unlock`), `${user.Email} can sign in again.`)}
                    >
                      Unlock
                    </button>
                  )}
                  {user.Status === 'active' && user.ID !== me.User.ID && (
                    <button
                      type="button"
                      className="btn btn-sm btn-ghost"
                      disabled={busy}
                      onClick={() => void act(() => api.del(`/api/v2/admin/users/${user.ID}/sessions`), `${user.Email} is signed out everywhere.`)}
                    >
                      Sign out everywhere
                    </button>
                  )}
                  {user.TwoFactor && user.ID !== me.User.ID && (
                    <button
                      type="button"
                      className="btn btn-sm btn-ghost"
                      disabled={busy}
                      aria-label={`Turn off two-factor for ${user.Email}`}
                      onClick={() => setResettingTotp(user)}
                    >
                      Turn off two-factor
                    </button>
                  )}
                  <button
                    type="button"
                    className="btn btn-sm btn-ghost btn-danger-text"
                    disabled={busy}
                    onClick={() => setRemoving(user)}
                    aria-label={`Remove ${user.Email}`}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            )}
          </DataTable>
        </Card>
      </div>
      <ConfirmDialog
        open={removing !== undefined}
        title={`Remove ${removing?.Email ?? ''}?`}
        confirmLabel="Remove user"
        busy={busy}
        error={error}
        onClose={() => setRemoving(undefined)}
        onConfirm={() => {
          const user = removing!;
          void act(() => api.del(`/api/v2/admin/users/${user.ID}`), `${user.Email} is removed.`).then((ok) => ok && setRemoving(undefined));
        }}
      >
        Their sessions end at once and they can no longer sign in. What they did stays in the audit log.
      </ConfirmDialog>
      <ConfirmDialog
        open={resettingTotp !== undefined}
        title={`Turn off two-factor for ${resettingTotp?.Email ?? ''}?`}
        confirmLabel="Turn off two-factor"
        busy={busy}
        error={error}
        onClose={() => setResettingTotp(undefined)}
        onConfirm={() => {
          const user = resettingTotp!;
          void act(() => api.del(`/api/v2/admin/users/${user.ID}/totp`), `Two-factor is off for ${user.Email}.`).then(
            (ok) => ok && setResettingTotp(undefined),
          );
        }}
      >
        For someone who lost their phone: they sign in with their password alone until they set up two-factor again under My account. They are told by
        e-mail.
      </ConfirmDialog>
    </div>
  );
}

function InviteForm({ onInvited }: { onInvited: (user: StaffUser) => void }) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('front-desk');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const user = await api.post<StaffUser>('/api/v2/admin/users', { Email: email.trim(), Name: name.trim(), Role: role });
      setEmail('');
      setName('');
      onInvited(user);
    } catch (caught) {
      setError(caught as ApiError);
    } finally {
      setBusy(false);
    }
  }
  return (
    <form onSubmit={submit} noValidate>
      <TextField label="E-mail address" type="email" value={email} onChange={(e) => setEmail(e.target.value)} error={error?.fieldError('Email')} />
      <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} error={error?.fieldError('Name')} />
      <SelectField label="Role" value={role} onChange={(e) => setRole(e.target.value as Role)} hint={ROLE_HINTS[role]}>
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {ROLE_LABELS[r]}
          </option>
        ))}
      </SelectField>
      <ErrorBanner error={error && !error.fieldError('Email') && !error.fieldError('Name') ? error : undefined} />
      <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
        {busy ? 'Sending…' : 'Send invitation'}
      </button>
    </form>
  );
}
