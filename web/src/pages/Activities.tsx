import { useState } from 'react';
import { api, type Activity } from '../api';
import { useActivities } from '../activities';
import { formatDuration, formatMoney } from '../format';
import { Link, navigate, usePageTitle } from '../router';
import { Badge, Card, Checkbox, Dialog, EmptyState, Icon, PageHeader, Spinner, useToast } from '../ui';
import { ActivityForm } from './ActivityForm';

export function ActivitiesPage() {
  usePageTitle('Activities');
  const toast = useToast();
  const { activities, loaded, reload } = useActivities();
  const [creating, setCreating] = useState(false);
  const [showArchived, setShowArchived] = useState(false);
  const shown = activities.filter((activity) => showArchived || !activity.Archived);
  const archivedCount = activities.filter((activity) => activity.Archived).length;

  return (
    <div className="page">
      <PageHeader
        title="Activities"
        description="What you sell: each activity has its timeslots, capacity and waiver questions."
        actions={
          <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
            <Icon name="plus" />
            New activity
          </button>
        }
      />
      {!loaded ? (
        <Spinner label="Loading activities" />
      ) : activities.length === 0 ? (
        <Card>
          <EmptyState
            icon="activities"
            title="No activities yet"
            action={
              <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
                Create your first activity
              </button>
            }
          >
            Create an activity, then give it timeslots; partners can book it right away.
          </EmptyState>
        </Card>
      ) : (
        <>
          {archivedCount > 0 && (
            <div className="toolbar">
              <Checkbox label={`Show archived (${archivedCount})`} checked={showArchived} onChange={(e) => setShowArchived(e.target.checked)} />
            </div>
          )}
          <ul className="activity-grid">
            {shown.map((activity) => (
              <li key={activity.ActivityID}>
                <Link href={`/activities/${activity.ActivityID}`} className={`activity-card ${activity.Archived ? 'activity-archived' : ''}`}>
                  <div className="activity-card-top">
                    <h2>{activity.Name}</h2>
                    {activity.Archived && <Badge>Archived</Badge>}
                  </div>
                  <p className="activity-desc">{activity.Description || <span className="muted">No description</span>}</p>
                  <dl className="activity-meta">
                    <div>
                      <dt>Price</dt>
                      <dd>{formatMoney(activity.UnitPrice, activity.Currency)}</dd>
                    </div>
                    <div>
                      <dt>Duration</dt>
                      <dd>{formatDuration(activity.DurationMinutes)}</dd>
                    </div>
                    <div>
                      <dt>Per booking</dt>
                      <dd>up to {activity.MaxParticipantsPerBooking}</dd>
                    </div>
                    <div>
                      <dt>Time zone</dt>
                      <dd>{activity.Timezone}</dd>
                    </div>
                  </dl>
                  <div className="activity-id mono">
                    #{activity.ID} · {activity.ActivityID}
                  </div>
                </Link>
              </li>
            ))}
          </ul>
        </>
      )}
      <Dialog open={creating} title="New activity" onClose={() => setCreating(false)} wide>
        <ActivityForm
          submitLabel="Create activity"
          onCancel={() => setCreating(false)}
          onSubmit={async (input) => {
            const created = await api.post<Activity>('/api/v2/admin/activities', input);
            await reload();
            setCreating(false);
            toast(`${created.Name} is created. Now give it timeslots.`);
            navigate(`/activities/${created.ActivityID}`);
          }}
        />
      </Dialog>
    </div>
  );
}
