import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Tx } from '../db/connection.js';
import type { Database, QuestionTable } from '../db/schema.js';

export type QuestionRow = Selectable<QuestionTable>;
export type NewQuestionRow = Omit<Insertable<QuestionTable>, 'id'>;

/** The questions of one activity (of one operator), in the order partners show them. */
export async function listActivityQuestions(db: Kysely<Database>, operatorId: number, activityRowId: number): Promise<QuestionRow[]> {
  return db
    .selectFrom('questions')
    .selectAll()
    .where('operator_id', '=', operatorId)
    .where('activity_id', '=', activityRowId)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

export async function findQuestion(db: Kysely<Database>, operatorId: number, id: number): Promise<QuestionRow | undefined> {
  return db.selectFrom('questions').selectAll().where('id', '=', id).where('operator_id', '=', operatorId).executeTakeFirst();
}

/** The position after the activity's last question (1 for the first). */
export async function nextPosition(db: Kysely<Database>, activityRowId: number): Promise<number> {
  const row = await db
    .selectFrom('questions')
    .select((eb) => eb.fn.max('position').as('last'))
    .where('activity_id', '=', activityRowId)
    .executeTakeFirst();
  return row?.last === null || row?.last === undefined ? 1 : Number(row.last) + 1;
}

export async function insertQuestion(db: Kysely<Database>, row: NewQuestionRow): Promise<QuestionRow> {
  return db.insertInto('questions').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateQuestion(
  db: Kysely<Database>,
  id: number,
  changes: Partial<Omit<QuestionRow, 'id' | 'operator_id' | 'activity_id'>>,
): Promise<QuestionRow> {
  return db.updateTable('questions').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function questionHasAnswers(tx: Tx, id: number): Promise<boolean> {
  const row = await tx.selectFrom('waiver_answers').select('question_id').where('question_id', '=', id).limit(1).executeTakeFirst();
  return row !== undefined;
}

export async function deleteQuestion(tx: Tx, id: number): Promise<void> {
  await tx.deleteFrom('questions').where('id', '=', id).execute();
}

/** The questions of several activities of the operator, each activity's in order. */
export async function questionsByActivity(db: Kysely<Database>, operatorId: number, activityRowIds: number[]): Promise<Map<number, QuestionRow[]>> {
  const byActivity = new Map<number, QuestionRow[]>(activityRowIds.map((id) => [id, []]));
  if (activityRowIds.length === 0) return byActivity;
  const rows = await db
    .selectFrom('questions')
    .selectAll()
    .where('operator_id', '=', operatorId)
    .where('activity_id', 'in', activityRowIds)
    .orderBy('activity_id')
    .orderBy('position')
    .orderBy('id')
    .execute();
  for (const row of rows) byActivity.get(row.activity_id)?.push(row);
  return byActivity;
}

/** Those of these timeslots whose activity asks at least one required question. */
export async function timeslotsAskingRequired(db: Kysely<Database>, operatorId: number, timeslotIds: number[]): Promise<Set<number>> {
  if (timeslotIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('timeslots')
    .innerJoin('questions', 'questions.activity_id', 'timeslots.activity_id')
    .select('timeslots.id')
    .distinct()
    .where('timeslots.id', 'in', timeslotIds)
    .where('timeslots.operator_id', '=', operatorId)
    .where('questions.required', '=', 1)
    .execute();
  return new Set(rows.map((row) => Number(row.id)));
}

// ---- the answers bookings give to the questions (waiver_answers) ----

export async function insertWaiverAnswers(tx: Tx, bookingId: number, answers: { questionId: number; answer: string }[]): Promise<void> {
  if (answers.length === 0) return;
  await tx
    .insertInto('waiver_answers')
    .values(answers.map((a) => ({ booking_id: bookingId, question_id: a.questionId, answer: a.answer })))
    .execute();
}

/** The booking's waiver answers by question. */
export async function waiverAnswersOf(db: Kysely<Database>, bookingId: number): Promise<Map<number, string>> {
  const rows = await db.selectFrom('waiver_answers').select(['question_id', 'answer']).where('booking_id', '=', bookingId).execute();
  return new Map(rows.map((row) => [row.question_id, row.answer]));
}

/** Answers given after booking (OCTo): each replaces an earlier answer to its question. */
export async function replaceWaiverAnswers(tx: Tx, bookingId: number, answers: { questionId: number; answer: string }[]): Promise<void> {
  for (const { questionId, answer } of answers) {
    await tx
      .insertInto('waiver_answers')
      .values({ booking_id: bookingId, question_id: questionId, answer })
      .onConflict((oc) => oc.columns(['booking_id', 'question_id']).doUpdateSet({ answer }))
      .execute();
  }
}

/** A booking that moved to another activity answers its questions anew. */
export async function deleteWaiverAnswers(tx: Tx, bookingId: number): Promise<void> {
  await tx.deleteFrom('waiver_answers').where('booking_id', '=', bookingId).execute();
}

/** The booking's answers, each with its question, in the questions' order. */
export async function answersWithQuestions(db: Kysely<Database>, bookingId: number): Promise<(QuestionRow & { answer: string })[]> {
  return db
    .selectFrom('waiver_answers')
    .innerJoin('questions', 'questions.id', 'waiver_answers.question_id')
    .selectAll('questions')
    .select('waiver_answers.answer')
    .where('waiver_answers.booking_id', '=', bookingId)
    .orderBy('questions.position')
    .orderBy('questions.id')
    .execute();
}
