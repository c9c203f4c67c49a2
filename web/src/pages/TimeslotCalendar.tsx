import { useMemo, useState, type FormEvent } from 'react';
import { api, type ApiError, type Activity, type Timeslot } from '../api';
import { addDays, daysBetween, formatDate, formatMonth, todayIso, weekday } from '../format';
import { Link, setQuery, useLocation } from '../router';
import { Card, Dialog, ErrorBanner, Icon, Spinner, TextField, useLoad, useToast } from '../ui';
import { TimeslotHolds } from './TimeslotHolds';
import { CancelDeparture } from './CancelDeparture';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

function monthStart(date: string): string {
  return `${date.slice(0, 7)}-01`;
}
function shiftMonth(month: string, by: number): string {
  const d = new Date(`${month}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + by);
  return d.toISOString().slice(0, 10);
}

function fillTone(slot: Timeslot): string {
  if (slot.Capacity === 0) return 'closed';
  const ratio = slot.Booked / slot.Capacity;
  return ratio >= 1 ? 'full' : ratio >= 0.75 ? 'busy' : ratio > 0 ? 'some' : 'free';
}

/** A month of an activity's timeslots with capacity, booked and free seats; adding one or a weekly schedule. */
export function TimeslotCalendar({ activity }: { activity: Activity }) {
  const { search } = useLocation();
  const today = todayIso();
  const month = /^\d{4}-\d{2}$/.test(search.get('month') ?? '') ? `${search.get('month')}-01` : monthStart(today);
  const gridStart = addDays(month, 1 - weekday(month));
  const monthEnd = addDays(shiftMonth(month, 1), -1);
  const gridEnd = addDays(monthEnd, 7 - weekday(monthEnd));
  const slots = useLoad(
    (signal) => api.get<Timeslot[]>(`/api/v2/admin/activities/${activity.ActivityID}/timeslots`, { From: gridStart, To: gridEnd }, signal),
    [activity.ActivityID, gridStart, gridEnd],
  );
  const [adding, setAdding] = useState(false);
  const [selected, setSelected] = useState<Timeslot>();

  const byDate = useMemo(() => {
    const map = new Map<string, Timeslot[]>();
    for (const slot of slots.data ?? []) map.set(slot.Date, [...(map.get(slot.Date) ?? []), slot]);
    return map;
  }, [slots.data]);
  const inMonth = (slots.data ?? []).filter((slot) => slot.Date.startsWith(month.slice(0, 7)));
  const totals = inMonth.reduce((t, s) => ({ capacity: t.capacity + s.Capacity, booked: t.booked + s.Booked, free: t.free + s.Free }), {
    capacity: 0,
    booked: 0,
    free: 0,
  });
  const days = Array.from({ length: daysBetween(gridStart, gridEnd) + 1 }, (_, i) => addDays(gridStart, i));

  return (
    <Card
      className="calendar-card"
      title={
        <span className="calendar-title">
          <button
            type="button"
            className="btn btn-icon btn-ghost"
            aria-label="Previous month"
            onClick={() => setQuery({ month: shiftMonth(month, -1).slice(0, 7) })}
          >
            <Icon name="left" />
          </button>
          <span aria-live="polite">{formatMonth(month)}</span>
          <button
            type="button"
            className="btn btn-icon btn-ghost"
            aria-label="Next month"
            onClick={() => setQuery({ month: shiftMonth(month, 1).slice(0, 7) })}
          >
            <Icon name="right" />
          </button>
          {month !== monthStart(today) && (
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => setQuery({ month: undefined })}>
              Today
            </button>
          )}
        </span>
      }
      actions={
        <button type="button" className="btn btn-primary" onClick={() => setAdding(true)}>
          <Icon name="plus" />
          Add timeslots
        </button>
      }
    >
      <div className="calendar-stats">
        <span>
          <strong>{inMonth.length}</strong> timeslots
        </span>
        <span>
          <strong>{totals.capacity}</strong> seats
        </span>
        <span>
          <strong>{totals.booked}</strong> booked
        </span>
        <span>
          <strong>{totals.free}</strong> free
        </span>
        <span className="legend" aria-hidden="true">
          <i className="dot dot-free" /> free <i className="dot dot-some" /> selling <i className="dot dot-busy" /> almost full{' '}
          <i className="dot dot-full" /> full
        </span>
      </div>
      <ErrorBanner error={slots.error} onRetry={slots.reload} />
      {slots.loading && !slots.data && <Spinner label="Loading timeslots" />}
      <div className="calendar" role="table" aria-label={`Timeslots in ${formatMonth(month)}`}>
        <div className="calendar-head" role="row">
          {WEEKDAYS.map((name) => (
            <div key={name} role="columnheader">
              {name}
            </div>
          ))}
        </div>
        <div className="calendar-grid" role="rowgroup">
          {days.map((date) => {
            const list = byDate.get(date) ?? [];
            const outside = !date.startsWith(month.slice(0, 7));
            return (
              <div
                key={date}
                role="cell"
                className={`calendar-day ${outside ? 'calendar-outside' : ''} ${date === today ? 'calendar-today' : ''} ${list.length === 0 ? 'calendar-none' : ''} ${date < today ? 'calendar-past' : ''}`}
                aria-label={formatDate(date)}
              >
                <div className="calendar-date">
                  <span className="calendar-date-long">{formatDate(date)}</span>
                  <span className="calendar-date-num">{Number(date.slice(8))}</span>
                </div>
                <ul>
                  {list.map((slot) => (
                    <li key={slot.ID}>
                      <button
                        type="button"
                        className={`slot-chip slot-${fillTone(slot)}`}
                        onClick={() => setSelected(slot)}
                        aria-label={`${slot.Time}: ${slot.Booked} of ${slot.Capacity} booked, ${slot.Free} free`}
                        data-timeslot={slot.ID}
                      >
                        <span className="slot-chip-time">{slot.Time}</span>
                        <span className="slot-chip-seats">
                          {slot.Booked}/{slot.Capacity}
                        </span>
                      </button>
                    </li>
                  ))}
                </ul>
              </div>
            );
          })}
        </div>
      </div>
      {slots.data && inMonth.length === 0 && (
        <p className="calendar-empty muted">
          No timeslots in {formatMonth(month)}.{' '}
          <button type="button" className="link-button" onClick={() => setAdding(true)}>
            Add a weekly schedule
          </button>
        </p>
      )}
      <AddTimeslotsDialog
        open={adding}
        activity={activity}
        defaultFrom={month < today ? today : month}
        onClose={() => setAdding(false)}
        onCreated={() => {
          setAdding(false);
          slots.reload();
        }}
      />
      <TimeslotDialog
        slot={selected}
        activity={activity}
        onClose={() => setSelected(undefined)}
        onChanged={(slot) => {
          setSelected(slot);
          slots.reload();
        }}
      />
    </Card>
  );
}

function TimeslotDialog({
  slot,
  activity,
  onClose,
  onChanged,
}: {
  slot?: Timeslot;
  activity: Activity;
  onClose: () => void;
  onChanged: (slot: Timeslot) => void;
}) {
  const toast = useToast();
  const [capacity, setCapacity] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const [forSlot, setForSlot] = useState<number>();
  if (slot && forSlot !== slot.ID) {
    setForSlot(slot.ID);
    setCapacity(String(slot.Capacity));
    setError(undefined);
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!slot) return;
    setBusy(true);
    setError(undefined);
    try {
      const changed = await api.patch<Timeslot>(`/api/v2/admin/timeslots/${slot.ID}`, { Capacity: Number(capacity) });
      toast(`Capacity of ${changed.Time} on ${formatDate(changed.Date)} is now ${changed.Capacity}.`);
      onChanged(changed);
    } catch (caught) {
      setError(caught as ApiError);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={slot !== undefined} title={slot ? `${formatDate(slot.Date)}, ${slot.Time}–${slot.EndTime}` : ''} onClose={onClose}>
      {slot && (
        <>
          <div className="stat-row">
            <div className="stat">
              <span className="stat-label">Capacity</span>
              <span className="stat-value">{slot.Capacity}</span>
            </div>
            <div className="stat">
              <span className="stat-label">Booked</span>
              <span className="stat-value">{slot.Booked}</span>
            </div>
            <div className="stat">
              <span className="stat-label">Free</span>
              <span className="stat-value">{slot.Free}</span>
            </div>
          </div>
          <form onSubmit={save} className="inline-form" noValidate>
            <TextField
              label="Capacity"
              type="number"
              min={slot.Booked}
              max={100000}
              value={capacity}
              onChange={(e) => setCapacity(e.target.value)}
              hint={`At least the ${slot.Booked} seats already booked; 0 closes an empty timeslot.`}
              error={error?.fieldError('Capacity')}
            />
            <button type="submit" className="btn btn-primary" disabled={busy || capacity === String(slot.Capacity)}>
              {busy ? 'Saving…' : 'Save capacity'}
            </button>
          </form>
          <ErrorBanner error={error && !error.fieldError('Capacity') ? error : undefined} />
          {slot.Booked > 0 && <TimeslotHolds slot={slot} onChanged={onChanged} />}
          <CancelDeparture slot={slot} onChanged={onChanged} />
          <div className="dialog-links">
            <Link href={`/bookings?from=${slot.Date}&to=${slot.Date}&activity=${activity.ActivityID}`}>
              <Icon name="bookings" size={16} /> Bookings this day
            </Link>
            <Link href={`/bookings/new?activity=${activity.ActivityID}&date=${slot.Date}&time=${slot.Time}`}>
              <Icon name="plus" size={16} /> Book this timeslot
            </Link>
            <Link href={`/waitlists?activity=${activity.ActivityID}&date=${slot.Date}&timeslot=${slot.ID}`}>
              <Icon name="waitlist" size={16} /> Waitlist
            </Link>
          </div>
        </>
      )}
    </Dialog>
  );
}

function AddTimeslotsDialog({
  open,
  activity,
  defaultFrom,
  onClose,
  onCreated,
}: {
  open: boolean;
  activity: Activity;
  defaultFrom: string;
  onClose: () => void;
  onCreated: () => void;
}) {
  const toast = useToast();
  const [mode, setMode] = useState<'schedule' | 'one'>('schedule');
  const [from, setFrom] = useState(defaultFrom);
  const [to, setTo] = useState(addDays(defaultFrom, 27));
  const [weekdays, setWeekdays] = useState<number[]>([1, 2, 3, 4, 5, 6, 7]);
  const [times, setTimes] = useState<string[]>(['10:00']);
  const [date, setDate] = useState(defaultFrom);
  const [time, setTime] = useState('10:00');
  const [capacity, setCapacity] = useState('10');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();

  const validTimes = [...new Set(times.filter((t) => /^\d{2}:\d{2}$/.test(t)))].sort();
  const span = from && to && to >= from ? daysBetween(from, to) + 1 : 0;
  const dates =
    span > 0 && span <= 367 ? Array.from({ length: span }, (_, i) => addDays(from, i)).filter((d) => weekdays.includes(weekday(d))).length : 0;
  const upTo = dates * validTimes.length;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const path = `/api/v2/admin/activities/${activity.ActivityID}/timeslots`;
      if (mode === 'one') {
        await api.post(path, { Date: date, Time: time, Capacity: Number(capacity) });
        toast(`Added ${time} on ${formatDate(date)}.`);
      } else {
        const created = await api.post<unknown[]>(path, {
          From: from,
          To: to,
          Weekdays: [...weekdays].sort(),
          Times: validTimes,
          Capacity: Number(capacity),
        });
        const skipped = upTo - created.length;
        toast(`Added ${created.length} timeslots${skipped > 0 ? ` (${skipped} existed already or fell into a clock change)` : ''}.`);
      }
      onCreated();
    } catch (caught) {
      setError(caught as ApiError);
    } finally {
      setBusy(false);
    }
  }
  const fieldError = (field: string) => error?.fieldError(field);

  return (
    <Dialog open={open} title={`Add timeslots to ${activity.Name}`} onClose={onClose} wide>
      <form onSubmit={submit} noValidate>
        <div className="segmented" role="radiogroup" aria-label="What to add">
          <label className={mode === 'schedule' ? 'segment-active' : ''}>
            <input type="radio" name="mode" checked={mode === 'schedule'} onChange={() => setMode('schedule')} />
            Weekly schedule
          </label>
          <label className={mode === 'one' ? 'segment-active' : ''}>
            <input type="radio" name="mode" checked={mode === 'one'} onChange={() => setMode('one')} />
            One timeslot
          </label>
        </div>
        {mode === 'one' ? (
          <div className="form-grid form-grid-3">
            <TextField label="Date" type="date" value={date} onChange={(e) => setDate(e.target.value)} error={fieldError('Date')} />
            <TextField
              label="Start time"
              type="time"
              value={time}
              onChange={(e) => setTime(e.target.value)}
              error={fieldError('Time')}
              hint={activity.Timezone}
            />
            <TextField
              label="Capacity"
              type="number"
              min={1}
              value={capacity}
              onChange={(e) => setCapacity(e.target.value)}
              error={fieldError('Capacity')}
            />
          </div>
        ) : (
          <>
            <div className="form-grid form-grid-3">
              <TextField label="From" type="date" value={from} onChange={(e) => setFrom(e.target.value)} error={fieldError('From')} />
              <TextField
                label="To"
                type="date"
                value={to}
                min={from}
                onChange={(e) => setTo(e.target.value)}
                error={fieldError('To')}
                hint="At most a year after From"
              />
              <TextField
                label="Capacity of each"
                type="number"
                min={1}
                value={capacity}
                onChange={(e) => setCapacity(e.target.value)}
                error={fieldError('Capacity')}
              />
            </div>
            <fieldset className="fieldset">
              <legend>On these days</legend>
              <div className="weekday-picker">
                {WEEKDAYS.map((name, index) => {
                  const day = index + 1;
                  const on = weekdays.includes(day);
                  return (
                    <label key={name} className={`weekday ${on ? 'weekday-on' : ''}`}>
                      <input type="checkbox" checked={on} onChange={() => setWeekdays(on ? weekdays.filter((d) => d !== day) : [...weekdays, day])} />
                      {name}
                    </label>
                  );
                })}
              </div>
              {fieldError('Weekdays') && <div className="field-error">{fieldError('Weekdays')}</div>}
            </fieldset>
            <fieldset className="fieldset">
              <legend>At these start times ({activity.Timezone})</legend>
              <div className="times-list">
                {times.map((t, index) => (
                  <div key={index} className="time-item">
                    <input
                      type="time"
                      aria-label={`Start time ${index + 1}`}
                      value={t}
                      onChange={(e) => setTimes(times.map((old, i) => (i === index ? e.target.value : old)))}
                    />
                    {times.length > 1 && (
                      <button
                        type="button"
                        className="btn btn-icon btn-ghost"
                        aria-label={`Remove ${t}`}
                        onClick={() => setTimes(times.filter((_, i) => i !== index))}
                      >
                        <Icon name="x" size={16} />
                      </button>
                    )}
                  </div>
                ))}
                <button
                  type="button"
                  className="btn btn-secondary btn-sm"
                  onClick={() => setTimes([...times, times.length ? nextTime(times[times.length - 1]!) : '10:00'])}
                >
                  <Icon name="plus" size={16} /> Add a time
                </button>
              </div>
              {fieldError('Times') && <div className="field-error">{fieldError('Times')}</div>}
            </fieldset>
            <p className="preview" aria-live="polite">
              {upTo > 0 ? (
                <>
                  Up to <strong>{upTo}</strong> timeslots: {validTimes.join(', ')} on {dates} days from {formatDate(from)} to {formatDate(to)}.
                  Existing ones are kept.
                </>
              ) : (
                'Choose a date range, at least one day and one time.'
              )}
            </p>
          </>
        )}
        <ErrorBanner error={error} />
        <div className="form-actions">
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy || (mode === 'schedule' && upTo === 0)}>
            {busy ? 'Adding…' : mode === 'one' ? 'Add timeslot' : `Add ${upTo} timeslots`}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function nextTime(time: string): string {
  const [h, m] = time.split(':').map(Number);
  const next = Math.min(23, (h ?? 9) + 2);
  return `${String(next).padStart(2, '0')}:${String(m ?? 0).padStart(2, '0')}`;
}
