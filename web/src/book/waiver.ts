// The waiver questions of an activity as form fields, in the guest's language (the API translates them).
// A file is checked for type and size as soon as it is chosen (before anything is sent); it is uploaded
// to the basket with a progress bar when the guest adds the item.
import { upload, type Question, type UploadTarget } from './api';
import { t } from './app';
import { announce, field, h, nextId, type Field } from './dom';

const MAX_BYTES = 10 * 1024 * 1024;
const TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif', 'application/pdf'];
const EXTENSIONS = /\.(jpe?g|png|webp|heic|heif|pdf)$/i;

interface Answerer {
  question: Question;
  field: Field;
  /** The answer, '' when unanswered; a file question's is its chosen File. */
  value(): string | File | undefined;
  /** What a required question left unanswered says, when not "This field is required." */
  missing?: string;
}

export interface WaiverFields {
  element: HTMLElement | null;
  /** Checks every answer; undefined after marking the failing ones. */
  check(): boolean;
  /** Uploads the files (to the basket, or through the booking's link), then answers the WaiverAnswers. */
  answers(target: UploadTarget): Promise<{ QuestionID: number; Answer: string }[]>;
}

export function fileProblem(file: File): string | undefined {
  if (file.size > MAX_BYTES) return t.fileTooLarge;
  if (!TYPES.includes(file.type) && !EXTENSIONS.test(file.name)) return t.fileWrongType;
  return undefined;
}

function control(question: Question): Answerer {
  const label = question.Question + (question.Required ? ' *' : '');
  const required = question.Required;
  switch (question.Type) {
    case 'boolean': {
      const name = nextId('q');
      const yes = h('input', { type: 'radio', name, value: 'true', id: `${name}-yes` });
      const no = h('input', { type: 'radio', name, value: 'false', id: `${name}-no` });
      const error = h('p', { class: 'field-error', id: `${name}-error` });
      const group = h(
        'fieldset',
        { class: 'field', 'aria-describedby': `${name}-error` },
        h('legend', null, label),
        h('label', { class: 'inline' }, yes, ` ${t.yes}`),
        h('label', { class: 'inline' }, no, ` ${t.no}`),
        error,
      );
      const f: Field = {
        wrapper: group,
        setError: (message) => (
          (error.textContent = message ?? ''), message ? group.setAttribute('aria-invalid', 'true') : group.removeAttribute('aria-invalid')
        ),
      };
      return { question, field: f, value: () => (yes.checked ? 'true' : no.checked ? 'false' : '') };
    }
    case 'consent': {
      // One box to tick: the statement is agreed to, or (when required) the booking cannot go on.
      const id = nextId('q');
      const box = h('input', { type: 'checkbox', id, required, 'aria-describedby': `${id}-error` });
      const error = h('p', { class: 'field-error', id: `${id}-error` });
      const wrapper = h('div', { class: 'field consent' }, h('label', { class: 'inline', for: id }, box, ` ${label}`), error);
      const f: Field = {
        wrapper,
        setError: (message) => (
          (error.textContent = message ?? ''), message ? box.setAttribute('aria-invalid', 'true') : box.removeAttribute('aria-invalid')
        ),
      };
      return { question, field: f, value: () => (box.checked ? 'true' : ''), missing: t.consentRequired };
    }
    case 'select': {
      const select = h(
        'select',
        { required },
        h('option', { value: '' }, t.choose),
        question.Options.map((option) => h('option', { value: option }, option)),
      );
      return { question, field: field(label, select), value: () => select.value };
    }
    case 'file': {
      const input = h('input', {
        type: 'file',
        accept: 'image/jpeg,image/png,image/webp,image/heic,image/heif,application/pdf,.heic,.heif',
        required,
      });
      const f = field(label, input, t.fileHint);
      input.addEventListener('change', () => f.setError(input.files?.[0] ? fileProblem(input.files[0]) : undefined));
      return { question, field: f, value: () => input.files?.[0] ?? '' };
    }
    case 'date': {
      const input = h('input', { type: 'date', required });
      return { question, field: field(label, input), value: () => input.value };
    }
    default: {
      const input = h('input', { type: 'text', required, maxlength: '1000', autocomplete: question.Type === 'signature' ? 'name' : 'off' });
      return { question, field: field(label, input, question.Type === 'signature' ? t.signatureHint : undefined), value: () => input.value.trim() };
    }
  }
}

export function waiverFields(questions: Question[]): WaiverFields {
  const answerers = questions.map(control);
  const progress = h('div', { class: 'uploads' });
  return {
    element:
      answerers.length === 0
        ? null
        : h(
            'fieldset',
            null,
            h('legend', null, t.waiver),
            answerers.map((answerer) => answerer.field.wrapper),
            progress,
          ),
    check() {
      let ok = true;
      for (const answerer of answerers) {
        const value = answerer.value();
        const problem =
          value instanceof File ? fileProblem(value) : answerer.question.Required && !value ? (answerer.missing ?? t.required) : undefined;
        answerer.field.setError(problem);
        if (problem) ok = false;
      }
      return ok;
    },
    async answers(target) {
      const result: { QuestionID: number; Answer: string }[] = [];
      for (const answerer of answerers) {
        const value = answerer.value();
        if (value instanceof File) {
          const bar = h('progress', { max: '100', value: '0', 'aria-label': t.uploading(value.name) });
          progress.append(h('p', null, h('span', null, value.name), ' ', bar));
          announce(t.uploading(value.name));
          const fileId = await upload(target, value, (fraction) => (bar.value = Math.round(fraction * 100))).catch((error: unknown) => {
            answerer.field.setError(
              error instanceof Error && 'detail' in error ? String((error as { detail: string }).detail) || t.fileWrongType : t.fileWrongType,
            );
            throw error;
          });
          bar.value = 100;
          announce(t.uploaded(value.name));
          result.push({ QuestionID: answerer.question.ID, Answer: fileId });
        } else if (value) {
          result.push({ QuestionID: answerer.question.ID, Answer: value });
        }
      }
      return result;
    },
  };
}
