// Moving a booking to another time of its activity from its page: pick a date, then one of that day's
// timeslots with room (the admin timeslots list), and the booking moves (POST .../reschedule): same
// reference, tickets, price, answers and check-in; the seats move at once. docs/bookings.md.
import { useId, useState } from 'react';
import { api, type ApiError, type AdminBooking, type Timeslot } from '../api';
import { formatDate } from '../format';
import { Dialog, ErrorBanner, Spinner, TextField, useLoad, useToast } from '../ui';

export function RescheduleButton({ booking, onMoved }: { booking: AdminBooking; onMoved: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="btn btn-secondary" onClick={() => setOpen(true)}>
        Reschedule
      </button>
      <RescheduleDialog
        booking={booking}
        open={open}
        onClose={() => setOpen(false)}
        onMoved={() => {
          setOpen(false);
          onMoved();
        }}
      />
    </>
  );
}

function RescheduleDialog({ booking, open, onClose, onMoved }: { booking: AdminBooking; open: boolean; onClose: () => void; onMoved: () => void }) {
  const toast = useToast();
  const name = useId();
  const [date, setDate] = useState(booking.Date);
  const [time, setTime] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(date);
  const slots = useLoad(
    (signal) =>
      open && valid
        ? api.get<Timeslot[]>(`/api/v2/admin/activities/${booking.ActivityID}/timeslots`, { From: date, To: date }, signal)
        : Promise.resolve([]),
    [open, date, booking.ActivityID],
  );
  // Timeslots with room for the booking's seats; its own timeslot is where it already is. Only the answer for
  // the date now chosen: while another date loads, the last one's timeslots are not offered under it.
  const choices = (slots.loading ? [] : (slots.data ?? [])).filter(
    (slot) => slot.CancelledAt === null && slot.Available >= booking.Seats && !(date === booking.Date && slot.Time === booking.Time),
  );

  async function move() {
    if (!time) return;
    setBusy(true);
    setError(undefined);
    try {
      await api.post(`/api/v2/admin/bookings/${booking.BookingReference}/reschedule`, { Date: date, Time: time });
      toast(`Booking ${booking.BookingReference} moved to ${formatDate(date)} at ${time}.`);
      onMoved();
    } catch (caught) {
      setError(caught as ApiError);
      slots.reload();
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open={open}
      title={`Reschedule booking ${booking.BookingReference}`}
      onClose={() => {
        setError(undefined);
        onClose();
      }}
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            Keep it
          </button>
          <button type="button" className="btn btn-primary" disabled={busy || !time} onClick={move}>
            {busy ? 'Working…' : 'Move booking'}
          </button>
        </>
      }
    >
      <p>
        Now on {formatDate(booking.Date)} at {booking.Time}, {booking.Seats} {booking.Seats === 1 ? 'seat' : 'seats'}. The booking keeps its
        reference, tickets, price and answers; the guest's e-mail goes out if a workflow sends one on a move.
      </p>
      <TextField
        label="Date"
        type="date"
        value={date}
        onChange={(event) => {
          setDate(event.target.value);
          setTime(undefined);
        }}
      />
      {slots.loading ? (
        <Spinner label="Loading the timeslots" />
      ) : choices.length === 0 ? (
        <p className="muted">No other timeslot has room for {booking.Seats === 1 ? 'this seat' : `these ${booking.Seats} seats`} that day.</p>
      ) : (
        <fieldset className="fieldset">
          <legend>Timeslots with room</legend>
          <div className="checks" role="radiogroup" aria-label="Timeslots with room">
            {choices.map((slot) => (
              <div className="check" key={slot.ID}>
                <input type="radio" id={`${name}-${slot.ID}`} name={name} checked={time === slot.Time} onChange={() => setTime(slot.Time)} />
                <label htmlFor={`${name}-${slot.ID}`} className="check-label">
                  {slot.Time}–{slot.EndTime} ({slot.Available} free)
                </label>
              </div>
            ))}
          </div>
        </fieldset>
      )}
      <ErrorBanner error={error ?? slots.error} />
    </Dialog>
  );
}
