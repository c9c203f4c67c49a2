// Waiver answers given with a booking (contract "Bookings"). Bookings call this before writing anything;
// it only reads, so it can run inside or outside the booking's transaction.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { ValidationFailed, type FieldError } from '../http/errors.js';
import { answersWithFile, rowOptions, rowTranslations } from './view.js';
import { listActivityQuestions, type QuestionRow } from './store.js';
import { findUsableFileIds, type FileScope } from './upload-store.js';
import { isCalendarDate } from '../calendar/zoned-time.js';

export const MAX_ANSWER_LENGTH = 65_536;

export interface WaiverAnswerInput {
  QuestionID: number;
  Answer: string;
}

export interface WaiverResult {
  /** `pending` when no answers were given; `complete` when given and valid (every required one answered). */
  status: 'pending' | 'complete';
  /** The answers to store, a select's answer in the operator's default language. */
  answers: { questionId: number; answer: string }[];
  /** The FileIDs the file answers name: the booking attaches them, so that they are kept. */
  fileIds: string[];
}

/**
 * The waiver is missing when no answers were given (pending) and the activity asks a required question:
 * the manifest says so and check-in asks staff to confirm. A pending booking of an activity without
 * required questions has nothing missing. `asking`: timeslotsAskingRequired of the bookings' timeslots.
 */
export const waiverMissing = (booking: { waiver_status: string; timeslot_id: number }, asking: Set<number>): boolean =>
  booking.waiver_status !== 'complete' && asking.has(Number(booking.timeslot_id));

/** Whose uploads a booking may name, by where it comes from (a partner, a shop basket, the point of sale). */
export function fileScopeOf(origin: { operatorId: number; source: string; partner: string | null; basketId?: number }): FileScope {
  if (origin.basketId !== undefined) return { operatorId: origin.operatorId, by: 'basket', basketId: origin.basketId };
  if (origin.source === 'partner' && origin.partner !== null) return { operatorId: origin.operatorId, by: 'partner', partner: origin.partner };
  return { operatorId: origin.operatorId, by: 'operator' };
}

const UPLOAD_ROUTE: Record<FileScope['by'], string> = {
  partner: 'POST /api/v2/ota/{partner}/uploads with a key of this marketplace',
  basket: 'POST /api/v2/shop/{OperatorID}/baskets/{BasketToken}/uploads to this basket',
  booking: "POST /api/v2/shop/{OperatorID}/bookings/{ManageToken}/uploads through this booking's link",
  operator: 'POST /api/v2/ota/{partner}/uploads with one of your keys',
};

/**
 * Checks a booking's WaiverAnswers against the activity's questions. Every failing answer is reported
 * (fields `WaiverAnswers[i].QuestionID` / `WaiverAnswers[i].Answer`), and missing required questions
 * under `WaiverAnswers`.
 */
export async function validateWaiverAnswers(
  db: Kysely<Database>,
  files: FileScope,
  activityRowId: number,
  answers: WaiverAnswerInput[] | undefined,
): Promise<WaiverResult> {
  if (answers === undefined) return { status: 'pending', answers: [], fileIds: [] };
  return checkWaiverAnswers(db, files, activityRowId, answers, { requireAll: true });
}

/**
 * Answers given piecemeal (OCTo sends them with the reservation, an update or the confirmation): each
 * given answer is checked as validateWaiverAnswers checks it, but questions left out are no error.
 * `status` says whether `answered` (the questions answered before) and these cover every required one.
 */
export async function checkSomeWaiverAnswers(
  db: Kysely<Database>,
  files: FileScope,
  activityRowId: number,
  answers: WaiverAnswerInput[],
  answered: number[],
): Promise<WaiverResult & { missing: QuestionRow[] }> {
  const checked = await checkWaiverAnswers(db, files, activityRowId, answers, { requireAll: false });
  const done = new Set([...answered, ...checked.answers.map((a) => a.questionId)]);
  const missing = (await listActivityQuestions(db, files.operatorId, activityRowId)).filter((q) => q.required === 1 && !done.has(q.id));
  return { ...checked, status: missing.length === 0 && done.size > 0 ? 'complete' : 'pending', missing };
}

async function checkWaiverAnswers(
  db: Kysely<Database>,
  files: FileScope,
  activityRowId: number,
  answers: WaiverAnswerInput[],
  options: { requireAll: boolean },
): Promise<WaiverResult> {
  const questions = new Map((await listActivityQuestions(db, files.operatorId, activityRowId)).map((row) => [row.id, row]));
  const fileAnswers = answers.filter((a) => questions.has(a.QuestionID) && answersWithFile(questions.get(a.QuestionID)!));
  const usable = await findUsableFileIds(db, files, [...new Set(fileAnswers.map((a) => a.Answer.trim()))]);
  const fileIds = new Set<string>();

  const errors: FieldError[] = [];
  const accepted: WaiverResult['answers'] = [];
  const answered = new Set<number>();
  answers.forEach((given, i) => {
    const question = questions.get(given.QuestionID);
    if (!question) {
      errors.push({ field: `WaiverAnswers[${i}].QuestionID`, message: `Question ${given.QuestionID} is not a question of this activity` });
      return;
    }
    if (answered.has(question.id)) {
      errors.push({ field: `WaiverAnswers[${i}].QuestionID`, message: `Question ${question.id} is answered more than once` });
      return;
    }
    answered.add(question.id);
    const checked = checkAnswer(question, given.Answer, usable, UPLOAD_ROUTE[files.by]);
    if ('problem' in checked) {
      errors.push({ field: `WaiverAnswers[${i}].Answer`, message: checked.problem });
      return;
    }
    accepted.push({ questionId: question.id, answer: checked.answer });
    if (answersWithFile(question)) fileIds.add(checked.answer);
  });

  const missing = options.requireAll ? [...questions.values()].filter((q) => q.required === 1 && !answered.has(q.id)) : [];
  if (missing.length > 0) {
    const names = missing.map((q) => `${q.id} ("${q.question}")`).join(', ');
    errors.push({ field: 'WaiverAnswers', message: `Required question${missing.length > 1 ? 's' : ''} ${names} not answered` });
  }
  if (errors.length > 0) throw new ValidationFailed(errors);
  return { status: 'complete', answers: accepted, fileIds: [...fileIds] };
}

function checkAnswer(question: QuestionRow, raw: string, usableFiles: Set<string>, uploadRoute: string): { answer: string } | { problem: string } {
  const answer = raw.trim();
  const label = `The answer to question ${question.id}`;
  if (answer === '') return { problem: `${label} must not be empty` };
  if (answer.length > MAX_ANSWER_LENGTH) return { problem: `${label} must be at most ${MAX_ANSWER_LENGTH} characters` };
  if (answersWithFile(question)) {
    return usableFiles.has(answer) ? { answer } : { problem: `${label} must be the FileID of a file uploaded with ${uploadRoute}` };
  }
  switch (question.type) {
    case 'boolean':
      return answer === 'true' || answer === 'false' ? { answer } : { problem: `${label} must be "true" or "false"` };
    // A consent is agreed to or the booking is not made: "false" (or anything else) is no consent.
    case 'consent':
      return answer === 'true' ? { answer } : { problem: `${label} must be "true": the guest must agree to "${question.question}" to book` };
    case 'date':
      return isCalendarDate(answer) ? { answer } : { problem: `${label} must be a date, YYYY-MM-DD` };
    case 'select': {
      const chosen = selectOption(question, answer);
      return chosen !== undefined
        ? { answer: chosen }
        : {
            problem: `${label} must be one of ${rowOptions(question)
              .map((o) => `"${o}"`)
              .join(', ')}`,
          };
    }
    default:
      return { answer };
  }
}

/**
 * A select answer may be an option in the default language or in any translation (partners show the
 * translated options); it is stored as the default-language option at the same position, so that the
 * operator reads every booking's answers in one language.
 */
function selectOption(question: QuestionRow, answer: string): string | undefined {
  const options = rowOptions(question);
  if (options.includes(answer)) return answer;
  for (const translation of Object.values(rowTranslations(question))) {
    const index = translation.Options?.indexOf(answer) ?? -1;
    if (index >= 0) return options[index];
  }
  return undefined;
}
