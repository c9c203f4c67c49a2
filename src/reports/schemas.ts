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

export const PaymentReportQuery = Type.Object({
  From: Type.String({ format: 'date', description: "First payment date (YYYY-MM-DD), in each activity's own time zone" }),
  To: Type.String({ format: 'date', description: `Last payment date, inclusive; at most ${MAX_REPORT_DAYS} days after From` }),
});
export type PaymentReportQuery = Static<typeof PaymentReportQuery>;

const Sum = Type.Object({
  Currency: Type.String({ description: 'ISO 4217' }),
  Amount: Type.String({ description: 'A decimal in Currency ("135.00"; "1500" for JPY), an exact sum' }),
  AmountMinorUnits: Type.Integer({ description: 'The same in minor units of Currency' }),
});
export type Sum = Static<typeof Sum>;
const Sums = (description: string) =>
  Type.Array(Sum, { description: `${description}: one sum per currency, never converted or added across currencies; by Currency` });

const MoneyFigures = {
  Gross: Sums('Payments that took money (succeeded)'),
  Refunds: Sums('Refunds that succeeded'),
  Net: Sums('Gross less Refunds (negative on a day that refunded more than it took)'),
};

export const PaymentReportGroup = Type.Object({
  Key: Type.String({ description: 'The date, the ActivityID or the channel' }),
  Label: Type.String({ description: "What the dashboard shows: the date, the activity's name, the channel's name" }),
  ...MoneyFigures,
});
export type PaymentReportGroup = Static<typeof PaymentReportGroup>;

export const PaymentReportRow = Type.Object({
  Date: LocalDate,
  ActivityID: Type.String(),
  Activity: Type.String(),
  Channel: Type.String({ description: 'online, pos, or partner:<name> for a marketplace' }),
  ChannelName: Type.String(),
  Currency: Type.String(),
  GrossMinorUnits: Type.Integer(),
  RefundsMinorUnits: Type.Integer(),
  NetMinorUnits: Type.Integer(),
  Gross: Type.String({ description: 'GrossMinorUnits as a decimal in Currency' }),
  Refunds: Type.String(),
  Net: Type.String(),
});
export type PaymentReportRow = Static<typeof PaymentReportRow>;

export const PaymentReport = Type.Object(
  {
    From: LocalDate,
    To: LocalDate,
    Totals: Type.Object(MoneyFigures),
    ByDay: Type.Array(PaymentReportGroup, { description: 'Every date of the period, also those without payments, in order' }),
    ByActivity: Type.Array(PaymentReportGroup, { description: "By the activity's name" }),
    ByChannel: Type.Array(PaymentReportGroup, { description: "By the channel's name" }),
    Rows: Type.Array(PaymentReportRow, { description: 'The finest grain: date, activity, channel and currency (what the CSV export has)' }),
  },
  { $id: 'PaymentReport' },
);
export type PaymentReport = Static<typeof PaymentReport>;
