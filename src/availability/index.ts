// The availability domain's face: what other folders may use of it. They import this file, never its stores.
export {
  closeCancelledTimeslot,
  findTimeslotAt,
  findTimeslotById,
  findTimeslotWithActivity,
  findZonedTimeslot,
  findZonedTimeslotsById,
  lapsedHoldSeatsOf,
  listDatesWithRoom,
  listTimeslots,
  lockTimeslot,
  type LiveTimeslotRow,
  type SeatsOf,
  type TimeslotRow,
} from './store.js';
