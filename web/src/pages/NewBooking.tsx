import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { api, ApiError, type Booking, type TicketType, type Timeslot } from '../api';
import { useActivities } from '../activities';
import { addDays, formatDate, formatMoney, todayIso } from '../format';
import { Link, navigate, useLocation, usePageTitle } from '../router';
import { Card, EmptyState, ErrorBanner, Icon, PageHeader, SelectField, Spinner, TextField, useLoad, useToast } from '../ui';
import { TotalRow } from './booking-bits';

const STRIP_DAYS = 14;

/** The seats and people a ticket mix takes, and what it costs. */
function mixOf(types: TicketType[], quantities: Record<string, number>) {
  const lines = types.map((type) => ({ type, quantity: quantities[type.Type] ?? 0 })).filter((line) => line.quantity > 0);
  return {
    lines,
    tickets: lines.reduce((sum, line) => sum + line.quantity, 0),
    seats: lines.reduce((sum, line) => sum + (line.type.TakesSeat ? line.quantity * line.type.People : 0), 0),
    total: lines.reduce((sum, line) => sum + line.quantity * line.type.Price, 0),
  };
}

/** A point-of-sale booking: pick an activity, a day and a timeslot (seats left shown), then the customer. */
export function NewBookingPage() {
  usePageTitle('New point-of-sale booking');
  const toast = useToast();
  const { search } = useLocation();
  const { activities, byId, loaded } = useActivities();
  const open = activities.filter((activity) => !activity.Archived);
  const [activityId, setActivityId] = useState(search.get('activity') ?? '');
  const [date, setDate] = useState(search.get('date') ?? todayIso());
  const [time, setTime] = useState(search.get('time') ?? '');
  const [participants, setParticipants] = useState(1);
  const [quantities, setQuantities] = useState<Record<string, number>>({});
  // The types of the Tickets lines last sent, in order: a 422 names its lines by index (Tickets[1].Quantity).
  const [sentTypes, setSentTypes] = useState<string[]>([]);
  const [customer, setCustomer] = useState({ FirstName: '', LastName: '', Email: '', Phone: '' });
  const [paymentReference, setPaymentReference] = useState('');
  // How it was paid at the desk (docs/payments.md, "The desk"): nothing yet by default (due at check-in).
  const [payMethod, setPayMethod] = useState<'unpaid' | 'cash' | 'card_terminal' | 'voucher' | 'invoice'>('unpaid');
  const [payAmount, setPayAmount] = useState('');
  const [payReference, setPayReference] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();

  useEffect(() => {
    if (!activityId && open.length > 0) setActivityId(open[0]!.ActivityID);
  }, [activityId, open]);
  const activity = byId.get(activityId);
  // One kind of ticket: a number of participants, as always. Several: a quantity of each.
  const types = activity?.TicketTypes ?? [];
  const mixed = types.length > 1;
  useEffect(() => {
    setQuantities(Object.fromEntries(types.map((type) => [type.Type, type.Default ? 1 : 0])));
    // Only a change of activity resets the mix (types is a new array on every render).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [activityId, activity?.UpdatedAt]);
  const mix = mixOf(types, quantities);
  const seats = mixed ? mix.seats : participants;

  const today = todayIso();
  const strip = useLoad(
    (signal) =>
      activityId
        ? api.get<Timeslot[]>(`/api/v2/admin/activities/${activityId}/timeslots`, { From: today, To: addDays(today, STRIP_DAYS - 1) }, signal)
        : Promise.resolve([]),
    [activityId, today],
  );
  const day = useLoad(
    (signal) =>
      activityId && date
        ? api.get<Timeslot[]>(`/api/v2/admin/activities/${activityId}/timeslots`, { From: date, To: date }, signal)
        : Promise.resolve([]),
    [activityId, date],
  );
  const seatsByDate = useMemo(() => {
    const map = new Map<string, { slots: number; available: number }>();
    for (const slot of strip.data ?? []) {
      const entry = map.get(slot.Date) ?? { slots: 0, available: 0 };
      entry.slots += 1;
      entry.available += slot.Available;
      map.set(slot.Date, entry);
    }
    return map;
  }, [strip.data]);

  const slots = day.data ?? [];
  const slot = slots.find((s) => s.Time === time);
  useEffect(() => {
    if (day.data && time && !day.data.some((s) => s.Time === time)) setTime('');
  }, [day.data, time]);
  const maxParticipants = Math.max(1, Math.min(activity?.MaxParticipantsPerBooking ?? 1, slot?.Available ?? 1));

  const fieldError = (field: string) => error?.fieldError(field);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!activity || !slot) {
      setError(new ApiError(0, 'Choose a timeslot', 'Pick the activity, the day and one of its timeslots with seats left.'));
      return;
    }
    setBusy(true);
    setError(undefined);
    setSentTypes(mix.lines.map((line) => line.type.Type));
    try {
      const booking = await api.post<Booking>('/api/v2/admin/bookings', {
        ActivityID: activity.ActivityID,
        Date: slot.Date,
        Time: slot.Time,
        ...(mixed ? { Tickets: mix.lines.map((line) => ({ Type: line.type.Type, Quantity: line.quantity })) } : { Participants: participants }),
        Customer: walkInCustomer(customer),
        ...(paymentReference.trim() ? { PaymentReference: paymentReference.trim() } : {}),
        Payment: {
          Method: payMethod,
          ...(payMethod !== 'unpaid' && payAmount.trim() ? { Amount: payAmount.trim() } : {}),
          ...(payMethod !== 'unpaid' && payReference.trim() ? { Reference: payReference.trim() } : {}),
        },
      });
      toast(`Booked ${booking.BookingReference}: ${booking.Participants} ${booking.Participants === 1 ? 'guest' : 'guests'} for ${activity.Name}.`);
      navigate(`/bookings/${booking.BookingReference}`);
    } catch (caught) {
      const e = caught as ApiError;
      setError(e.status === 409 ? new ApiError(409, 'Not enough seats left', `${e.detail} Choose another timeslot or fewer participants.`) : e);
      if (e.status === 409) {
        day.reload();
        strip.reload();
      }
    } finally {
      setBusy(false);
    }
  }

  if (loaded && open.length === 0) {
    return (
      <div className="page">
        <PageHeader title="New point-of-sale booking" />
        <EmptyState
          icon="activities"
          title="No activities to book"
          action={
            <Link href="/activities" className="btn btn-primary">
              Create an activity
            </Link>
          }
        >
          Create an activity and its timeslots first.
        </EmptyState>
      </div>
    );
  }

  return (
    <div className="page">
      <Link href="/bookings" className="back-link">
        <Icon name="left" size={16} />
        All bookings
      </Link>
      <PageHeader title="New point-of-sale booking" description="For guests at your desk or on the phone. The seats are taken at once." />
      <form className="pos-form" onSubmit={submit} noValidate>
        <Card title="1. Activity and time">
          <SelectField
            label="Activity"
            value={activityId}
            onChange={(event) => {
              setActivityId(event.target.value);
              setTime('');
            }}
          >
            {open.map((a) => (
              <option key={a.ActivityID} value={a.ActivityID}>
                {a.Name}
              </option>
            ))}
          </SelectField>

          <fieldset className="fieldset">
            <legend>Day</legend>
            <div className="day-strip" role="group" aria-label={`Next ${STRIP_DAYS} days`}>
              {Array.from({ length: STRIP_DAYS }, (_, i) => addDays(today, i)).map((d) => {
                const seats = seatsByDate.get(d);
                const weekdayName = new Date(`${d}T00:00:00Z`).toLocaleDateString(undefined, { weekday: 'short', timeZone: 'UTC' });
                return (
                  <button
                    type="button"
                    key={d}
                    className={`day ${d === date ? 'day-active' : ''} ${!seats || seats.available === 0 ? 'day-empty' : ''}`}
                    aria-pressed={d === date}
                    onClick={() => setDate(d)}
                  >
                    {/* The visible text stays part of the button's name (WCAG 2.5.3); the rest is read out only. */}
                    <span className="day-name">{weekdayName}</span>
                    <span className="day-num">{Number(d.slice(8))}</span>
                    <span className="day-seats">{seats ? seats.available : '–'}</span>
                    <span className="visually-hidden">{`${formatDate(d)}: ${seats ? `${seats.available} seats left` : 'no timeslots'}`}</span>
                  </button>
                );
              })}
            </div>
            <TextField label="Or another date" type="date" value={date} onChange={(event) => setDate(event.target.value)} className="field-inline" />
          </fieldset>

          <fieldset className="fieldset">
            <legend>Timeslot on {date ? formatDate(date) : '…'}</legend>
            {day.loading && !day.data ? (
              <Spinner label="Loading timeslots" />
            ) : slots.length === 0 ? (
              <p className="muted">No timeslots on this day. {activity && <Link href={`/activities/${activity.ActivityID}`}>Add timeslots</Link>}</p>
            ) : (
              <div className="slot-grid" role="radiogroup" aria-label="Timeslot">
                {slots.map((s) => {
                  const full = s.Available === 0;
                  const ratio = s.Capacity > 0 ? s.Booked / s.Capacity : 1;
                  return (
                    <label key={s.ID} className={`slot ${s.Time === time ? 'slot-active' : ''} ${full ? 'slot-full' : ''}`}>
                      <input type="radio" name="timeslot" value={s.Time} checked={s.Time === time} disabled={full} onChange={() => setTime(s.Time)} />
                      <span className="slot-time">
                        {s.Time}–{s.EndTime}
                      </span>
                      <span className="slot-seats">
                        {full ? (s.Free > 0 ? 'Started' : 'Sold out') : `${s.Available} of ${s.Capacity} seats left`}
                      </span>
                      <span className="meter" aria-hidden="true">
                        <span style={{ width: `${Math.min(100, ratio * 100)}%` }} />
                      </span>
                    </label>
                  );
                })}
              </div>
            )}
          </fieldset>
          {slot && (
            <div className="seats-callout" aria-live="polite">
              <strong>{slot.Available}</strong> of {slot.Capacity} seats left at {slot.Time}
              {seats <= slot.Available && <> · {slot.Available - seats} after this booking</>}
            </div>
          )}
        </Card>

        <Card title="2. Guests">
          <div className="form-grid">
            {mixed && activity ? (
              <TicketQuantities
                types={types}
                currency={activity.Currency}
                quantities={quantities}
                onChange={(type, quantity) => {
                  setQuantities({ ...quantities, [type]: quantity });
                  // A refusal of the mix no longer applies to a changed one.
                  if (error?.errors.some((e) => e.field.startsWith('Tickets'))) setError(undefined);
                }}
                errorOf={(type) => {
                  const index = sentTypes.indexOf(type);
                  return index < 0 ? undefined : (fieldError(`Tickets[${index}].Quantity`) ?? fieldError(`Tickets[${index}].Type`));
                }}
                summaryError={fieldError('Tickets')}
                total={mix.total}
              />
            ) : (
              <>
                <TextField
                  label="Participants"
                  type="number"
                  min={1}
                  max={maxParticipants}
                  value={participants}
                  onChange={(event) => setParticipants(Math.max(1, Number(event.target.value) || 1))}
                  error={fieldError('Participants')}
                  hint={
                    activity
                      ? `At most ${Math.min(activity.MaxParticipantsPerBooking, slot?.Available ?? activity.MaxParticipantsPerBooking)} for this timeslot`
                      : undefined
                  }
                />
                <div className="total">
                  <span className="muted">Total</span>
                  <strong>{activity ? formatMoney(activity.UnitPrice * participants, activity.Currency) : '–'}</strong>
                </div>
              </>
            )}
            <TextField
              label="First name"
              autoComplete="off"
              required
              value={customer.FirstName}
              onChange={(e) => setCustomer({ ...customer, FirstName: e.target.value })}
              error={fieldError('Customer.FirstName')}
            />
            <TextField
              label="Last name"
              hint="Optional"
              autoComplete="off"
              value={customer.LastName}
              onChange={(e) => setCustomer({ ...customer, LastName: e.target.value })}
              error={fieldError('Customer.LastName')}
            />
            <TextField
              label="E-mail"
              type="email"
              autoComplete="off"
              hint="Optional: without it the guest gets no confirmation or reminder"
              value={customer.Email}
              onChange={(e) => setCustomer({ ...customer, Email: e.target.value })}
              error={fieldError('Customer.Email')}
            />
            <TextField
              label="Phone"
              type="tel"
              autoComplete="off"
              placeholder="+4930123456"
              value={customer.Phone}
              onChange={(e) => setCustomer({ ...customer, Phone: e.target.value })}
              error={fieldError('Customer.Phone')}
              hint="Optional; international format, starting with +"
            />
            <TextField
              label="Payment reference (optional)"
              value={paymentReference}
              onChange={(e) => setPaymentReference(e.target.value)}
              error={fieldError('PaymentReference')}
              hint="Your own reference for the booking (a till number)"
              className="span-2"
            />
            <SelectField label="Paid at the desk" value={payMethod} onChange={(e) => setPayMethod(e.target.value as typeof payMethod)}>
              <option value="unpaid">Not yet (due at check-in)</option>
              <option value="cash">Cash</option>
              <option value="card_terminal">Card terminal</option>
              <option value="voucher">Voucher</option>
              <option value="invoice">Invoice (owed until paid)</option>
            </SelectField>
            {payMethod !== 'unpaid' && (
              <>
                <TextField
                  label={`Amount${activity ? ` (${activity.Currency})` : ''}`}
                  inputMode="decimal"
                  value={payAmount}
                  onChange={(e) => setPayAmount(e.target.value)}
                  error={fieldError('Payment.Amount')}
                  hint="Empty: the whole price"
                />
                <TextField
                  label={
                    payMethod === 'voucher'
                      ? 'Voucher code'
                      : payMethod === 'invoice'
                        ? 'Invoice number'
                        : payMethod === 'card_terminal'
                          ? 'Receipt number'
                          : 'Receipt (optional)'
                  }
                  value={payReference}
                  onChange={(e) => setPayReference(e.target.value)}
                  error={fieldError('Payment.Reference')}
                />
              </>
            )}
          </div>
        </Card>
        <ErrorBanner error={error && error.errors.length <= 1 && error.errors.some((e) => fieldError(e.field)) ? undefined : error} />
        <div className="form-actions">
          <Link href="/bookings" className="btn btn-secondary">
            Cancel
          </Link>
          <button type="submit" className="btn btn-primary" disabled={busy || !slot || (mixed && mix.tickets === 0)}>
            {busy
              ? 'Booking…'
              : !slot
                ? 'Choose a timeslot'
                : mixed
                  ? `Book ${mix.tickets} ${mix.tickets === 1 ? 'ticket' : 'tickets'} at ${slot.Time}`
                  : `Book ${participants} ${participants === 1 ? 'seat' : 'seats'} at ${slot.Time}`}
          </button>
        </div>
      </form>
    </div>
  );
}

/** A quantity of each ticket type, with its price and the line's amount; the total below. */
function TicketQuantities({
  types,
  currency,
  quantities,
  onChange,
  errorOf,
  summaryError,
  total,
}: {
  types: TicketType[];
  currency: string;
  quantities: Record<string, number>;
  onChange: (type: string, quantity: number) => void;
  errorOf: (type: string) => string | undefined;
  summaryError: string | undefined;
  total: number;
}) {
  return (
    <fieldset className="fieldset span-2 ticket-mix">
      <legend>Tickets</legend>
      <div className="table-wrap">
        <table className="table ticket-table">
          <thead>
            <tr>
              <th scope="col">Ticket</th>
              <th scope="col" className="num">
                Price
              </th>
              <th scope="col">Quantity</th>
              <th scope="col" className="num">
                Amount
              </th>
            </tr>
          </thead>
          <tbody>
            {types.map((type) => {
              const quantity = quantities[type.Type] ?? 0;
              const notes = [
                type.TakesSeat ? '' : 'no seat',
                type.Requires ? `with ${types.find((t) => t.Type === type.Requires)?.Name ?? type.Requires}` : '',
                type.People > 1 ? `admits ${type.People}` : '',
              ]
                .filter(Boolean)
                .join(', ');
              return (
                <tr key={type.Type} data-ticket-type={type.Type}>
                  <th scope="row">
                    {type.Name}
                    {notes && <span className="muted small"> ({notes})</span>}
                  </th>
                  <td className="num">{formatMoney(type.Price, currency)}</td>
                  <td>
                    <TextField
                      label={type.Name}
                      className="field-compact label-hidden"
                      type="number"
                      min={0}
                      max={type.MaxPerBooking ?? 1000}
                      value={quantity}
                      onChange={(event) => onChange(type.Type, Math.max(0, Math.floor(Number(event.target.value) || 0)))}
                      error={errorOf(type.Type)}
                    />
                  </td>
                  <td className="num">{formatMoney(type.Price * quantity, currency)}</td>
                </tr>
              );
            })}
          </tbody>
          <TotalRow columns={4} amount={total} currency={currency} />
        </table>
      </div>
      {summaryError && (
        <p className="field-error" role="alert">
          {summaryError}
        </p>
      )}
    </fieldset>
  );
}

/** A walk-in needs only a first name: the fields left empty are not sent (the API stores them empty). */
function walkInCustomer(customer: { FirstName: string; LastName: string; Email: string; Phone: string }) {
  const phone = customer.Phone.replace(/[\s()-]/g, '');
  return {
    FirstName: customer.FirstName,
    ...(customer.LastName.trim() && { LastName: customer.LastName }),
    ...(customer.Email.trim() && { Email: customer.Email.trim() }),
    ...(phone && { Phone: phone }),
  };
}
