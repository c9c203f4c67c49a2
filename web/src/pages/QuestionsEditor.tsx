import { useState, type FormEvent } from 'react';
import { api, type ApiError, QUESTION_TYPES, swapPositions, type Activity, type Question, type QuestionType } from '../api';
import { Badge, Card, Checkbox, ConfirmDialog, EmptyState, ErrorBanner, Icon, SelectField, Spinner, TextArea, useLoad, useToast } from '../ui';
import { fromTranslationDrafts, toTranslationDrafts, TranslationsEditor, type TranslationDraft } from './QuestionTranslations';

const TYPE_LABELS: Record<QuestionType, string> = {
  text: 'Text',
  boolean: 'Yes / no',
  consent: 'Consent (must agree)',
  select: 'Choice from a list',
  date: 'Date',
  file: 'File upload',
  signature: 'Signature',
};

interface Draft {
  Question: string;
  Type: QuestionType;
  Required: boolean;
  RequiresFileUpload: boolean;
  Options: string;
  Translations: TranslationDraft[];
}

const emptyDraft: Draft = { Question: '', Type: 'text', Required: true, RequiresFileUpload: false, Options: '', Translations: [] };
const toDraft = (q: Question): Draft => ({
  Question: q.Question,
  Type: q.Type,
  Required: q.Required,
  RequiresFileUpload: q.RequiresFileUpload,
  Options: q.Options.join('\n'),
  Translations: toTranslationDrafts(q.Translations ?? {}),
});
const fromDraft = (d: Draft) => ({
  Question: d.Question.trim(),
  Type: d.Type,
  Required: d.Required,
  RequiresFileUpload: d.RequiresFileUpload,
  Options:
    d.Type === 'select'
      ? d.Options.split('\n')
          .map((o) => o.trim())
          .filter(Boolean)
      : [],
  Translations: fromTranslationDrafts(d.Translations, d.Type === 'select'),
});

/** The waiver questions of an activity: add, edit, reorder, delete. */
export function QuestionsEditor({ activity }: { activity: Activity }) {
  const toast = useToast();
  const path = `/api/v2/admin/activities/${activity.ActivityID}/questions`;
  const questions = useLoad((signal) => api.get<Question[]>(path, undefined, signal), [path]);
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Question>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const list = questions.data ?? [];

  async function move(index: number, by: -1 | 1) {
    setError(undefined);
    try {
      if (await swapPositions(list, index, by, '/api/v2/admin/questions')) questions.reload();
    } catch (caught) {
      setError(caught as ApiError);
    }
  }

  async function remove() {
    if (!deleting) return;
    setBusy(true);
    setError(undefined);
    try {
      await api.del(`/api/v2/admin/questions/${deleting.ID}`);
      setDeleting(undefined);
      toast('Question deleted.');
      questions.reload();
    } catch (caught) {
      setError(caught as ApiError);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card
      title="Waiver questions"
      actions={
        editing !== 'new' && (
          <button type="button" className="btn btn-primary" onClick={() => setEditing('new')}>
            <Icon name="plus" />
            Add question
          </button>
        )
      }
    >
      <p className="muted card-intro">
        Partners read these questions and send the answers with each booking. Required questions must be answered; file questions take an uploaded
        document such as a medical certificate.
      </p>
      <ErrorBanner error={questions.error ?? (deleting ? undefined : error)} onRetry={questions.error ? questions.reload : undefined} />
      {questions.loading && !questions.data && <Spinner label="Loading questions" />}
      {questions.data && list.length === 0 && editing !== 'new' && (
        <EmptyState
          icon="file"
          title="No waiver questions"
          action={
            <button type="button" className="btn btn-secondary" onClick={() => setEditing('new')}>
              Add the first question
            </button>
          }
        >
          Bookings of this activity need no waiver.
        </EmptyState>
      )}
      <ol className="question-list">
        {list.map((question, index) => (
          <li key={question.ID} className="question" data-question={question.ID}>
            {editing === question.ID ? (
              <QuestionForm
                initial={toDraft(question)}
                submitLabel="Save question"
                onCancel={() => setEditing(null)}
                onSubmit={async (draft) => {
                  await api.patch(`/api/v2/admin/questions/${question.ID}`, fromDraft(draft));
                  setEditing(null);
                  toast('Question saved.');
                  questions.reload();
                }}
              />
            ) : (
              <div className="question-row">
                <span className="question-num" aria-hidden="true">
                  {index + 1}
                </span>
                <div className="question-main">
                  <div className="question-text">{question.Question}</div>
                  <div className="question-tags">
                    <Badge tone="info">{TYPE_LABELS[question.Type]}</Badge>
                    {question.Required ? <Badge tone="warning">Required</Badge> : <Badge>Optional</Badge>}
                    {question.RequiresFileUpload && question.Type !== 'file' && (
                      <Badge tone="violet">
                        <Icon name="file" size={12} /> File upload
                      </Badge>
                    )}
                    {question.Options.length > 0 && <span className="muted small">{question.Options.join(' · ')}</span>}
                    {question.Translations && Object.keys(question.Translations).length > 0 && (
                      <span className="muted small">Translated: {Object.keys(question.Translations).join(', ')}</span>
                    )}
                  </div>
                </div>
                <div className="question-actions">
                  <button
                    type="button"
                    className="btn btn-icon btn-ghost"
                    aria-label={`Move "${question.Question}" up`}
                    disabled={index === 0}
                    onClick={() => void move(index, -1)}
                  >
                    <Icon name="up" />
                  </button>
                  <button
                    type="button"
                    className="btn btn-icon btn-ghost"
                    aria-label={`Move "${question.Question}" down`}
                    disabled={index === list.length - 1}
                    onClick={() => void move(index, 1)}
                  >
                    <Icon name="down" />
                  </button>
                  <button
                    type="button"
                    className="btn btn-icon btn-ghost"
                    aria-label={`Edit "${question.Question}"`}
                    onClick={() => setEditing(question.ID)}
                  >
                    <Icon name="edit" />
                  </button>
                  <button
                    type="button"
                    className="btn btn-icon btn-ghost btn-danger-text"
                    aria-label={`Delete "${question.Question}"`}
                    onClick={() => setDeleting(question)}
                  >
                    <Icon name="trash" />
                  </button>
                </div>
              </div>
            )}
          </li>
        ))}
        {editing === 'new' && (
          <li className="question question-new">
            <QuestionForm
              initial={emptyDraft}
              submitLabel="Add question"
              onCancel={() => setEditing(null)}
              onSubmit={async (draft) => {
                await api.post(path, fromDraft(draft));
                setEditing(null);
                toast('Question added.');
                questions.reload();
              }}
            />
          </li>
        )}
      </ol>
      <ConfirmDialog
        open={deleting !== undefined}
        title="Delete this question?"
        confirmLabel="Delete question"
        busy={busy}
        error={error}
        onConfirm={() => void remove()}
        onClose={() => {
          setDeleting(undefined);
          setError(undefined);
        }}
      >
        <p>“{deleting?.Question}” will no longer be asked. A question that bookings have answered cannot be deleted; make it optional instead.</p>
      </ConfirmDialog>
    </Card>
  );
}

function QuestionForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial: Draft;
  submitLabel: string;
  onSubmit: (draft: Draft) => Promise<void>;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await onSubmit(draft);
    } catch (caught) {
      setError(caught as ApiError);
    } finally {
      setBusy(false);
    }
  }
  const setType = (type: QuestionType) =>
    setDraft({ ...draft, Type: type, RequiresFileUpload: type === 'file' ? true : type === draft.Type ? draft.RequiresFileUpload : false });

  return (
    <form className="question-form" onSubmit={submit} noValidate>
      <TextArea
        label="Question"
        rows={2}
        autoFocus
        value={draft.Question}
        onChange={(e) => setDraft({ ...draft, Question: e.target.value })}
        error={error?.fieldError('Question')}
        placeholder="Do you have any medical conditions we should know about?"
      />
      <div className="form-grid">
        <SelectField
          label="Answer type"
          value={draft.Type}
          onChange={(e) => setType(e.target.value as QuestionType)}
          error={error?.fieldError('Type')}
        >
          {QUESTION_TYPES.map((type) => (
            <option key={type} value={type}>
              {TYPE_LABELS[type]}
            </option>
          ))}
        </SelectField>
        <div className="checks">
          <Checkbox
            label="Required"
            hint="Bookings must answer it"
            checked={draft.Required}
            onChange={(e) => setDraft({ ...draft, Required: e.target.checked })}
          />
          <Checkbox
            label="Requires a file upload"
            hint="The answer is an uploaded file (PDF, photo)"
            checked={draft.RequiresFileUpload}
            onChange={(e) => setDraft({ ...draft, RequiresFileUpload: e.target.checked })}
          />
        </div>
      </div>
      {draft.Type === 'select' && (
        <TextArea
          label="Choices, one per line"
          rows={4}
          value={draft.Options}
          onChange={(e) => setDraft({ ...draft, Options: e.target.value })}
          error={error?.fieldError('Options')}
          placeholder={'Beginner\nIntermediate\nExpert'}
        />
      )}
      <TranslationsEditor
        translations={draft.Translations}
        isSelect={draft.Type === 'select'}
        options={draft.Options.split('\n')
          .map((o) => o.trim())
          .filter(Boolean)}
        error={error}
        onChange={(translations) => {
          setDraft({ ...draft, Translations: translations });
          // The last save's complaint about a translation is stale once the translations change.
          if (error?.errors.some((e) => e.field.startsWith('Translations'))) setError(undefined);
        }}
      />
      <ErrorBanner
        error={
          error && !['Question', 'Type', 'Options'].some((f) => error.fieldError(f)) && !error.errors.some((e) => e.field.startsWith('Translations'))
            ? error
            : undefined
        }
      />
      <div className="form-actions">
        <button type="button" className="btn btn-secondary" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Saving…' : submitLabel}
        </button>
      </div>
    </form>
  );
}
