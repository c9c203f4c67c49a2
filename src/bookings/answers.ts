// A booking's waiver answers and the files they name, for staff (answer-routes.ts): the booking is found by
// its reference here, its answers are the questions domain's (questions/answers.ts, upload-store.ts).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { NotFound } from '../http/errors.js';
import { bookingAnswers } from '../questions/answers.js';
import type { BookingWaiverAnswer } from '../questions/schemas.js';
import { findAnsweredFile, type UploadRow } from '../questions/index.js';
import { findBookingId } from './store.js';

export async function listBookingAnswers(db: Kysely<Database>, operatorId: number, reference: string): Promise<BookingWaiverAnswer[]> {
  const id = await findBookingId(db, operatorId, reference);
  if (id === undefined) throw new NotFound(`No booking ${reference}`);
  return bookingAnswers(db, operatorId, { id, reference });
}

/** The file one of the booking's answers names; 404 for any other (or another operator's booking). */
export async function findAnswerFile(db: Kysely<Database>, operatorId: number, reference: string, fileId: string): Promise<UploadRow> {
  const id = await findBookingId(db, operatorId, reference);
  const file = id === undefined ? undefined : await findAnsweredFile(db, operatorId, id, fileId);
  if (!file) throw new NotFound(`Booking ${reference} has no file ${fileId}`);
  return file;
}
