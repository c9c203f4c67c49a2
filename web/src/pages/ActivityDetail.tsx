import { useState } from 'react';
import { api, type ApiError, type Activity } from '../api';
import { useActivities } from '../activities';
import { formatDuration, formatMoney } from '../format';
import { Link, usePageTitle } from '../router';
import { Card, ConfirmDialog, EmptyState, Icon, PageHeader, Spinner, useToast } from '../ui';
import { ActivityForm } from './ActivityForm';
import { TimeslotCalendar } from './TimeslotCalendar';
import { QuestionsEditor } from './QuestionsEditor';
import { TicketTypesEditor } from './TicketTypesEditor';
import { ActivityPhotos } from './ActivityPhotos';

export type ActivityTab = 'timeslots' | 'tickets' | 'details' | 'questions';
type Tab = ActivityTab;
const TABS: { id: Tab; label: string }[] = [
  { id: 'timeslots', label: 'Timeslots' },
  { id: 'tickets', label: 'Ticket types' },
  { id: 'questions', label: 'Waiver questions' },
  { id: 'details', label: 'Details' },
];

/** "€49.00 per person" for one kind of ticket; the range of prices for several. */
function priceLine(activity: Activity): string {
  const prices = activity.TicketTypes.map((type) => type.Price);
  if (prices.length <= 1) return `${formatMoney(activity.UnitPrice, activity.Currency)} per person`;
  return `${formatMoney(Math.min(...prices), activity.Currency)}–${formatMoney(Math.max(...prices), activity.Currency)} · ${prices.length} ticket types`;
}

export function ActivityDetailPage({ activityId, tab }: { activityId: string; tab: Tab }) {
  const { byId, loaded, reload } = useActivities();
  const activity = byId.get(activityId);
  usePageTitle(activity ? `${activity.Name} · ${TABS.find((t) => t.id === tab)!.label}` : 'Activity');
  const toast = useToast();
  const [archiving, setArchiving] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();

  const back = (
    <Link href="/activities" className="back-link">
      <Icon name="left" size={16} />
      All activities
    </Link>
  );
  if (!loaded)
    return (
      <div className="page">
        {back}
        <Spinner label="Loading the activity" />
      </div>
    );
  if (!activity) {
    return (
      <div className="page">
        {back}
        <h1 tabIndex={-1} className="visually-hidden">
          Activity not found
        </h1>
        <EmptyState icon="search" title="No such activity">
          It may belong to another operator, or the link is mistyped.
        </EmptyState>
      </div>
    );
  }

  async function setArchived(archived: boolean) {
    setBusy(true);
    setError(undefined);
    try {
      await api.patch<Activity>(`/api/v2/admin/activities/${activityId}`, { Archived: archived });
      await reload();
      setArchiving(false);
      toast(archived ? `${activity!.Name} is archived: partners no longer see it.` : `${activity!.Name} is back on sale.`);
    } catch (caught) {
      setError(caught as ApiError);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="page">
      {back}
      <PageHeader
        title={activity.Name}
        description={
          <span>
            {priceLine(activity)} ·{' '}
            {activity.AvailabilityType === 'opening_hours'
              ? `open ${formatDuration(activity.DurationMinutes)} a day`
              : formatDuration(activity.DurationMinutes)}{' '}
            · {activity.Timezone}
            {activity.Archived && <strong> · Archived</strong>}
          </span>
        }
        actions={
          <Link href={`/bookings/new?activity=${activity.ActivityID}`} className="btn btn-secondary">
            <Icon name="plus" />
            Book
          </Link>
        }
      />
      <nav className="tabs" aria-label="Activity sections">
        {TABS.map((t) => (
          <Link
            key={t.id}
            href={`/activities/${activityId}/${t.id}`}
            className={`tab ${t.id === tab ? 'tab-current' : ''}`}
            aria-current={t.id === tab ? 'page' : undefined}
          >
            {t.label}
          </Link>
        ))}
      </nav>
      {tab === 'timeslots' && <TimeslotCalendar activity={activity} />}
      {tab === 'tickets' && <TicketTypesEditor activity={activity} />}
      {tab === 'questions' && <QuestionsEditor activity={activity} />}
      {tab === 'details' && (
        <>
          <Card title="Details">
            <ActivityForm
              key={activity.UpdatedAt}
              initial={activity}
              submitLabel="Save changes"
              onSubmit={async (input) => {
                await api.patch<Activity>(`/api/v2/admin/activities/${activityId}`, input);
                await reload();
                toast('Changes saved.');
              }}
            />
          </Card>
          <ActivityPhotos activity={activity} onChanged={reload} />
          <Card title={activity.Archived ? 'Archived' : 'Archive'}>
            <div className="split">
              <p className="muted">
                {activity.Archived
                  ? 'Partners cannot see or book this activity. Its bookings stay as they are.'
                  : 'Archiving hides the activity from partners; existing bookings stay valid.'}
              </p>
              <button
                type="button"
                className={activity.Archived ? 'btn btn-secondary' : 'btn btn-danger-outline'}
                onClick={() => (activity.Archived ? void setArchived(false) : setArchiving(true))}
                disabled={busy}
              >
                {activity.Archived ? 'Restore activity' : 'Archive activity'}
              </button>
            </div>
          </Card>
        </>
      )}
      <ConfirmDialog
        open={archiving}
        title={`Archive ${activity.Name}?`}
        confirmLabel="Archive"
        busy={busy}
        error={error}
        onConfirm={() => void setArchived(true)}
        onClose={() => setArchiving(false)}
      >
        <p>Partners will no longer see or book it. You can restore it later.</p>
      </ConfirmDialog>
    </div>
  );
}
