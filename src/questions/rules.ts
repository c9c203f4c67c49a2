// The rules a question must satisfy, checked on create and on every change (against the merged result),
// reporting every failing field at once.
import { ValidationFailed, type FieldError } from '../http/errors.js';
import { canonicalLocale } from '../lib/locale.js';
import type { QuestionType, Translation } from './schemas.js';

export interface QuestionFields {
  question: string;
  type: string;
  required: boolean;
  requiresFileUpload: boolean;
  options: string[];
  /** Keyed by canonical BCP 47 tag once checked. */
  translations: Record<string, Translation>;
}

// Their answers are "true"/"false", an option or a date, so they cannot also be a FileID.
const NO_FILE_TYPES: readonly string[] = ['boolean', 'consent', 'select', 'date'] satisfies QuestionType[];

/** Returns the fields trimmed and with canonical translation tags, or throws ValidationFailed. */
export function checkQuestion(input: QuestionFields): QuestionFields {
  const errors: FieldError[] = [];
  const question = input.question.trim();
  if (question === '') errors.push({ field: 'Question', message: 'Question must not be blank' });

  const options = input.options.map((option) => option.trim());
  const isSelect = input.type === 'select';
  if (isSelect && options.length === 0) errors.push({ field: 'Options', message: 'A select question needs at least one option' });
  if (!isSelect && options.length > 0) errors.push({ field: 'Options', message: `Options are only for select questions, not ${input.type}` });
  if (options.some((option) => option === '')) errors.push({ field: 'Options', message: 'Options must not be blank' });
  else if (new Set(options).size !== options.length) errors.push({ field: 'Options', message: 'Options must be distinct' });

  if (input.requiresFileUpload && NO_FILE_TYPES.includes(input.type)) {
    errors.push({ field: 'RequiresFileUpload', message: `A ${input.type} question cannot require a file upload` });
  }
  if (!input.requiresFileUpload && input.type === 'file') {
    errors.push({ field: 'RequiresFileUpload', message: 'A file question always requires a file upload' });
  }

  const translations: Record<string, Translation> = {};
  for (const [tag, translation] of Object.entries(input.translations)) {
    const field = `Translations.${tag}`;
    const canonical = canonicalLocale(tag);
    if (canonical === undefined) {
      errors.push({ field, message: `"${tag}" is not a BCP 47 language tag such as de or de-CH` });
      continue;
    }
    if (Object.hasOwn(translations, canonical)) {
      errors.push({ field, message: `"${tag}" names the same language as another translation (${canonical})` });
      continue;
    }
    const text = translation.Question.trim();
    if (text === '') errors.push({ field: `${field}.Question`, message: 'A translated Question must not be blank' });
    const translated = translation.Options?.map((option) => option.trim());
    if (translated !== undefined && !isSelect && translated.length > 0) {
      errors.push({ field: `${field}.Options`, message: 'Options are only for select questions' });
    } else if (translated !== undefined && isSelect && translated.length !== options.length) {
      errors.push({ field: `${field}.Options`, message: `Give all ${options.length} options, in the order of Options` });
    } else if (translated?.some((option) => option === '')) {
      errors.push({ field: `${field}.Options`, message: 'Options must not be blank' });
    }
    translations[canonical] = { Question: text, ...(isSelect && translated !== undefined && { Options: translated }) };
  }

  if (errors.length > 0) throw new ValidationFailed(errors);
  return { ...input, question, options, translations };
}
