// My account: password, two-factor authentication (enrol with a QR code, recovery codes, turn off) and my
// sessions (end any of them; ending this one signs me out).
import { useState, type FormEvent } from 'react';
import { api, type ApiError, ROLE_LABELS, type StaffSession } from '../api';
import { formatInstant } from '../format';
import { usePageTitle } from '../router';
import { useSession } from '../session';
import { BookingNotices } from './BookingNotices';
import { Badge, Card, DataTable, ErrorBanner, PageHeader, Spinner, TextField, useLoad, useToast } from '../ui';

export function AccountPage() {
  usePageTitle('My account');
  const { me } = useSession();
  return (
    <div className="page">
      <PageHeader title="My account" description={`${me.User.Name} · ${me.User.Email} · ${ROLE_LABELS[me.User.Role]} at ${me.Operator.Name}`} />
      <div className="account-grid">
        <Card title="Password">
          <PasswordForm />
        </Card>
        <Card title="Two-factor authentication">
          <TwoFactor />
        </Card>
      </div>
      <Card title="Booking e-mails">
        <BookingNotices />
      </Card>
      <Card title="Where you are signed in">
        <Sessions />
      </Card>
    </div>
  );
}

function PasswordForm() {
  const toast = useToast();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await api.post('/api/v2/staff/me/password', { CurrentPassword: current, NewPassword: next });
      setCurrent('');
      setNext('');
      toast('Password changed. Your other sessions have ended.');
    } catch (caught) {
      setError(caught as ApiError);
    } finally {
      setBusy(false);
    }
  }
  return (
    <form onSubmit={submit} noValidate>
      <TextField
        label="Current password"
        type="password"
        autoComplete="current-password"
        value={current}
        onChange={(e) => setCurrent(e.target.value)}
        error={error?.fieldError('CurrentPassword')}
      />
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        hint="At least 12 characters."
        value={next}
        onChange={(e) => setNext(e.target.value)}
        error={error?.fieldError('NewPassword')}
      />
      <ErrorBanner error={error && error.errors.length === 0 ? error : undefined} />
      <button type="submit" className="btn btn-primary" disabled={busy}>
        Change password
      </button>
    </form>
  );
}

function TwoFactor() {
  const { me, refresh } = useSession();
  const toast = useToast();
  const [enrolment, setEnrolment] = useState<{ Secret: string; Uri: string; QrSvg: string }>();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [recovery, setRecovery] = useState<string[]>();
  const [error, setError] = useState<ApiError>();
  async function run(action: () => Promise<void>) {
    setError(undefined);
    try {
      await action();
    } catch (caught) {
      setError(caught as ApiError);
    }
  }
  if (recovery) {
    return (
      <div>
        <div className="banner banner-info" role="status">
          Two-factor authentication is on. Keep these recovery codes somewhere safe: each signs you in once if you lose your phone. They are shown
          only now.
        </div>
        <ul className="recovery-codes" aria-label="Recovery codes">
          {recovery.map((c) => (
            <li key={c}>
              <code>{c}</code>
            </li>
          ))}
        </ul>
        <button type="button" className="btn btn-secondary" onClick={() => setRecovery(undefined)}>
          I have saved them
        </button>
      </div>
    );
  }
  if (me.User.TwoFactor) {
    return (
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void run(async () => {
            await api.post('/api/v2/staff/me/totp/disable', { Password: password });
            setPassword('');
            toast('Two-factor authentication is off.');
            refresh();
          });
        }}
        noValidate
      >
        <p>
          <Badge tone="success">On</Badge> Signing in asks for a code from your authenticator app.
        </p>
        <TextField
          label="Password, to turn it off"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={error?.fieldError('Password')}
        />
        <ErrorBanner error={error && error.errors.length === 0 ? error : undefined} />
        <button type="submit" className="btn btn-danger-outline">
          Turn off two-factor
        </button>
      </form>
    );
  }
  if (!enrolment) {
    return (
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void run(async () => {
            setEnrolment(await api.post('/api/v2/staff/me/totp', { Password: password }));
            setPassword('');
          });
        }}
        noValidate
      >
        <p>Protect your account with a code from an authenticator app (such as Google Authenticator, 1Password or Aegis) each time you sign in.</p>
        <TextField
          label="Password, to set it up"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={error?.fieldError('Password')}
        />
        <ErrorBanner error={error && error.errors.length === 0 ? error : undefined} />
        <button type="submit" className="btn btn-primary">
          Set up two-factor
        </button>
      </form>
    );
  }
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void run(async () => {
          const result = await api.post<{ RecoveryCodes: string[] }>('/api/v2/staff/me/totp/confirm', { Code: code.replace(/\s/g, '') });
          setRecovery(result.RecoveryCodes);
          setEnrolment(undefined);
          setCode('');
          refresh();
        });
      }}
      noValidate
    >
      <ol className="steps">
        <li>Scan this code with your authenticator app.</li>
      </ol>
      <img
        className="qr"
        src={`data:image/svg+xml;utf8,${encodeURIComponent(enrolment.QrSvg)}`}
        width="180"
        height="180"
        alt="QR code to add slotbook to an authenticator app"
      />
      <p className="muted">
        Cannot scan it? Type this key: <code className="secret">{enrolment.Secret}</code>
      </p>
      <TextField
        label="The 6-digit code the app shows"
        inputMode="numeric"
        autoComplete="one-time-code"
        value={code}
        onChange={(e) => setCode(e.target.value)}
        error={error?.fieldError('Code')}
      />
      <ErrorBanner error={error && error.errors.length === 0 ? error : undefined} />
      <button type="submit" className="btn btn-primary">
        Turn on two-factor
      </button>
    </form>
  );
}

function Sessions() {
  const { signOut } = useSession();
  const toast = useToast();
  const sessions = useLoad((signal) => api.get<StaffSession[]>('/api/v2/staff/sessions', undefined, signal), []);
  const [error, setError] = useState<ApiError>();
  async function end(session: StaffSession) {
    if (session.Current) return signOut();
    try {
      await api.del(`/api/v2/staff/sessions/${session.ID}`);
      toast('That session has ended.');
      sessions.reload();
    } catch (caught) {
      setError(caught as ApiError);
    }
  }
  if (!sessions.data) return sessions.error ? <ErrorBanner error={sessions.error} onRetry={sessions.reload} /> : <Spinner label="Loading sessions" />;
  return (
    <>
      <ErrorBanner error={error} />
      <DataTable rows={sessions.data} columns={['Browser', 'Address', 'Signed in', 'Last active']} actions="Actions" className="stacked-table">
        {(session) => (
          <tr key={session.ID}>
            <td data-label="Browser">
              {session.UserAgent || 'Unknown browser'} {session.Current && <Badge tone="info">This browser</Badge>}
            </td>
            <td data-label="Address">{session.Address}</td>
            <td data-label="Signed in">{formatInstant(session.CreatedAt)}</td>
            <td data-label="Last active">{formatInstant(session.LastSeenAt)}</td>
            <td className="actions">
              <button type="button" className="btn btn-sm btn-ghost btn-danger-text" onClick={() => void end(session)}>
                {session.Current ? 'Sign out' : 'End session'}
              </button>
            </td>
          </tr>
        )}
      </DataTable>
    </>
  );
}
