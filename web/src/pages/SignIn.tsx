import { useEffect, useState, type FormEvent } from 'react';
import { ApiError, request, type ApiKey } from '../api';
import { ErrorBanner } from '../ui';

/** Signs in with an admin key: the key is checked against the API (it must carry the admin scope). */
export function SignIn({ notice, onSignedIn }: { notice?: string; onSignedIn: (key: string) => void }) {
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  useEffect(() => {
    document.title = 'Sign in · slotbook';
  }, []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = key.trim();
    if (!trimmed) {
      setError(new ApiError(0, 'An admin key is needed', 'Paste the admin key that `slotbook operator create` or the first start printed.'));
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      await request<ApiKey[]>('GET', '/api/v2/admin/keys', { key: trimmed });
      onSignedIn(trimmed);
    } catch (caught) {
      const e = caught as ApiError;
      if (e.status === 401) setError(new ApiError(401, 'Key not accepted', 'This key is unknown or has been revoked.'));
      else if (e.status === 403) setError(new ApiError(403, 'Not an admin key', 'This key works, but it lacks the admin scope. Use an admin key.'));
      else setError(e);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="signin" id="main">
      <form className="signin-card" onSubmit={submit} noValidate>
        <div className="signin-brand">
          <img src="/favicon.svg" alt="" width="40" height="40" />
          <span>slotbook</span>
        </div>
        <h1>Sign in to your dashboard</h1>
        <p className="muted">Bookings from every channel, activities, API keys and usage in one place.</p>
        {notice && (
          <div className="banner banner-info" role="status">
            {notice}
          </div>
        )}
        <div className="field">
          <label htmlFor="admin-key">Admin API key</label>
          <input
            id="admin-key"
            name="admin-key"
            type="password"
            autoComplete="off"
            spellCheck={false}
            placeholder="sbk_…"
            value={key}
            onChange={(event) => {
              setKey(event.target.value);
              setError(undefined);
            }}
            aria-describedby="admin-key-hint"
            autoFocus
          />
          <div className="field-hint" id="admin-key-hint">
            Kept only in this browser tab until you sign out or close it.
          </div>
        </div>
        <ErrorBanner error={error} />
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
        <p className="signin-foot muted">
          No key yet? Run <code>npx slotbook operator create --name "Your business"</code>.
        </p>
      </form>
    </main>
  );
}
