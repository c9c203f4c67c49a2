// octo/questions: the activity's waiver questions on the product's option, and their answers on the
// booking. They are the same questions and answers as the partner API's WaiverAnswers (waiver_answers),
// so the dashboard shows an OCTo booking's waiver like any other. Answers may come with the reservation,
// an update or the confirmation; each replaces an earlier answer to the same question.
import type { Kysely } from 'kysely';
import type { Tx } from '../../db/connection.js';
import type { Database } from '../../db/schema.js';
import { ValidationFailed } from '../../http/errors.js';
import { checkSomeWaiverAnswers, fileScopeOf } from '../../questions/service.js';
import { keepBookingFiles } from '../../questions/index.js';
import { listActivityQuestions, replaceWaiverAnswers, waiverAnswersOf } from '../../questions/index.js';
import { findBooking, setWaiverStatus } from '../../bookings/index.js';
import { OctoError } from '../errors.js';
import { toOctoQuestion } from '../catalog/view.js';
import type { QuestionAnswer } from './schemas.js';
import { nowMillis } from '../../lib/clock.js';

/** Every question of the activity with the booking's answer, or null. */
export async function questionAnswersOf(
  db: Kysely<Database>,
  operatorId: number,
  activityRowId: number,
  bookingId: number,
): Promise<QuestionAnswer[]> {
  const byQuestion = await waiverAnswersOf(db, bookingId);
  return (await listActivityQuestions(db, operatorId, activityRowId)).map((row) => ({
    questionId: String(row.id),
    question: toOctoQuestion(row),
    value: byQuestion.get(row.id) ?? null,
  }));
}

const answeredQuestions = async (tx: Tx, bookingId: number): Promise<number[]> => [...(await waiverAnswersOf(tx, bookingId)).keys()];

/**
 * Stores the answers given (each checked like a partner's WaiverAnswers; a wrong one is BAD_REQUEST) and
 * sets the booking's waiver complete once every required question is answered. With `requireAll` (a
 * confirmation by a reseller that speaks octo/questions), a required question left unanswered is
 * BAD_REQUEST too.
 */
export async function applyAnswers(
  tx: Tx,
  booking: { id: number; operator_id: number; partner: string | null; reference: string },
  activityRowId: number,
  given: { questionId: string; value: string }[] | undefined,
  requireAll: boolean,
): Promise<void> {
  if (given === undefined && !requireAll) return;
  const unknown = given?.find((answer) => !/^[1-9]\d{0,8}$/.test(answer.questionId));
  if (unknown) throw OctoError.badRequest(`questionAnswers: "${unknown.questionId}" is not a question of this product`);
  const answers = (given ?? []).map((answer) => ({ QuestionID: Number(answer.questionId), Answer: answer.value }));
  let checked: Awaited<ReturnType<typeof checkSomeWaiverAnswers>>;
  try {
    // An OCTo booking is a partner booking: its file answers name uploads of the reseller's marketplace.
    const files = fileScopeOf({ operatorId: booking.operator_id, source: 'partner', partner: booking.partner });
    checked = await checkSomeWaiverAnswers(tx, files, activityRowId, answers, await answeredQuestions(tx, booking.id));
  } catch (error) {
    if (!(error instanceof ValidationFailed)) throw error;
    throw OctoError.badRequest(`questionAnswers: ${(error.errors ?? []).map((e) => e.message).join('; ')}`);
  }
  if (requireAll && checked.missing.length > 0) {
    throw OctoError.badRequest(
      `Answer the required questions ${checked.missing.map((q) => `"${q.id}" (${q.question})`).join(', ')} in questionAnswers to confirm`,
    );
  }
  await replaceWaiverAnswers(tx, booking.id, checked.answers);
  // The files named are kept as the booking is now (read in this transaction: a hold may have been
  // extended since `booking` was read): for good once confirmed, until its expiry while on hold.
  const current = await findBooking(tx, booking.operator_id, booking.reference);
  const gone = current ? await keepBookingFiles(tx, current, nowMillis(), checked.fileIds) : [];
  if (gone.length > 0)
    throw OctoError.badRequest(`questionAnswers: the uploaded file ${gone.join(', ')} was deleted before this booking named it; upload it again`);
  await setWaiverStatus(tx, booking.id, checked.status);
}
