import { useEffect, useState } from 'react';
import { api, withQuery } from '../api';
import type { Schemas } from '../api-types';
import { useActivities } from '../activities';
import { addDays, formatDate, formatMoney, formatShortDate, todayIso } from '../format';
import { Link, navigate, setQuery, useLocation, usePageTitle } from '../router';
import {
  Badge,
  Card,
  DataTable,
  EmptyState,
  ErrorBanner,
  figure,
  Icon,
  PageHeader,
  RangePresets,
  SelectField,
  Spinner,
  TextField,
  useLoad,
  LIVE_REFRESH_MS,
  useRefreshEvery,
  type RangePreset,
} from '../ui';
import { SourceBadge, StatusBadge, ticketSummary } from './booking-bits';
import { PAYMENT_STATE_LABELS, PAYMENT_STATE_TONES } from '../manifests';

const PAGE = 50;

type Booking = Schemas['AdminBookingListItem'];

const PRESETS: RangePreset[] = [
  { id: 'upcoming', label: 'Upcoming', range: () => ({ from: todayIso(), to: '' }) },
  { id: 'today', label: 'Today', range: () => ({ from: todayIso(), to: todayIso() }) },
  { id: 'week', label: 'Next 7 days', range: () => ({ from: todayIso(), to: addDays(todayIso(), 6) }) },
  { id: 'past', label: 'Past 30 days', range: () => ({ from: addDays(todayIso(), -30), to: addDays(todayIso(), -1) }) },
  { id: 'all', label: 'All dates', range: () => ({ from: '', to: '' }) },
] as const;

interface Filters {
  from: string;
  to: string;
  source: string;
  activity: string;
  status: string;
  payment: string;
  q: string;
}

function readFilters(search: URLSearchParams): Filters {
  const all = search.get('dates') === 'all';
  const hasDates = search.has('from') || search.has('to');
  return {
    from: search.get('from') ?? (all || hasDates ? '' : todayIso()),
    to: search.get('to') ?? '',
    source: search.get('source') ?? '',
    activity: search.get('activity') ?? '',
    status: search.get('status') ?? '',
    payment: search.get('payment') ?? '',
    q: search.get('q') ?? '',
  };
}

function setDates(from: string, to: string) {
  setQuery({ from: from || undefined, to: to || undefined, dates: !from && !to ? 'all' : undefined });
}

export function BookingsPage() {
  usePageTitle('Bookings');
  const { search } = useLocation();
  const filters = readFilters(search);
  const { activities, byId } = useActivities();
  const [searchText, setSearchText] = useState(filters.q);
  const [extra, setExtra] = useState<Booking[]>([]);
  const [more, setMore] = useState<{ busy: boolean; done: boolean }>({ busy: false, done: false });
  const [filtersOpen, setFiltersOpen] = useState(false);

  // The search box updates the address (and so the list) a moment after typing stops.
  useEffect(() => {
    if (searchText === filters.q) return;
    const timer = setTimeout(() => setQuery({ q: searchText.trim() || undefined }), 250);
    return () => clearTimeout(timer);
  }, [searchText, filters.q]);

  const query = {
    From: filters.from,
    To: filters.to,
    Source: filters.source,
    ActivityID: filters.activity,
    Status: filters.status,
    Search: filters.q,
  };
  const listQuery = { ...query, PaymentState: filters.payment };
  const key = JSON.stringify(listQuery);
  const list = useLoad((signal) => api.get<Booking[]>('/api/v2/admin/bookings', { ...listQuery, Limit: PAGE }, signal), [key]);
  // Bookings of every channel arrive while the list is open: its first page is read again every 10 seconds.
  useRefreshEvery(list.reload, LIVE_REFRESH_MS);
  useEffect(() => {
    setExtra([]);
    setMore({ busy: false, done: false });
  }, [key]);

  const bookings = [...(list.data ?? []), ...extra];
  const canLoadMore = !more.done && (list.data?.length ?? 0) === PAGE && (extra.length === 0 || extra.length % PAGE === 0);
  async function loadMore() {
    setMore({ busy: true, done: false });
    try {
      const page = await api.get<Booking[]>('/api/v2/admin/bookings', { ...listQuery, Limit: PAGE, Offset: bookings.length });
      setExtra((previous) => [...previous, ...page]);
      setMore({ busy: false, done: page.length < PAGE });
    } catch {
      setMore({ busy: false, done: false });
    }
  }

  const filtered = filters.source || filters.activity || filters.status || filters.payment || filters.q;
  const activeFilters = [filters.source, filters.activity, filters.status, filters.payment, filters.to].filter(Boolean).length;
  const seats = bookings.filter((b) => b.Status === 'confirmed' || b.Status === 'on_hold').reduce((sum, b) => sum + b.Seats, 0);

  return (
    <div className="page">
      <PageHeader
        title="Bookings"
        description="Every booking, whatever the channel: your online shop, the point of sale and your marketplace partners."
        actions={
          <>
            {/* The same filters as the list, every matching booking (reports/bookings-csv.ts). */}
            <a className="btn btn-secondary" href={withQuery('/api/v2/admin/bookings/export', listQuery)} download>
              <Icon name="download" /> Export CSV
            </a>
            <Link href="/bookings/new" className="btn btn-primary">
              <Icon name="plus" />
              New booking
            </Link>
          </>
        }
      />

      <Card className="filters-card">
        <RangePresets presets={PRESETS} from={filters.from} to={filters.to} label="Date range" onPick={(range) => setDates(range.from, range.to)} />
        <button
          type="button"
          className="btn btn-secondary btn-sm filters-toggle"
          aria-expanded={filtersOpen}
          aria-controls="booking-filters"
          onClick={() => setFiltersOpen((open) => !open)}
        >
          {filtersOpen ? 'Hide filters' : `More filters${activeFilters ? ` (${activeFilters})` : ''}`}
        </button>
        <form
          id="booking-filters"
          className={`filters ${filtersOpen ? '' : 'filters-folded'}`}
          role="search"
          aria-label="Filter bookings"
          onSubmit={(event) => event.preventDefault()}
        >
          <TextField
            className="filter-search"
            label="Search"
            type="search"
            placeholder="Reference, customer name or e-mail"
            value={searchText}
            onChange={(event) => setSearchText(event.target.value)}
          />
          <TextField
            label="From"
            type="date"
            value={filters.from}
            max={filters.to || undefined}
            onChange={(event) => setDates(event.target.value, filters.to)}
          />
          <TextField
            label="To"
            type="date"
            value={filters.to}
            min={filters.from || undefined}
            onChange={(event) => setDates(filters.from, event.target.value)}
          />
          <SelectField label="Source" value={filters.source} onChange={(event) => setQuery({ source: event.target.value || undefined })}>
            <option value="">All sources</option>
            <option value="online">Online</option>
            <option value="pos">Point of sale</option>
            <option value="partner">Partner</option>
          </SelectField>
          <SelectField label="Activity" value={filters.activity} onChange={(event) => setQuery({ activity: event.target.value || undefined })}>
            <option value="">All activities</option>
            {activities.map((activity) => (
              <option key={activity.ActivityID} value={activity.ActivityID}>
                {activity.Name}
                {activity.Archived ? ' (archived)' : ''}
              </option>
            ))}
          </SelectField>
          <SelectField label="Status" value={filters.status} onChange={(event) => setQuery({ status: event.target.value || undefined })}>
            <option value="">All statuses</option>
            <option value="confirmed">Confirmed</option>
            <option value="on_hold">On hold</option>
            <option value="cancelled">Cancelled</option>
            <option value="expired">Expired</option>
          </SelectField>
          <SelectField label="Payment" value={filters.payment} onChange={(event) => setQuery({ payment: event.target.value || undefined })}>
            <option value="">Any payment</option>
            {Object.entries(PAYMENT_STATE_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </SelectField>
        </form>
      </Card>

      <ErrorBanner error={list.error} onRetry={list.reload} />

      <Card className="table-card">
        <div className="table-summary" aria-live="polite">
          {list.loading && !list.data ? (
            <Spinner label="Loading bookings" />
          ) : (
            <span>
              <strong>{bookings.length}</strong> {bookings.length === 1 ? 'booking' : 'bookings'}
              {canLoadMore ? '+' : ''} · <strong>{seats}</strong> seats held
              {filters.from || filters.to ? (
                <span className="muted">
                  {' '}
                  · {filters.from ? formatShortDate(filters.from) : 'any date'} – {filters.to ? formatShortDate(filters.to) : 'onwards'}
                </span>
              ) : null}
            </span>
          )}
          {filtered && (
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              onClick={() => {
                setSearchText('');
                setQuery({ source: undefined, activity: undefined, status: undefined, payment: undefined, q: undefined });
              }}
            >
              Clear filters
            </button>
          )}
        </div>
        <DataTable
          rows={bookings}
          columns={['Reference', 'When', 'Activity', 'Customer', figure('Guests'), 'Source', 'Status', 'Payment']}
          className="bookings-table"
          empty={
            // Until the list is loaded, the table's header alone.
            list.data ? (
              <EmptyState
                icon="bookings"
                title="No bookings match"
                action={
                  <Link href="/bookings/new" className="btn btn-secondary">
                    Make a point-of-sale booking
                  </Link>
                }
              >
                {filtered ? 'Try other filters or a wider date range.' : 'Bookings from your shop, the point of sale and partners will appear here.'}
              </EmptyState>
            ) : undefined
          }
        >
          {(booking) => (
            <tr
              key={booking.BookingReference}
              className="row-link"
              data-reference={booking.BookingReference}
              onClick={() => navigate(`/bookings/${booking.BookingReference}`)}
            >
              <td data-label="Reference">
                <Link href={`/bookings/${booking.BookingReference}`} className="ref" onClick={(event) => event.stopPropagation()}>
                  {booking.BookingReference}
                </Link>
              </td>
              <td data-label="When" className="nowrap">
                <div>{formatDate(booking.Date)}</div>
                <div className="muted small">{booking.Time}</div>
              </td>
              <td data-label="Activity">{byId.get(booking.ActivityID)?.Name ?? <code>{booking.ActivityID}</code>}</td>
              <td data-label="Customer">
                <div>
                  {booking.Customer.FirstName} {booking.Customer.LastName}
                </div>
                <div className="muted small">{booking.Customer.Email}</div>
              </td>
              <td data-label="Guests" className="num">
                {booking.Participants}
                {(booking.Tickets.length > 1 || booking.Tickets.some((ticket) => ticket.Type !== 'adult')) && (
                  <span className="ticket-summary">{ticketSummary(booking)}</span>
                )}
              </td>
              <td data-label="Source">
                <SourceBadge booking={booking} />
                {booking.PaymentReference && (
                  <div className="muted small mono" title="Payment reference">
                    {booking.PaymentReference}
                  </div>
                )}
              </td>
              <td data-label="Status">
                <StatusBadge status={booking.Status} />
              </td>
              <td data-label="Payment">
                <Badge tone={PAYMENT_STATE_TONES[booking.PaymentState]}>{PAYMENT_STATE_LABELS[booking.PaymentState]}</Badge>
                {booking.AmountDue > 0 && <div className="muted small">{formatMoney(booking.AmountDue, booking.Currency)} due</div>}
              </td>
            </tr>
          )}
        </DataTable>
        {canLoadMore && (
          <div className="table-more">
            <button type="button" className="btn btn-secondary" onClick={loadMore} disabled={more.busy}>
              {more.busy ? 'Loading…' : 'Show more'}
            </button>
          </div>
        )}
      </Card>
    </div>
  );
}
