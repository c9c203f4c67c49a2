// Waiver questions: the rules behind the partner, core and operator routes. Uploads live in uploads.ts,
// answer checking (used by bookings) in waiver.ts.
import type { Kysely } from 'kysely';
import type { Db, Tx } from '../db/connection.js';
import type { Database } from '../db/schema.js';
import { Conflict, NotFound, ValidationFailed } from '../http/errors.js';
import { findActivity, type ActivityRow } from '../catalog/index.js';
import { requireActivity } from '../catalog/service.js';
import { canonicalLocale } from '../lib/locale.js';
import { audit } from '../audit/log.js';
import { rowOptions, rowTranslations, toAdminQuestion, toQuestion } from './view.js';
import { checkQuestion, type QuestionFields } from './rules.js';
import type { AdminQuestion, CreateQuestionBody, Question, UpdateQuestionBody } from './schemas.js';
import { deleteQuestion, findQuestion, insertQuestion, listActivityQuestions, nextPosition, questionHasAnswers, updateQuestion } from './store.js';

export { checkSomeWaiverAnswers, fileScopeOf, validateWaiverAnswers, type WaiverAnswerInput, type WaiverResult } from './waiver.js';

/** Partner and core paths: the live activity's questions, in `locale` where the operator translated them. */
export async function listQuestions(db: Kysely<Database>, operatorId: number, activityId: string, locale?: string): Promise<Question[]> {
  const canonical = locale === undefined ? undefined : canonicalLocale(locale);
  if (locale !== undefined && canonical === undefined) {
    throw ValidationFailed.field('Locale', `Locale must be a BCP 47 language tag such as en or de-CH; got "${locale}"`);
  }
  const activity = await requireActivity(db, operatorId, activityId);
  return (await listActivityQuestions(db, operatorId, activity.id)).map((row) => toQuestion(row, canonical));
}

/** The operator's own activity, archived or not (the operator API manages both). */
async function ownActivity(db: Kysely<Database>, operatorId: number, activityId: string): Promise<ActivityRow> {
  const activity = await findActivity(db, operatorId, activityId);
  if (!activity) throw new NotFound(`No activity ${activityId}`);
  return activity;
}

export async function listAdminQuestions(db: Kysely<Database>, operatorId: number, activityId: string): Promise<AdminQuestion[]> {
  const activity = await ownActivity(db, operatorId, activityId);
  return (await listActivityQuestions(db, operatorId, activity.id)).map(toAdminQuestion);
}

export async function createQuestion(db: Db, operatorId: number, activityId: string, body: CreateQuestionBody): Promise<AdminQuestion> {
  // In one write transaction, so that two questions created at once do not get the same default Position.
  return db.write((tx) => addQuestion(tx, operatorId, activityId, body));
}

/** createQuestion inside a caller's transaction (e.g. seeding demo data together with its activity). */
export async function addQuestion(tx: Tx, operatorId: number, activityId: string, body: CreateQuestionBody): Promise<AdminQuestion> {
  const activity = await ownActivity(tx, operatorId, activityId);
  const fields = checkQuestion({
    question: body.Question,
    type: body.Type,
    required: body.Required,
    requiresFileUpload: body.RequiresFileUpload ?? body.Type === 'file',
    options: body.Options ?? [],
    translations: body.Translations ?? {},
  });
  const row = await insertQuestion(tx, {
    operator_id: operatorId,
    activity_id: activity.id,
    ...toColumns(fields),
    position: body.Position ?? (await nextPosition(tx, activity.id)),
  });
  const question = toAdminQuestion(row);
  await audit(tx, {
    operatorId,
    action: 'question.create',
    resource: { type: 'question', id: question.ID },
    after: { ActivityID: activityId, ...question },
  });
  return question;
}

export async function changeQuestion(db: Tx, operatorId: number, id: number, body: UpdateQuestionBody): Promise<AdminQuestion> {
  const row = await findQuestion(db, operatorId, id);
  if (!row) throw new NotFound(`No question ${id}`);
  const type = body.Type ?? row.type;
  // Leaving `select` without sending Options drops the old choices rather than failing on them.
  const leavesSelect = body.Type !== undefined && type !== 'select';
  const translations = body.Translations ?? rowTranslations(row);
  const fields = checkQuestion({
    question: body.Question ?? row.question,
    type,
    required: body.Required ?? row.required === 1,
    // A new Type without RequiresFileUpload takes that type's default, as on creation.
    requiresFileUpload: body.RequiresFileUpload ?? (body.Type !== undefined ? body.Type === 'file' : row.requires_file_upload === 1),
    options: body.Options ?? (leavesSelect ? [] : rowOptions(row)),
    translations: leavesSelect && body.Translations === undefined ? withoutOptions(translations) : translations,
  });
  const updated = await updateQuestion(db, row.id, { ...toColumns(fields), ...(body.Position !== undefined && { position: body.Position }) });
  const after = toAdminQuestion(updated);
  await audit(db, { operatorId, action: 'question.update', resource: { type: 'question', id }, before: toAdminQuestion(row), after });
  return after;
}

/** A question that bookings have answered stays, so that their answers keep their question (409). */
export async function removeQuestion(db: Db, operatorId: number, id: number): Promise<void> {
  const row = await findQuestion(db.kysely, operatorId, id);
  if (!row) throw new NotFound(`No question ${id}`);
  await db.write(async (tx) => {
    if (await questionHasAnswers(tx, row.id)) {
      throw new Conflict(`Question ${id} has been answered by bookings and cannot be deleted; make it optional instead`);
    }
    await deleteQuestion(tx, row.id);
    await audit(tx, { operatorId, action: 'question.delete', resource: { type: 'question', id }, before: toAdminQuestion(row) });
  });
}

function withoutOptions(translations: QuestionFields['translations']): QuestionFields['translations'] {
  return Object.fromEntries(Object.entries(translations).map(([tag, t]) => [tag, { Question: t.Question }]));
}

function toColumns(fields: QuestionFields) {
  return {
    question: fields.question,
    type: fields.type,
    required: fields.required ? 1 : 0,
    requires_file_upload: fields.requiresFileUpload ? 1 : 0,
    options: JSON.stringify(fields.options),
    translations: JSON.stringify(fields.translations),
  };
}
