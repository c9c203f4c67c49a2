// A waiver question's texts per language, edited inside the question form: the question (and for a
// choice question its options, in the same order) in each language the operator adds. Partners and the
// booking pages ask for a language and get these texts, else the default ones (src/questions/locale.ts).
import { useId, useState } from 'react';
import type { ApiError } from '../api';
import { Icon, TextArea, TextField } from '../ui';
import './question-translations.css';

export interface TranslationDraft {
  /** A BCP 47 tag as typed (the server stores its canonical form: de-ch becomes de-CH). */
  Tag: string;
  Question: string;
  /** One option per line; empty means "the default options". */
  Options: string;
}

const languageNames = (() => {
  try {
    return new Intl.DisplayNames(undefined, { type: 'language' });
  } catch {
    return undefined;
  }
})();

/** "German (Switzerland)" for de-CH; the tag itself when the browser does not know it. */
export function languageName(tag: string): string {
  try {
    return languageNames?.of(tag) ?? tag;
  } catch {
    return tag;
  }
}

export const toTranslationDrafts = (translations: Record<string, { Question: string; Options?: string[] }>): TranslationDraft[] =>
  Object.entries(translations).map(([Tag, t]) => ({ Tag, Question: t.Question, Options: (t.Options ?? []).join('\n') }));

export function fromTranslationDrafts(drafts: TranslationDraft[], isSelect: boolean): Record<string, { Question: string; Options?: string[] }> {
  const result: Record<string, { Question: string; Options?: string[] }> = {};
  for (const draft of drafts) {
    const options = draft.Options.split('\n')
      .map((o) => o.trim())
      .filter(Boolean);
    result[draft.Tag.trim()] = { Question: draft.Question.trim(), ...(isSelect && options.length > 0 && { Options: options }) };
  }
  return result;
}

export function TranslationsEditor({
  translations,
  isSelect,
  options,
  error,
  onChange,
}: {
  translations: TranslationDraft[];
  isSelect: boolean;
  options: string[];
  error?: ApiError;
  onChange: (translations: TranslationDraft[]) => void;
}) {
  const [tag, setTag] = useState('');
  const [tagError, setTagError] = useState<string>();
  const headingId = useId();
  const fieldError = (draft: TranslationDraft, part?: string) => error?.fieldError(`Translations.${draft.Tag.trim()}${part ? `.${part}` : ''}`);

  function add() {
    const wanted = tag.trim();
    let canonical: string;
    try {
      canonical = Intl.getCanonicalLocales(wanted)[0]!;
    } catch {
      setTagError(`“${wanted}” is not a language code such as de, fr or de-CH`);
      return;
    }
    if (translations.some((t) => t.Tag.toLowerCase() === canonical.toLowerCase())) {
      setTagError(`${languageName(canonical)} is already there`);
      return;
    }
    onChange([...translations, { Tag: canonical, Question: '', Options: '' }]);
    setTag('');
    setTagError(undefined);
  }

  const update = (index: number, changes: Partial<TranslationDraft>) =>
    onChange(translations.map((t, i) => (i === index ? { ...t, ...changes } : t)));

  return (
    <fieldset className="translations" aria-labelledby={headingId}>
      <legend id={headingId}>Translations</legend>
      <p className="muted small">Guests booking in another language see these texts; without one they see the text above.</p>
      {translations.map((draft, index) => (
        <div key={draft.Tag} className="translation" data-language={draft.Tag}>
          <div className="translation-head">
            <strong>
              {languageName(draft.Tag)} <span className="muted mono small">{draft.Tag}</span>
            </strong>
            <button
              type="button"
              className="btn btn-sm btn-ghost btn-danger-text"
              onClick={() => onChange(translations.filter((_, i) => i !== index))}
            >
              <Icon name="trash" /> Remove {languageName(draft.Tag)}
            </button>
          </div>
          {fieldError(draft) && <div className="field-error">{fieldError(draft)}</div>}
          <TextArea
            label={`Question in ${languageName(draft.Tag)}`}
            rows={2}
            value={draft.Question}
            onChange={(e) => update(index, { Question: e.target.value })}
            error={fieldError(draft, 'Question')}
          />
          {isSelect && (
            <TextArea
              label={`Choices in ${languageName(draft.Tag)}, one per line`}
              hint={`In the order of the choices above (${options.join(', ')}); leave empty to show those`}
              rows={Math.max(2, options.length)}
              value={draft.Options}
              onChange={(e) => update(index, { Options: e.target.value })}
              error={fieldError(draft, 'Options')}
            />
          )}
        </div>
      ))}
      <div className="translation-add">
        <TextField
          label="Add a language"
          placeholder="de, fr, es, de-CH…"
          value={tag}
          onChange={(e) => setTag(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              if (tag.trim()) add();
            }
          }}
          error={tagError}
        />
        <button type="button" className="btn btn-secondary" disabled={!tag.trim()} onClick={add}>
          <Icon name="plus" /> Add language
        </button>
      </div>
    </fieldset>
  );
}
