import { api, ApiError, type Timeslot } from '../api';
import { useActivities } from '../activities';
import { formatDate, todayIso } from '../format';
import { setQuery, useLocation, usePageTitle } from '../router';
import { Card, EmptyState, ErrorBanner, PageHeader, SelectField, Spinner, TextField, useLoad } from '../ui';
import { columnsOf, GenericTable, type Row } from './generic';

type Waitlist = { available: true; entries: Row[] } | { available: false };

export function WaitlistsPage() {
  usePageTitle('Waitlists');
  const { search } = useLocation();
  const { activities } = useActivities();
  const open = activities.filter((a) => !a.Archived);
  const activityId = search.get('activity') ?? open[0]?.ActivityID ?? '';
  const date = search.get('date') ?? todayIso();
  const timeslotParam = search.get('timeslot');

  const slots = useLoad(
    (signal) =>
      activityId ? api.get<Timeslot[]>(`/api/v2/admin/activities/${activityId}/timeslots`, { From: date, To: date }, signal) : Promise.resolve([]),
    [activityId, date],
  );
  // The timeslot in the address if it is on the day's list, else the day's first. While the day's
  // timeslots load, useLoad still holds the previous day's list, so only a fresh list decides. The
  // default is derived, never written back to the address: an effect that wrote it could land after
  // the operator's own choice and overwrite it.
  const freshSlots = slots.loading ? undefined : slots.data;
  const chosen = timeslotParam ? Number(timeslotParam) : undefined;
  const timeslotId = freshSlots ? (freshSlots.some((s) => s.ID === chosen) ? chosen : freshSlots[0]?.ID) : chosen;

  const waitlist = useLoad<Waitlist | undefined>(
    async (signal) => {
      if (!timeslotId) return undefined;
      try {
        const data = await api.get<Row[] | { Entries?: Row[] }>('/api/v2/admin/waitlists', { TimeslotID: timeslotId }, signal);
        return { available: true, entries: Array.isArray(data) ? data : (data.Entries ?? []) };
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return { available: false };
        throw error;
      }
    },
    [timeslotId],
  );
  const slot = slots.data?.find((s) => s.ID === timeslotId);

  return (
    <div className="page">
      <PageHeader title="Waitlists" description="Guests waiting for a seat on a sold-out timeslot; they are e-mailed when seats free up." />
      <Card className="filters-card">
        <div className="filters">
          <SelectField label="Activity" value={activityId} onChange={(e) => setQuery({ activity: e.target.value, timeslot: undefined })}>
            {open.map((a) => (
              <option key={a.ActivityID} value={a.ActivityID}>
                {a.Name}
              </option>
            ))}
          </SelectField>
          <TextField
            label="Date"
            type="date"
            value={date}
            onChange={(e) => e.target.value && setQuery({ date: e.target.value, timeslot: undefined })}
          />
          <SelectField
            label="Timeslot"
            value={timeslotId ? String(timeslotId) : ''}
            onChange={(e) => setQuery({ timeslot: e.target.value })}
            disabled={!slots.data?.length}
          >
            {(slots.data ?? []).length === 0 && <option value="">No timeslots this day</option>}
            {(slots.data ?? []).map((s) => (
              <option key={s.ID} value={s.ID}>
                {s.Time}–{s.EndTime} · {s.Booked}/{s.Capacity} booked
              </option>
            ))}
          </SelectField>
        </div>
      </Card>
      <ErrorBanner error={slots.error ?? waitlist.error} onRetry={slots.error ? slots.reload : waitlist.reload} />
      <Card title={slot ? `Waitlist for ${formatDate(slot.Date)}, ${slot.Time}` : 'Waitlist'}>
        {(slots.loading && !slots.data) || (waitlist.loading && !waitlist.data && timeslotId) ? (
          <Spinner label="Loading the waitlist" />
        ) : !timeslotId ? (
          <EmptyState icon="calendar" title="Choose a timeslot">
            Pick an activity and a day with timeslots.
          </EmptyState>
        ) : waitlist.data && !waitlist.data.available ? (
          <EmptyState icon="waitlist" title="Waitlists are not available yet">
            This slotbook does not offer waitlists yet (<code>GET /api/v2/admin/waitlists</code> answers 404). They arrive with a later release;
            nothing is lost meanwhile.
          </EmptyState>
        ) : waitlist.data?.available && waitlist.data.entries.length === 0 ? (
          <EmptyState icon="waitlist" title="Nobody is waiting">
            No guest is on the waitlist of this timeslot.
          </EmptyState>
        ) : (
          waitlist.data?.available && (
            <GenericTable
              label="Waitlist"
              rows={waitlist.data.entries}
              columns={columnsOf(
                waitlist.data.entries,
                ['ID', 'Customer', 'Participants', 'Status', 'CreatedAt', 'NotifiedAt'],
                ['TimeslotID', 'ActivityID'],
              )}
            />
          )
        )}
      </Card>
    </div>
  );
}
