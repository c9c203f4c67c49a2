// Signing in: e-mail and password (or an e-mailed link), then the authenticator code when the account has
// two-factor on, or the operator when the address has accounts with several.
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { ApiError, request, type Me, type SignInResult } from '../api';
import { Link } from '../router';
import { ErrorBanner, TextField } from '../ui';

type Step =
  | { kind: 'password' }
  | { kind: 'link-sent'; email: string }
  | { kind: 'totp'; challenge: string }
  | { kind: 'operator'; operators: NonNullable<SignInResult['Operators']> };

export function AuthCard({ title, intro, children }: { title: string; intro?: ReactNode; children: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · slotbook`;
  }, [title]);
  return (
    <main className="signin" id="main">
      <div className="signin-card">
        <div className="signin-brand">
          <img src="/favicon.svg" alt="" width="40" height="40" />
          <span>slotbook</span>
        </div>
        <h1>{title}</h1>
        {intro && <p className="muted">{intro}</p>}
        {children}
      </div>
    </main>
  );
}

/** Follows a sign-in answer: signed in, or the next step. */
export function useSignInFlow(onSignedIn: (me: Me) => void) {
  const [step, setStep] = useState<Step>({ kind: 'password' });
  const follow = (result: SignInResult) => {
    if (result.Status === 'signed-in' && result.Me) onSignedIn(result.Me);
    else if (result.Status === 'totp-required' && result.Challenge) setStep({ kind: 'totp', challenge: result.Challenge });
    else if (result.Status === 'choose-operator' && result.Operators) setStep({ kind: 'operator', operators: result.Operators });
  };
  return { step, setStep, follow };
}

export function SignIn({ notice, onSignedIn }: { notice?: string; onSignedIn: (me: Me) => void }) {
  const { step, setStep, follow } = useSignInFlow(onSignedIn);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();

  async function run(action: () => Promise<void>) {
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

  const signIn = (operatorId?: number) =>
    run(async () =>
      follow(
        await request<SignInResult>('POST', '/api/v2/staff/sign-in', {
          body: { Email: email.trim(), Password: password, OperatorID: operatorId },
          quiet: true,
        }),
      ),
    );

  function submitPassword(event: FormEvent) {
    event.preventDefault();
    if (!email.trim() || !password) {
      setError(new ApiError(0, 'E-mail address and password are needed', 'Type both, or ask for a sign-in link by e-mail.'));
      return;
    }
    void signIn();
  }

  function sendLink() {
    if (!email.trim()) {
      setError(new ApiError(0, 'An e-mail address is needed', 'Type the address your account uses; the link goes there.'));
      return;
    }
    void run(async () => {
      await request('POST', '/api/v2/staff/sign-in/link', { body: { Email: email.trim() }, quiet: true });
      setStep({ kind: 'link-sent', email: email.trim() });
    });
  }

  if (step.kind === 'link-sent') {
    return (
      <AuthCard title="Check your e-mail">
        <div className="banner banner-info" role="status">
          If <strong>{step.email}</strong> has an account, a sign-in link is on its way. It works once, for 15 minutes.
        </div>
        <button type="button" className="btn btn-secondary btn-block" onClick={() => setStep({ kind: 'password' })}>
          Back to sign in
        </button>
      </AuthCard>
    );
  }

  if (step.kind === 'operator') {
    return (
      <AuthCard title="Which business?" intro="Your address has an account with several businesses. Choose one.">
        <ErrorBanner error={error} />
        <ul className="choice-list">
          {step.operators.map((operator) => (
            <li key={operator.OperatorID}>
              <button type="button" className="btn btn-secondary btn-block" disabled={busy} onClick={() => void signIn(operator.OperatorID)}>
                {operator.Name}
              </button>
            </li>
          ))}
        </ul>
      </AuthCard>
    );
  }

  if (step.kind === 'totp') return <TotpStep challenge={step.challenge} onSignedIn={onSignedIn} />;

  return (
    <AuthCard title="Sign in to your dashboard" intro="Bookings from every channel, your activities and your team in one place.">
      {notice && (
        <div className="banner banner-info" role="status">
          {notice}
        </div>
      )}
      <form onSubmit={submitPassword} noValidate>
        <TextField label="E-mail address" type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} autoFocus />
        <TextField label="Password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        <ErrorBanner error={error} />
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <button type="button" className="btn btn-secondary btn-block" disabled={busy} onClick={sendLink}>
          E-mail me a sign-in link
        </button>
      </form>
      <p className="signin-foot muted">
        <Link href="/forgot-password">Forgot your password?</Link>
      </p>
    </AuthCard>
  );
}

/** The second step, after a password, a link, a reset or an invitation: the authenticator's code or a recovery code. */
export function TotpStep({ challenge, onSignedIn }: { challenge: string; onSignedIn: (me: Me) => void }) {
  const { follow } = useSignInFlow(onSignedIn);
  const [code, setCode] = useState('');
  const [useRecovery, setUseRecovery] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  async function submit(event: FormEvent) {
    event.preventDefault();
    const body = useRecovery ? { Challenge: challenge, RecoveryCode: code.trim() } : { Challenge: challenge, Code: code.replace(/\s/g, '') };
    setBusy(true);
    setError(undefined);
    try {
      follow(await request<SignInResult>('POST', '/api/v2/staff/sign-in/totp', { body, quiet: true }));
    } catch (caught) {
      setError(caught as ApiError);
    } finally {
      setBusy(false);
    }
  }
  return (
    <AuthCard
      title="Two-factor authentication"
      intro={useRecovery ? 'Type one of your recovery codes. Each works once.' : 'Type the 6-digit code your authenticator app shows for slotbook.'}
    >
      <form onSubmit={submit} noValidate>
        <TextField
          label={useRecovery ? 'Recovery code' : 'Authentication code'}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          autoComplete="one-time-code"
          inputMode={useRecovery ? 'text' : 'numeric'}
          autoFocus
        />
        <ErrorBanner error={error} />
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {busy ? 'Checking…' : 'Verify'}
        </button>
        <button type="button" className="btn btn-ghost btn-block" onClick={() => setUseRecovery((r) => !r)}>
          {useRecovery ? 'Use the authenticator app instead' : 'Use a recovery code instead'}
        </button>
      </form>
    </AuthCard>
  );
}
