// A booking's waiver answers as the operator reads them: each with its question, and a file answer with
// the file's type, size and the address to download it from (bookings/answer-routes.ts, which finds the
// booking by its reference first).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { answersWithFile } from './view.js';
import type { BookingWaiverAnswer } from './schemas.js';
import { answersWithQuestions } from './store.js';
import { findUploadSummaries } from './upload-store.js';

export async function bookingAnswers(
  db: Kysely<Database>,
  operatorId: number,
  booking: { id: number; reference: string },
): Promise<BookingWaiverAnswer[]> {
  const rows = await answersWithQuestions(db, booking.id);
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
            Download: `/api/v2/admin/bookings/${booking.reference}/files/${file.public_id}`,
          }
        : null,
    };
  });
}
