// The catalog domain's face: what other folders may use of it. They import this file, never its stores.
export { findActivity, findActivityById, listActivities, lockActivity, type ActivityRow } from './store.js';
export {
  bookingTicketsOf,
  deleteBookingTickets,
  insertBookingTickets,
  listTicketTypes,
  ticketTypesByActivity,
  type BookingTicketRow,
  type TicketTypeRow,
} from './tickets/store.js';
