// The partner API's and the desk's booking body (and the shop's item, which has its fields) as the
// domain's draft: the one place where their capitalised fields become the lifecycle's words.
import type { BookingDraft } from './lifecycle/draft.js';
import type { PosBookingBody } from './schemas.js';

/** The fields every source books with (PosBookingBody's, whose Customer is the loosest). */
export type BookingRequest = Omit<PosBookingBody, 'Payment'>;

export function draftOfRequest(request: BookingRequest, holdMinutes?: number): BookingDraft {
  return {
    activityId: request.ActivityID,
    date: request.Date,
    time: request.Time,
    ...(request.Tickets !== undefined && { tickets: request.Tickets.map((line) => ({ code: line.Type, quantity: line.Quantity })) }),
    ...(request.Participants !== undefined && { participants: request.Participants }),
    customer: {
      firstName: request.Customer.FirstName,
      ...(request.Customer.LastName !== undefined && { lastName: request.Customer.LastName }),
      ...(request.Customer.Email !== undefined && { email: request.Customer.Email }),
      ...(request.Customer.Phone !== undefined && { phone: request.Customer.Phone }),
    },
    ...(request.Locale !== undefined && { locale: request.Locale }),
    ...(request.PaymentReference !== undefined && { paymentReference: request.PaymentReference }),
    ...(request.WaiverAnswers !== undefined && {
      waiverAnswers: request.WaiverAnswers.map((a) => ({ questionId: a.QuestionID, answer: a.Answer })),
    }),
    ...(holdMinutes !== undefined && { holdMinutes }),
  };
}
