// Rows to API objects. Options and translations are JSON text in the row (the same on both dialects).
import type { AdminQuestion, Question, QuestionType, Translation } from './schemas.js';
import type { QuestionRow } from './store.js';
import { pickTranslation } from '../lib/locale.js';

export const rowOptions = (row: QuestionRow): string[] => JSON.parse(row.options) as string[];
export const rowTranslations = (row: QuestionRow): Record<string, Translation> => JSON.parse(row.translations) as Record<string, Translation>;

/** A file question, or one that asks for a file with its answer: either way the answer is a FileID. */
export const answersWithFile = (row: Pick<QuestionRow, 'type' | 'requires_file_upload'>): boolean =>
  row.type === 'file' || row.requires_file_upload === 1;

/** The partner's view: texts in `locale` (canonical tag) where the operator translated them. */
export function toQuestion(row: QuestionRow, locale?: string): Question {
  const translation = locale ? pickTranslation(rowTranslations(row), locale) : undefined;
  return {
    ID: row.id,
    Question: translation?.Question ?? row.question,
    Type: row.type as QuestionType,
    Required: row.required === 1,
    RequiresFileUpload: row.requires_file_upload === 1,
    Options: translation?.Options ?? rowOptions(row),
    Position: row.position,
  };
}

export function toAdminQuestion(row: QuestionRow): AdminQuestion {
  return { ...toQuestion(row), Translations: rowTranslations(row) };
}
