import { useState, type FormEvent } from 'react';
import { type ApiError, TICKET_CATEGORIES, type AdminTicketType, type TicketCategory, ticketCategory } from '../api';
import { Checkbox, ErrorBanner, SelectField, TextArea, TextField } from '../ui';
import { currencyDigits } from './ActivityForm';

export const CATEGORY_LABELS: Record<TicketCategory, string> = {
  adult: 'Adult',
  child: 'Child',
  youth: 'Youth',
  infant: 'Infant',
  senior: 'Senior',
  student: 'Student',
  military: 'Military',
  family: 'Family',
  other: 'Other',
};

export interface Draft {
  Type: string;
  Name: string;
  Price: string;
  Category: TicketCategory;
  MinAge: string;
  MaxAge: string;
  People: string;
  TakesSeat: boolean;
  MinPerBooking: string;
  MaxPerBooking: string;
  Requires: string;
  Translations: string;
}

export const emptyDraft: Draft = {
  Type: '',
  Name: '',
  Price: '',
  Category: 'child',
  MinAge: '',
  MaxAge: '',
  People: '1',
  TakesSeat: true,
  MinPerBooking: '0',
  MaxPerBooking: '',
  Requires: '',
  Translations: '',
};

export function toDraft(type: AdminTicketType, digits: number): Draft {
  return {
    Type: type.Type,
    Name: type.Name,
    Price: String(type.Price / 10 ** digits),
    Category: ticketCategory(type.Category),
    MinAge: type.MinAge === null ? '' : String(type.MinAge),
    MaxAge: type.MaxAge === null ? '' : String(type.MaxAge),
    People: String(type.People),
    TakesSeat: type.TakesSeat,
    MinPerBooking: String(type.MinPerBooking),
    MaxPerBooking: type.MaxPerBooking === null ? '' : String(type.MaxPerBooking),
    Requires: type.Requires ?? '',
    Translations: Object.entries(type.Translations)
      .map(([tag, t]) => `${tag}: ${t.Name}`)
      .join('\n'),
  };
}

const optionalNumber = (text: string) => (text.trim() === '' ? null : Number(text));

/** The body of a create or change: every editable field (the code only on create). */
export function fromDraft(draft: Draft, digits: number, creating: boolean) {
  const translations = Object.fromEntries(
    draft.Translations.split('\n')
      .map((line) => line.split(/:(.*)/s).map((part) => part.trim()))
      .filter(([tag, name]) => tag && name)
      .map(([tag, name]) => [tag!, { Name: name! }]),
  );
  return {
    ...(creating && { Type: draft.Type.trim() }),
    Name: draft.Name.trim(),
    Price: Math.round(Number(draft.Price || 0) * 10 ** digits),
    Category: draft.Category,
    MinAge: optionalNumber(draft.MinAge),
    MaxAge: optionalNumber(draft.MaxAge),
    People: Number(draft.People || 1),
    TakesSeat: draft.TakesSeat,
    MinPerBooking: Number(draft.MinPerBooking || 0),
    MaxPerBooking: optionalNumber(draft.MaxPerBooking),
    Requires: draft.Requires || null,
    Translations: translations,
  };
}

/** Adds or edits one ticket type; the code only when it is new. */
export function TicketTypeForm({
  initial,
  others,
  currency,
  creating,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial: Draft;
  others: AdminTicketType[];
  currency: string;
  creating: boolean;
  submitLabel: string;
  onSubmit: (draft: Draft) => Promise<void>;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const digits = currencyDigits(currency);
  const set = (changes: Partial<Draft>) => setDraft({ ...draft, ...changes });
  const fieldError = (field: string) => error?.fieldError(field);
  // Fields shown next to their input; any other problem (Default, a rule of the whole set) in the banner.
  const inline = (field: string) =>
    ['Type', 'Name', 'Price', 'Category', 'MinAge', 'MaxAge', 'People', 'MinPerBooking', 'MaxPerBooking', 'Requires'].includes(field) ||
    field.startsWith('Translations');

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

  return (
    <form className="question-form" onSubmit={submit} noValidate>
      <div className="form-grid">
        <TextField
          label="Ticket name"
          autoFocus
          required
          maxLength={100}
          value={draft.Name}
          onChange={(e) => set({ Name: e.target.value })}
          error={fieldError('Name')}
          placeholder="Child (4-14)"
        />
        <TextField
          label="Code"
          required
          disabled={!creating}
          value={draft.Type}
          onChange={(e) => set({ Type: e.target.value.toLowerCase() })}
          error={fieldError('Type')}
          hint={creating ? 'Partners and resellers book by it (e.g. child); it cannot change later' : 'Partners and resellers book by it'}
          placeholder="child"
        />
        <TextField
          label={`Price (${currency})`}
          type="number"
          min={0}
          step={digits === 0 ? 1 : 1 / 10 ** digits}
          inputMode="decimal"
          required
          value={draft.Price}
          onChange={(e) => set({ Price: e.target.value })}
          error={fieldError('Price')}
        />
        <SelectField
          label="Kind of guest"
          value={draft.Category}
          onChange={(e) => set({ Category: e.target.value as TicketCategory })}
          error={fieldError('Category')}
        >
          {TICKET_CATEGORIES.map((category) => (
            <option key={category} value={category}>
              {CATEGORY_LABELS[category]}
            </option>
          ))}
        </SelectField>
        <div className="field-pair">
          <TextField
            label="Youngest age"
            type="number"
            min={0}
            max={150}
            value={draft.MinAge}
            onChange={(e) => set({ MinAge: e.target.value })}
            error={fieldError('MinAge')}
          />
          <TextField
            label="Oldest age"
            type="number"
            min={0}
            max={150}
            value={draft.MaxAge}
            onChange={(e) => set({ MaxAge: e.target.value })}
            error={fieldError('MaxAge')}
          />
        </div>
        <div className="field-pair">
          <TextField
            label="At least per booking"
            type="number"
            min={0}
            value={draft.MinPerBooking}
            onChange={(e) => set({ MinPerBooking: e.target.value })}
            error={fieldError('MinPerBooking')}
          />
          <TextField
            label="At most per booking"
            type="number"
            min={1}
            value={draft.MaxPerBooking}
            onChange={(e) => set({ MaxPerBooking: e.target.value })}
            error={fieldError('MaxPerBooking')}
            hint="Empty: no limit of its own"
          />
        </div>
        <TextField
          label="People per ticket"
          type="number"
          min={1}
          max={20}
          value={draft.People}
          onChange={(e) => set({ People: e.target.value })}
          error={fieldError('People')}
          hint="A family ticket admits several"
        />
        <SelectField
          label="Must come with"
          value={draft.Requires}
          onChange={(e) => set({ Requires: e.target.value })}
          error={fieldError('Requires')}
          hint="e.g. a child needs an adult in the same booking"
        >
          <option value="">No other ticket</option>
          {others.map((other) => (
            <option key={other.Type} value={other.Type}>
              {other.Name}
            </option>
          ))}
        </SelectField>
        <div className="checks">
          <Checkbox
            label="Takes a seat"
            hint="Off for guests who need none, such as infants on a lap"
            checked={draft.TakesSeat}
            onChange={(e) => set({ TakesSeat: e.target.checked })}
          />
        </div>
        <TextArea
          label="Translated names"
          rows={2}
          value={draft.Translations}
          onChange={(e) => set({ Translations: e.target.value })}
          error={error?.errors.find((e) => e.field.startsWith('Translations'))?.message}
          hint="One per line: language tag, colon, name (de: Kind)"
        />
      </div>
      <ErrorBanner error={error && (error.errors.length === 0 || error.errors.some((e) => !inline(e.field))) ? error : undefined} />
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
