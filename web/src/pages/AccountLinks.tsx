// The pages an e-mailed link opens (the token is in the address's #fragment, so it never reaches a server
// log): sign in with a link, choose a new password, accept an invitation; and asking for a reset.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ApiError, request, type Me, type SignInResult } from '../api';
import { Link } from '../router';
import { ErrorBanner, Spinner, TextField } from '../ui';
import { AuthCard, SignIn, TotpStep, useSignInFlow } from './SignIn';

const tokenFromHash = () => new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';

export function LinkSignIn({ onSignedIn }: { onSignedIn: (me: Me) => void }) {
  const { step, follow } = useSignInFlow(onSignedIn);
  const [error, setError] = useState<ApiError>();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    request<SignInResult>('POST', '/api/v2/staff/sign-in/link/use', { body: { Token: tokenFromHash() }, quiet: true }).then(follow, (e: ApiError) =>
      setError(e),
    );
  }, [follow]);
  if (step.kind === 'totp') return <TotpStep challenge={step.challenge} onSignedIn={onSignedIn} />;
  return (
    <AuthCard title="Signing you in">
      {error ? (
        <>
          <ErrorBanner error={error} />
          <Link href="/sign-in" className="btn btn-secondary btn-block">
            Back to sign in
          </Link>
        </>
      ) : (
        <Spinner label="Checking your link" />
      )}
    </AuthCard>
  );
}

export function ForgotPassword() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<ApiError>();
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!email.trim()) {
      setError(new ApiError(0, 'An e-mail address is needed', 'Type the address your account uses.'));
      return;
    }
    try {
      await request('POST', '/api/v2/staff/password-reset', { body: { Email: email.trim() }, quiet: true });
      setSent(true);
    } catch (caught) {
      setError(caught as ApiError);
    }
  }
  return (
    <AuthCard title="Reset your password" intro="We e-mail you a link to choose a new password.">
      {sent ? (
        <div className="banner banner-info" role="status">
          If <strong>{email.trim()}</strong> has an account, a reset link is on its way. It works once, for an hour.
        </div>
      ) : (
        <form onSubmit={submit} noValidate>
          <TextField label="E-mail address" type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} autoFocus />
          <ErrorBanner error={error} />
          <button type="submit" className="btn btn-primary btn-block">
            E-mail me a reset link
          </button>
        </form>
      )}
      <p className="signin-foot muted">
        <Link href="/sign-in">Back to sign in</Link>
      </p>
    </AuthCard>
  );
}

/** Choosing a password from a link: a reset, or accepting an invitation (with the name to show). */
export function ChoosePassword({ kind, onSignedIn }: { kind: 'reset' | 'invitation'; onSignedIn: (me: Me) => void }) {
  const { step, follow } = useSignInFlow(onSignedIn);
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [name, setName] = useState('');
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  if (step.kind === 'totp') return <TotpStep challenge={step.challenge} onSignedIn={onSignedIn} />;
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (password !== repeat) {
      setError(
        new ApiError(0, 'The passwords differ', 'Type the same password twice.', [{ field: 'Repeat', message: 'Type the same password twice' }]),
      );
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const body =
        kind === 'reset'
          ? { Token: tokenFromHash(), Password: password }
          : { Token: tokenFromHash(), Password: password, ...(name.trim() && { Name: name.trim() }) };
      follow(
        await request<SignInResult>('POST', kind === 'reset' ? '/api/v2/staff/password-reset/complete' : '/api/v2/staff/invitations/accept', {
          body,
          quiet: true,
        }),
      );
    } catch (caught) {
      setError(caught as ApiError);
    } finally {
      setBusy(false);
    }
  }
  return (
    <AuthCard
      title={kind === 'reset' ? 'Choose a new password' : "Welcome to your team's dashboard"}
      intro={kind === 'reset' ? 'Your other sessions end when you save it.' : 'Choose a password to finish setting up your account.'}
    >
      <form onSubmit={submit} noValidate>
        {kind === 'invitation' && (
          <TextField label="Your name (optional)" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />
        )}
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          hint="At least 12 characters; a few words are easy to remember and hard to guess."
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={error?.fieldError('Password')}
          autoFocus
        />
        <TextField
          label="Repeat the password"
          type="password"
          autoComplete="new-password"
          value={repeat}
          onChange={(e) => setRepeat(e.target.value)}
          error={error?.fieldError('Repeat')}
        />
        <ErrorBanner error={error} />
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {busy ? 'Saving…' : kind === 'reset' ? 'Save and sign in' : 'Set password and sign in'}
        </button>
      </form>
    </AuthCard>
  );
}

/** The signed-out dashboard: the sign-in page and the pages e-mailed links open. */
export function SignedOut({ path, notice, onSignedIn }: { path: string; notice?: string; onSignedIn: (me: Me) => void }) {
  if (path === '/sign-in/link') return <LinkSignIn onSignedIn={onSignedIn} />;
  if (path === '/forgot-password') return <ForgotPassword />;
  if (path === '/reset-password') return <ChoosePassword kind="reset" onSignedIn={onSignedIn} />;
  if (path === '/accept-invitation') return <ChoosePassword kind="invitation" onSignedIn={onSignedIn} />;
  return <SignIn notice={notice} onSignedIn={onSignedIn} />;
}
