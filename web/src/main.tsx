import { StrictMode, useCallback, useEffect, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import './styles.css';
import { onUnauthorized, type Permission, request, setCsrfToken, type Me } from './api';
import { ActivitiesProvider } from './activities';
import { Link, navigate, useLocation } from './router';
import { Icon, Spinner, ToastProvider, type IconName } from './ui';
import { SessionContext, useSession, type SessionValue } from './session';
import { SignedOut } from './pages/AccountLinks';
import { UsersPage } from './pages/Users';
import { AccountPage } from './pages/Account';
import { AuditPage } from './pages/Audit';
import { BookingsPage } from './pages/Bookings';
import { BookingDetailPage } from './pages/BookingDetail';
import { NewBookingPage } from './pages/NewBooking';
import { ActivitiesPage } from './pages/Activities';
import { ActivityDetailPage, type ActivityTab } from './pages/ActivityDetail';
import { KeysPage } from './pages/Keys';
import { GetYourGuidePage } from './pages/GetYourGuide';
import { ViatorPage } from './pages/Viator';
import { UsagePage } from './pages/Usage';
import { WaitlistsPage } from './pages/Waitlists';
import { EmailsPage } from './pages/Emails';
import { WebhookAlert, WebhooksPage } from './pages/Webhooks';
import { WebhookDetailPage } from './pages/WebhookDetail';
import { WorkflowsPage } from './pages/Workflows';
import { ReportsPage } from './pages/Reports';
import { ManifestsRoute } from './pages/Manifests';
import { SettingsPage } from './pages/Settings';

// ---- Shell ----

// Each page with the permission it needs (the server's, src/auth/permissions.ts): a role sees only what it may use.
const NAV: { href: string; label: string; icon: IconName; permission: Permission }[] = [
  { href: '/bookings', label: 'Bookings', icon: 'bookings', permission: 'bookings:read' },
  { href: '/manifests', label: 'Manifests', icon: 'list', permission: 'manifests:today' },
  { href: '/activities', label: 'Activities', icon: 'activities', permission: 'activities:read' },
  { href: '/waitlists', label: 'Waitlists', icon: 'waitlist', permission: 'waitlists:read' },
  { href: '/usage', label: 'Usage', icon: 'usage', permission: 'usage:read' },
  { href: '/reports', label: 'Reports', icon: 'usage', permission: 'reports:read' },
  { href: '/workflows', label: 'Workflows', icon: 'refresh', permission: 'workflows:read' },
  { href: '/emails', label: 'E-mails', icon: 'mail', permission: 'emails:read' },
  { href: '/webhooks', label: 'Webhooks', icon: 'webhook', permission: 'webhooks:manage' },
  { href: '/users', label: 'Users', icon: 'user', permission: 'users:manage' },
  { href: '/keys', label: 'API keys', icon: 'keys', permission: 'keys:manage' },
  { href: '/getyourguide', label: 'GetYourGuide', icon: 'handshake', permission: 'keys:manage' },
  { href: '/viator', label: 'Viator', icon: 'handshake', permission: 'keys:manage' },
  { href: '/audit', label: 'Audit log', icon: 'list', permission: 'audit:read' },
  { href: '/settings', label: 'Shop settings', icon: 'store', permission: 'settings:manage' },
];

function homeOf(can: (permission: Permission) => boolean): string {
  return NAV.find((item) => can(item.permission))?.href ?? '/account';
}

function Page({ path }: { path: string }) {
  const { can } = useSession();
  const item = NAV.find((entry) => path === entry.href || path.startsWith(`${entry.href}/`));
  if (item && !can(item.permission)) {
    return (
      <div className="page">
        <h1 tabIndex={-1}>Not available to your role</h1>
        <p>
          Your role does not include this page. <Link href={homeOf(can)}>Go to your start page</Link>.
        </p>
      </div>
    );
  }
  if (path === '/account') return <AccountPage />;
  if (path === '/users') return <UsersPage />;
  if (path === '/audit') return <AuditPage />;
  if (path === '/bookings') return <BookingsPage />;
  if (path === '/bookings/new') return <NewBookingPage />;
  const booking = /^\/bookings\/(BK-[A-Z0-9]+)$/.exec(path);
  if (booking) return <BookingDetailPage reference={booking[1]!} />;
  if (path === '/manifests' || path.startsWith('/manifests/')) return <ManifestsRoute path={path} />;
  if (path === '/activities') return <ActivitiesPage />;
  const activity = /^\/activities\/(s_[A-Za-z0-9]+)(?:\/(timeslots|tickets|details|questions))?$/.exec(path);
  if (activity) return <ActivityDetailPage activityId={activity[1]!} tab={(activity[2] as ActivityTab | undefined) ?? 'timeslots'} />;
  if (path === '/keys') return <KeysPage />;
  if (path === '/getyourguide') return <GetYourGuidePage />;
  if (path === '/viator') return <ViatorPage />;
  if (path === '/usage') return <UsagePage />;
  if (path === '/waitlists') return <WaitlistsPage />;
  if (path === '/emails') return <EmailsPage />;
  if (path === '/workflows') return <WorkflowsPage />;
  if (path === '/reports') return <ReportsPage />;
  if (path === '/webhooks') return <WebhooksPage />;
  if (path === '/settings') return <SettingsPage />;
  const webhook = /^\/webhooks\/(\d+)$/.exec(path);
  if (webhook) return <WebhookDetailPage id={Number(webhook[1])} />;
  return (
    <div className="page">
      <h1 tabIndex={-1}>Page not found</h1>
      <p>
        There is no page at <code>{path}</code>. <Link href="/">Go to your start page</Link>.
      </p>
    </div>
  );
}

function Shell() {
  const { path } = useLocation();
  const { me, can, signOut } = useSession();
  const home = homeOf(can);
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [path]);
  useEffect(() => {
    if (path === '/' || path.startsWith('/sign-in') || path === '/accept-invitation' || path === '/reset-password' || path === '/forgot-password') {
      navigate(home, { replace: true });
    }
  }, [path, home]);
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link href={home} className="brand" aria-label="slotbook, start page">
          <img src="/favicon.svg" alt="" width="28" height="28" />
          <span>slotbook</span>
        </Link>
        <button
          type="button"
          className="btn btn-icon btn-ghost menu-button"
          aria-expanded={menuOpen}
          aria-controls="sidebar"
          aria-label="Menu"
          onClick={() => setMenuOpen((open) => !open)}
        >
          <Icon name={menuOpen ? 'x' : 'menu'} />
        </button>
      </header>
      <nav id="sidebar" className={`sidebar ${menuOpen ? 'sidebar-open' : ''}`} aria-label="Main">
        <Link href={home} className="brand brand-side" aria-label="slotbook, start page">
          <img src="/favicon.svg" alt="" width="28" height="28" />
          <span>slotbook</span>
        </Link>
        <ul>
          {NAV.filter((item) => can(item.permission)).map((item) => {
            const current = path === item.href || path.startsWith(`${item.href}/`);
            return (
              <li key={item.href}>
                <Link href={item.href} className={`nav-link ${current ? 'nav-current' : ''}`} aria-current={current ? 'page' : undefined}>
                  <Icon name={item.icon} />
                  {item.label}
                </Link>
              </li>
            );
          })}
        </ul>
        <div className="sidebar-footer">
          <Link
            href="/account"
            className={`nav-link nav-subtle ${path === '/account' ? 'nav-current' : ''}`}
            aria-current={path === '/account' ? 'page' : undefined}
          >
            <Icon name="user" />
            <span className="nav-account">
              My account
              <small>
                {me.User.Email} · {me.Operator.Name}
              </small>
            </span>
          </Link>
          <a className="nav-link nav-subtle" href="/docs">
            <Icon name="file" />
            API reference
          </a>
          <button type="button" className="nav-link nav-subtle" onClick={signOut}>
            <Icon name="logout" />
            Sign out
          </button>
        </div>
      </nav>
      <main id="main" className="main">
        {can('webhooks:manage') && <WebhookAlert />}
        <Page path={path} />
      </main>
    </div>
  );
}

function App() {
  const { path } = useLocation();
  // undefined while asking the server who is signed in; null when nobody is.
  const [me, setMe] = useState<Me | null>();
  const [notice, setNotice] = useState<string>();
  const signedIn = useCallback((next: Me) => {
    setCsrfToken(next.CsrfToken);
    setNotice(undefined);
    setMe(next);
  }, []);
  const load = useCallback(() => {
    request<Me>('GET', '/api/v2/staff/me', { quiet: true }).then(signedIn, () => setMe(null));
  }, [signedIn]);
  useEffect(load, [load]);
  const signedOut = useCallback((message?: string) => {
    setCsrfToken(null);
    setMe(null);
    setNotice(message);
    navigate('/sign-in', { replace: true });
  }, []);
  useEffect(() => onUnauthorized(() => signedOut('Your session has ended. Sign in again.')), [signedOut]);
  const session = useMemo<SessionValue | null>(
    () =>
      me
        ? {
            me,
            can: (permission) => me.Permissions.includes(permission),
            signOut: () => {
              request('POST', '/api/v2/staff/sign-out', { quiet: true }).finally(() => signedOut());
            },
            refresh: load,
          }
        : null,
    [me, signedOut, load],
  );
  if (me === undefined) return <Spinner label="Loading" />;
  if (!session) return <SignedOut path={path} notice={notice} onSignedIn={signedIn} />;
  return (
    <SessionContext.Provider value={session}>
      <ActivitiesProvider enabled={session.can('activities:read')}>
        <Shell />
      </ActivitiesProvider>
    </SessionContext.Provider>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ToastProvider>
      <App />
    </ToastProvider>
  </StrictMode>,
);
