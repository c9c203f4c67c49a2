// A booking's waiver answers as the operator reads them: each with its question, and a file answer with
// the file's type, size and the address to download it from (answer-routes.ts).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { NotFound } from '../http/errors.js';
import { answersWithFile } from './view.js';
import type { BookingWaiverAnswer } from './schemas.js';
import { findUploadSummaries } from './upload-store.js';

export async function listBookingAnswers(db: Kysely<Database>, operatorId: number, reference: string): Promise<BookingWaiverAnswer[]> {
  const booking = await db
    .selectFrom('bookings')
    .select('id')
    .where('operator_id', '=', operatorId)
    .where('reference', '=', reference)
    .executeTakeFirst();
  if (!booking) throw new NotFound(`No booking ${reference}`);
  const rows = await db
    .selectFrom('waiver_answers')
    .innerJoin('questions', 'questions.id', 'waiver_answers.question_id')
    .selectAll('questions')
    .select('waiver_answers.answer')
    .where('waiver_answers.booking_id', '=', booking.id)
    .orderBy('questions.position')
    .orderBy('questions.id')
    .execute();
  const fileIds = rows.filter((row) => answersWithFile(row)).map((row) => row.answer);
  const files = new Map((await findUploadSummaries(db, operatorId, fileIds)).map((file) => [file.public_id, file]));
  return rows.map((row) => {
    const file = answersWithFile(row) ? files.get(row.answer) : undefined;
    return {
      QuestionID: row.id,
      Question: row.question,
      Type: row.type,
      Answer: row.answer,
      File: file
        ? {
            FileID: file.public_id,
            ContentType: file.content_type,
            Size: file.size,
            Download: `/api/v2/admin/bookings/${reference}/files/${file.public_id}`,
          }
        : null,
    };
  });
}
