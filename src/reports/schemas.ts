import { Type, type Static } from '@sinclair/typebox';
import { LocalDate } from '../http/schemas.js';

/** The longest period one report covers: a year and a day, so that a season (or a leap year) fits. */
export const MAX_REPORT_DAYS = 367;

export const ReportQuery = Type.Object({
  From: Type.String({ format: 'date', description: "First activity date (YYYY-MM-DD), in each activity's own time zone" }),
  To: Type.String({ format: 'date', description: `Last activity date, inclusive; at most ${MAX_REPORT_DAYS} days after From` }),
});
export type ReportQuery = Static<typeof ReportQuery>;

const Money = Type.Object({
  Currency: Type.String({ description: 'ISO 4217' }),
  Amount: Type.Integer({ description: 'Minor units of Currency (cents), an exact sum' }),
});
const Revenue = Type.Array(Money, { description: 'One sum per currency, never converted or added across currencies; by Currency' });

const Figures = {
  Bookings: Type.Integer({ description: 'Confirmed bookings' }),
  Guests: Type.Integer({ description: 'Their participants' }),
  Revenue,
  CancelledBookings: Type.Integer({ description: 'Bookings of these dates cancelled (not in Bookings, Guests or Revenue)' }),
};

export const ReportGroup = Type.Object({
  Key: Type.String({ description: 'The date, the ActivityID or the channel' }),
  Label: Type.String({ description: "What the dashboard shows: the date, the activity's name, the channel's name" }),
  ...Figures,
});
export type ReportGroup = Static<typeof ReportGroup>;

export const ReportRow = Type.Object({
  Date: LocalDate,
  ActivityID: Type.String(),
  Activity: Type.String(),
  Channel: Type.String({ description: 'online, pos, or partner:<name> for a marketplace' }),
  ChannelName: Type.String({ description: "Online shop, Point of sale, or the marketplace's name" }),
  Currency: Type.String(),
  Bookings: Type.Integer(),
  Guests: Type.Integer(),
  Revenue: Type.Integer({ description: 'Minor units of Currency' }),
  CancelledBookings: Type.Integer(),
});
export type ReportRow = Static<typeof ReportRow>;

export const BookingReport = Type.Object(
  {
    From: LocalDate,
    To: LocalDate,
    Totals: Type.Object(Figures),
    ByDay: Type.Array(ReportGroup, { description: 'Every date of the period, also those without bookings, in order' }),
    ByActivity: Type.Array(ReportGroup, { description: 'Most bookings first' }),
    ByChannel: Type.Array(ReportGroup, { description: 'Most bookings first' }),
    Rows: Type.Array(ReportRow, { description: 'The finest grain: date, activity, channel and currency (what the CSV export has)' }),
  },
  { $id: 'BookingReport' },
);
export type BookingReport = Static<typeof BookingReport>;
