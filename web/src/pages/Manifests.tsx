// Manifests: the day's timeslots (/manifests), one timeslot's guests with check-in (/manifests/{id}, also
// printable), and the phone's check-in at the door (/manifests/check-in, CheckIn.tsx).
import { useState } from 'react';
import { type ApiError, downloadFile, type WaiverAnswer } from '../api';
import { addDays, formatDate, todayIso, zoneLabel } from '../format';
import { Link, setQuery, useLocation, usePageTitle } from '../router';
import { useSession } from '../session';
import {
  Badge,
  Card,
  DataTable,
  EmptyState,
  ErrorBanner,
  figure,
  Icon,
  PageHeader,
  Spinner,
  TextField,
  LIVE_REFRESH_MS,
  useLoad,
  useRefreshEvery,
} from '../ui';
import { dueText, loadDay, loadManifest, loadTimeslot, waiverBadge, type CheckinAnswer, type ManifestEntry } from '../manifests';
import { CancelDeparture } from './CancelDeparture';
import { CheckInPage } from './CheckIn';
import { CheckinControls, PaymentCell } from './CheckinControls';

export function ManifestsRoute({ path }: { path: string }) {
  if (path === '/manifests/check-in') return <CheckInPage />;
  const slot = /^\/manifests\/(\d+)$/.exec(path);
  if (slot) return <TimeslotManifestPage timeslotId={Number(slot[1])} />;
  return <ManifestDayPage />;
}

function ManifestDayPage() {
  usePageTitle('Manifests');
  const { can } = useSession();
  const anyDay = can('manifests:read');
  const { search } = useLocation();
  // Without a date in the address the server answers today where the operator's activities are (the
  // browser's own date may be another: a laptop set to UTC, a tour on the other side of the world).
  const asked = (anyDay && search.get('date')) || undefined;
  const day = useLoad((signal) => loadDay(asked, signal), [asked]);
  // New bookings of every channel and the desk's check-ins appear without a reload.
  useRefreshEvery(day.reload, LIVE_REFRESH_MS);
  const date = asked ?? day.data?.Date ?? todayIso();
  const slots = day.data?.Timeslots ?? [];
  return (
    <div className="page">
      <PageHeader
        title="Manifests"
        description="Who is on each timeslot: open one for its guests, their waivers and check-in."
        actions={
          <Link href="/manifests/check-in" className="btn btn-primary">
            <Icon name="check" />
            Check in at the door
          </Link>
        }
      />
      {anyDay && (
        <Card className="filters-card">
          <div className="day-picker">
            <button
              type="button"
              className="btn btn-secondary btn-icon"
              aria-label="Previous day"
              onClick={() => setQuery({ date: addDays(date, -1) })}
            >
              <Icon name="left" />
            </button>
            <TextField label="Date" type="date" value={date} onChange={(e) => e.target.value && setQuery({ date: e.target.value })} />
            <button type="button" className="btn btn-secondary btn-icon" aria-label="Next day" onClick={() => setQuery({ date: addDays(date, 1) })}>
              <Icon name="right" />
            </button>
            {asked && (
              <button type="button" className="btn btn-ghost" onClick={() => setQuery({ date: undefined })}>
                Today
              </button>
            )}
          </div>
        </Card>
      )}
      <ErrorBanner error={day.error} onRetry={day.reload} />
      {day.data && day.data.Due.length > 0 && (
        <p className="manifest-due" data-testid="day-due">
          Still to collect this day: <span className="strong">{dueText(day.data.Due)}</span>
        </p>
      )}
      <Card
        title={day.data?.Today ? `Today, ${formatDate(day.data.Date)}` : formatDate(day.data?.Date ?? date)}
        actions={day.data?.Today ? <span className="muted small">Each activity's today, in its own time zone</span> : undefined}
        className="table-card"
      >
        {day.loading && !day.data ? (
          <Spinner label="Loading the day" />
        ) : (
          <DataTable
            rows={slots}
            columns={['Time', 'Activity', figure('Bookings'), figure('Guests'), figure('Checked in'), figure('No-shows'), figure('Due')]}
            label={`Timeslots of ${formatDate(date)}`}
            className="stacked-table manifest-day"
            empty={
              <EmptyState icon="calendar" title="No timeslots this day">
                {anyDay ? 'Pick another day.' : "Your role shows today's manifests."}
              </EmptyState>
            }
          >
            {(slot) => (
              <tr key={slot.TimeslotID}>
                <td data-label="Time">
                  <Link href={`/manifests/${slot.TimeslotID}`} className="strong">
                    {slot.Time}
                  </Link>
                  <div className="small muted">
                    {day.data?.Today && slot.Date !== day.data.Date && `${formatDate(slot.Date)} · `}
                    {zoneLabel(slot.TimeZone, slot.StartsAt)}
                  </div>
                </td>
                <td data-label="Activity">
                  <Link href={`/manifests/${slot.TimeslotID}`}>{slot.ActivityName}</Link>
                </td>
                <td data-label="Bookings" className="num">
                  {slot.Bookings}
                </td>
                <td data-label="Guests" className="num">
                  {slot.Guests} <span className="muted small">of {slot.Capacity}</span>
                </td>
                <td data-label="Checked in" className="num">
                  {slot.CheckedIn}
                </td>
                <td data-label="No-shows" className="num">
                  {slot.Ended ? slot.NoShows : <span className="muted">–</span>}
                </td>
                <td data-label="Due" className="num">
                  {slot.Due.length > 0 ? dueText(slot.Due) : <span className="muted">–</span>}
                </td>
              </tr>
            )}
          </DataTable>
        )}
      </Card>
    </div>
  );
}

function TimeslotManifestPage({ timeslotId }: { timeslotId: number }) {
  const manifest = useLoad((signal) => loadManifest(timeslotId, signal), [timeslotId]);
  const { reload, setData } = manifest;
  // Several people check in at once on a busy day (a desk and two guides) and bookings arrive from every
  // channel: read it again every 10 s while the page is in sight, so everyone's ticks and guests show up.
  useRefreshEvery(reload, LIVE_REFRESH_MS);
  const slot = manifest.data?.Timeslot;
  usePageTitle(slot ? `${slot.ActivityName} ${slot.Time}` : 'Manifest');
  const list = manifest.data?.Entries ?? [];
  const checkedIn = list.reduce((sum, entry) => sum + entry.CheckedIn, 0);
  const guests = list.reduce((sum, entry) => sum + entry.Participants, 0);
  // The server's answer is the booking as it now is: it replaces the row (and the timeslot's counts).
  const changed = (answer: CheckinAnswer) =>
    manifest.data &&
    setData({
      Timeslot: answer.Timeslot,
      Entries: manifest.data.Entries.map((entry) => (entry.BookingReference === answer.Booking.BookingReference ? answer.Booking : entry)),
    });

  return (
    <div className="page manifest-page">
      <Link href={slot ? `/manifests?date=${slot.Date}` : '/manifests'} className="back-link no-print">
        <Icon name="left" size={16} />
        All timeslots
      </Link>
      <ErrorBanner error={manifest.error} onRetry={manifest.reload} />
      {manifest.loading && !manifest.data && <Spinner label="Loading the manifest" />}
      {slot && (
        <>
          <PageHeader
            title={`${slot.ActivityName}, ${slot.Time}`}
            description={`${formatDate(slot.Date)} · ${zoneLabel(slot.TimeZone, slot.StartsAt)} · ${list.length} booking${list.length === 1 ? '' : 's'} · ${guests} guest${guests === 1 ? '' : 's'} · ${checkedIn} checked in${slot.Ended ? ` · ${list.filter((e) => e.Attendance === 'no-show').length} no-show` : ''}${slot.Due.length > 0 ? ` · ${dueText(slot.Due)} to collect` : ''}`}
            actions={
              <>
                <Link href="/manifests/check-in" className="btn btn-secondary no-print">
                  <Icon name="check" />
                  Check in by code
                </Link>
                <button type="button" className="btn btn-secondary no-print" onClick={() => window.print()}>
                  <Icon name="file" />
                  Print
                </button>
              </>
            }
          />
          <Card title="Guests" className="table-card">
            <DataTable
              rows={list}
              columns={['Guest', 'Party', 'Channel', 'Payment', 'Waiver', 'Check-in']}
              label="Guests"
              className="stacked-table manifest-table"
              empty={
                <EmptyState icon="inbox" title="Nobody is booked">
                  No confirmed bookings on this timeslot.
                </EmptyState>
              }
            >
              {(entry) => <ManifestRow key={entry.BookingReference} entry={entry} timeZone={slot.TimeZone} onChange={changed} />}
            </DataTable>
          </Card>
          <DepartureCard timeslotId={timeslotId} onChanged={reload} />
        </>
      )}
    </div>
  );
}

/**
 * Cancelling the departure from its manifest (the wind picked up): the same form as the activity
 * calendar's, for those who may change bookings and read the timeslot; not printed.
 */
function DepartureCard({ timeslotId, onChanged }: { timeslotId: number; onChanged: () => void }) {
  const { can } = useSession();
  const allowed = can('bookings:write') && can('activities:read');
  const timeslot = useLoad((signal) => (allowed ? loadTimeslot(timeslotId, signal) : Promise.resolve(null)), [timeslotId, allowed]);
  if (!timeslot.data) return null;
  return (
    <Card title="Departure" className="no-print">
      <CancelDeparture
        slot={timeslot.data}
        onChanged={(slot) => {
          timeslot.setData(slot);
          onChanged();
        }}
      />
    </Card>
  );
}

function ManifestRow({ entry, timeZone, onChange }: { entry: ManifestEntry; timeZone: string; onChange: (answer: CheckinAnswer) => void }) {
  const name = `${entry.Customer.FirstName} ${entry.Customer.LastName}`;
  return (
    <tr data-reference={entry.BookingReference}>
      <td data-label="Guest">
        <span className="strong">{name}</span>
        <div className="small mono">{entry.BookingReference}</div>
        <div className="small muted">{entry.Customer.Phone}</div>
        {entry.Notes && (
          <p className="guest-note small">
            <span className="muted">Guest's note: </span>
            {entry.Notes}
          </p>
        )}
      </td>
      <td data-label="Party">
        <span className="strong">{entry.Participants}</span>
        <div className="small muted">{entry.Tickets.map((ticket) => `${ticket.Quantity} ${ticket.Name}`).join(', ')}</div>
      </td>
      <td data-label="Channel">{entry.Channel}</td>
      <td data-label="Payment">
        <PaymentCell entry={entry} />
      </td>
      <td data-label="Waiver">
        <WaiverCell entry={entry} />
      </td>
      <td data-label="Check-in" className="checkin-cell">
        <CheckinControls entry={entry} timeZone={timeZone} onChange={onChange} />
      </td>
    </tr>
  );
}

function WaiverCell({ entry }: { entry: ManifestEntry }) {
  const [error, setError] = useState<ApiError>();
  async function download(answer: WaiverAnswer) {
    setError(undefined);
    try {
      await downloadFile(answer.File!.Download, `${entry.BookingReference}-${answer.File!.FileID}`);
    } catch (caught) {
      setError(caught as ApiError);
    }
  }
  return (
    <>
      <Badge tone={waiverBadge(entry).tone}>{waiverBadge(entry).label}</Badge>
      {entry.WaiverAnswers.length > 0 && (
        <details className="waiver-details">
          <summary className="small">Answers</summary>
          <dl className="small">
            {entry.WaiverAnswers.map((answer) => (
              <div key={answer.QuestionID}>
                <dt className="muted">{answer.Question}</dt>
                <dd>
                  {answer.File ? (
                    <button type="button" className="link-button no-print" onClick={() => download(answer)}>
                      Download file
                    </button>
                  ) : answer.Type === 'boolean' ? (
                    answer.Answer === 'true' ? (
                      'Yes'
                    ) : (
                      'No'
                    )
                  ) : (
                    answer.Answer
                  )}
                </dd>
              </div>
            ))}
          </dl>
        </details>
      )}
      {entry.WaiverAnswers.length > 0 && (
        <ul className="print-only small">
          {entry.WaiverAnswers.map((answer) => (
            <li key={answer.QuestionID}>
              {answer.Question}:{' '}
              {answer.File ? 'file uploaded' : answer.Type === 'boolean' ? (answer.Answer === 'true' ? 'Yes' : 'No') : answer.Answer}
            </li>
          ))}
        </ul>
      )}
      {error && <p className="field-error">{error.message}</p>}
    </>
  );
}
