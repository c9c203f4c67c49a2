import { RowId } from '../http/schemas.js';
import { Type, type Static } from '@sinclair/typebox';

export const QUESTION_TYPES = ['text', 'boolean', 'consent', 'select', 'date', 'file', 'signature'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

export const MAX_QUESTION_LENGTH = 1000;
export const MAX_OPTION_LENGTH = 255;
export const MAX_OPTIONS = 100;

const QuestionText = Type.String({ minLength: 1, maxLength: MAX_QUESTION_LENGTH, description: 'The question as shown to the customer' });
const QuestionTypeSchema = Type.Union(
  QUESTION_TYPES.map((type) => Type.Literal(type)),
  {
    description:
      'text, boolean (answer "true"/"false"), consent (a statement the guest must agree to: only "true" is accepted), ' +
      'select (answer one of Options), date (YYYY-MM-DD), file (answer a FileID), signature',
  },
);
const Options = Type.Array(Type.String({ minLength: 1, maxLength: MAX_OPTION_LENGTH }), {
  maxItems: MAX_OPTIONS,
  description: 'The choices of a select question (required and non-empty for select, else empty)',
});
const Position = Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'Sort key; questions are listed by Position, then ID' });

export const Question = Type.Object(
  {
    ID: Type.Integer({ description: 'The QuestionID a booking answers' }),
    Question: Type.String(),
    Type: QuestionTypeSchema,
    Required: Type.Boolean({ description: 'A booking with WaiverAnswers must answer it' }),
    RequiresFileUpload: Type.Boolean({ description: 'The answer is the FileID of an upload (POST /api/v2/ota/{partner}/uploads)' }),
    Options: Type.Array(Type.String()),
    Position: Type.Integer(),
  },
  { $id: 'Question' },
);
export type Question = Static<typeof Question>;

const Translation = Type.Object({
  Question: QuestionText,
  Options: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: MAX_OPTION_LENGTH }), {
      maxItems: MAX_OPTIONS,
      description: 'Select questions only: the Options in this language, in the same order',
    }),
  ),
});
export type Translation = Static<typeof Translation>;

const Translations = Type.Record(Type.String(), Translation, {
  description: 'Texts by BCP 47 language tag, e.g. {"de": {...}, "de-CH": {...}}',
});

export const AdminQuestion = Type.Composite([Question, Type.Object({ Translations: Translations })], { $id: 'AdminQuestion' });
export type AdminQuestion = Static<typeof AdminQuestion>;

export const CreateQuestionBody = Type.Object({
  Question: QuestionText,
  Type: QuestionTypeSchema,
  Required: Type.Boolean(),
  RequiresFileUpload: Type.Optional(Type.Boolean({ description: 'Default: true for file questions, else false' })),
  Options: Type.Optional(Options),
  Position: Type.Optional(Position),
  Translations: Type.Optional(Translations),
});
export type CreateQuestionBody = Static<typeof CreateQuestionBody>;

export const UpdateQuestionBody = Type.Partial(
  Type.Object({
    Question: QuestionText,
    Type: QuestionTypeSchema,
    Required: Type.Boolean(),
    RequiresFileUpload: Type.Boolean(),
    Options: Options,
    Position: Position,
    Translations: Type.Record(Type.String(), Translation, { description: 'Replaces all translations' }),
  }),
  { minProperties: 1 },
);
export type UpdateQuestionBody = Static<typeof UpdateQuestionBody>;

export const QuestionIdParams = Type.Object({
  ID: RowId('The question ID'),
});

export const QuestionsQuery = Type.Object({
  Locale: Type.Optional(
    Type.String({ maxLength: 64, description: 'BCP 47 language tag such as en or de-CH; falls back to the language, then the default text' }),
  ),
});

export const Upload = Type.Object(
  {
    FileID: Type.String({ description: 'Answer a file question with this', examples: ['f_Q2x9TbLm4RkPz8WcN1sV7aHd'] }),
    ContentType: Type.String(),
    Size: Type.Integer({ description: 'Bytes' }),
  },
  { $id: 'Upload' },
);
export type Upload = Static<typeof Upload>;

export const FileIdParams = Type.Object({
  FileID: Type.String({ pattern: '^f_[A-Za-z0-9]{24}$', description: 'A FileID: f_ and 24 letters or digits' }),
});

export const BookingWaiverAnswer = Type.Object(
  {
    QuestionID: Type.Integer(),
    Question: Type.String({ description: "The question in the operator's default language" }),
    Type: Type.String(),
    Answer: Type.String({ description: 'As stored: a select option in the default language, a FileID for a file answer' }),
    File: Type.Union(
      [
        Type.Object({
          FileID: Type.String(),
          ContentType: Type.String({ description: "The type the file's content has" }),
          Size: Type.Integer({ description: 'Bytes' }),
          Download: Type.String({ description: 'Where staff download it (an admin key, Authorization header)' }),
        }),
        Type.Null(),
      ],
      { description: 'The uploaded file of a file answer' },
    ),
  },
  { $id: 'BookingWaiverAnswer' },
);
export type BookingWaiverAnswer = Static<typeof BookingWaiverAnswer>;
