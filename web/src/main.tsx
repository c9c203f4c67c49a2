import { StrictMode, useCallback, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import './styles.css';
import { onUnauthorized, storeKey, storedKey } from './api';
import { ActivitiesProvider } from './activities';
import { Link, navigate, useLocation } from './router';
import { Icon, ToastProvider, type IconName } from './ui';
import { SignIn } from './pages/SignIn';
import { BookingsPage } from './pages/Bookings';
import { BookingDetailPage } from './pages/BookingDetail';
import { NewBookingPage } from './pages/NewBooking';
import { ActivitiesPage } from './pages/Activities';
import { ActivityDetailPage, type ActivityTab } from './pages/ActivityDetail';
import { KeysPage } from './pages/Keys';
import { UsagePage } from './pages/Usage';
import { WaitlistsPage } from './pages/Waitlists';
import { EmailsPage } from './pages/Emails';

// ---- Shell ----

const NAV: { href: string; label: string; icon: IconName }[] = [
  { href: '/bookings', label: 'Bookings', icon: 'bookings' },
  { href: '/activities', label: 'Activities', icon: 'activities' },
  { href: '/keys', label: 'API keys', icon: 'keys' },
  { href: '/usage', label: 'Usage', icon: 'usage' },
  { href: '/waitlists', label: 'Waitlists', icon: 'waitlist' },
  { href: '/emails', label: 'E-mails', icon: 'mail' },
];

function Page({ path }: { path: string }) {
  if (path === '/bookings') return <BookingsPage />;
  if (path === '/bookings/new') return <NewBookingPage />;
  const booking = /^\/bookings\/(BK-[A-Z0-9]+)$/.exec(path);
  if (booking) return <BookingDetailPage reference={booking[1]!} />;
  if (path === '/activities') return <ActivitiesPage />;
  const activity = /^\/activities\/(s_[A-Za-z0-9]+)(?:\/(timeslots|tickets|details|questions))?$/.exec(path);
  if (activity) return <ActivityDetailPage activityId={activity[1]!} tab={(activity[2] as ActivityTab | undefined) ?? 'timeslots'} />;
  if (path === '/keys') return <KeysPage />;
  if (path === '/usage') return <UsagePage />;
  if (path === '/waitlists') return <WaitlistsPage />;
  if (path === '/emails') return <EmailsPage />;
  return (
    <div className="page">
      <h1 tabIndex={-1}>Page not found</h1>
      <p>
        There is no page at <code>{path}</code>. <Link href="/bookings">Go to the bookings</Link>.
      </p>
    </div>
  );
}

function Shell({ onSignOut }: { onSignOut: () => void }) {
  const { path } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [path]);
  useEffect(() => {
    if (path === '/' || path === '/sign-in') navigate('/bookings', { replace: true });
  }, [path]);
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link href="/bookings" className="brand" aria-label="slotbook, bookings">
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
        <Link href="/bookings" className="brand brand-side" aria-label="slotbook, bookings">
          <img src="/favicon.svg" alt="" width="28" height="28" />
          <span>slotbook</span>
        </Link>
        <ul>
          {NAV.map((item) => {
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
          <a className="nav-link nav-subtle" href="/docs">
            <Icon name="file" />
            API reference
          </a>
          <button type="button" className="nav-link nav-subtle" onClick={onSignOut}>
            <Icon name="logout" />
            Sign out
          </button>
        </div>
      </nav>
      <main id="main" className="main">
        <Page path={path} />
      </main>
    </div>
  );
}

function App() {
  const [signedIn, setSignedIn] = useState(() => storedKey() !== null);
  const [notice, setNotice] = useState<string>();
  const signOut = useCallback((message?: string) => {
    storeKey(null);
    setSignedIn(false);
    setNotice(message);
    navigate('/sign-in', { replace: true });
  }, []);
  useEffect(() => onUnauthorized(() => signOut('The admin key is no longer valid (unknown or revoked). Sign in with another admin key.')), [signOut]);
  if (!signedIn) {
    return (
      <SignIn
        notice={notice}
        onSignedIn={(key) => {
          storeKey(key);
          setNotice(undefined);
          setSignedIn(true);
          if (location.pathname === '/' || location.pathname === '/sign-in') navigate('/bookings', { replace: true });
        }}
      />
    );
  }
  return (
    <ActivitiesProvider>
      <Shell onSignOut={() => signOut()} />
    </ActivitiesProvider>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ToastProvider>
      <App />
    </ToastProvider>
  </StrictMode>,
);
