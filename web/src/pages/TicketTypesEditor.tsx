import { useState, type FormEvent } from 'react';
import { api, ApiError, swapPositions, TICKET_CATEGORIES, type Activity, type AdminTicketType, type TicketCategory } from '../api';
import { useActivities } from '../activities';
import { formatMoney } from '../format';
import { Badge, Card, Checkbox, ConfirmDialog, ErrorBanner, Icon, SelectField, Spinner, TextArea, TextField, useLoad, useToast } from '../ui';
import { currencyDigits } from './ActivityForm';

const CATEGORY_LABELS: Record<TicketCategory, string> = {
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

interface Draft {
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

const emptyDraft: Draft = {
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

function toDraft(type: AdminTicketType, digits: number): Draft {
  return {
    Type: type.Type,
    Name: type.Name,
    Price: String(type.Price / 10 ** digits),
    Category: type.Category,
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
function fromDraft(draft: Draft, digits: number, creating: boolean) {
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

/** What a type's rules are, in a few words. */
function rulesOf(type: AdminTicketType, all: AdminTicketType[]): string[] {
  const rules: string[] = [];
  if (type.MinAge !== null || type.MaxAge !== null) rules.push(`ages ${type.MinAge ?? 0}–${type.MaxAge ?? '∞'}`);
  if (type.People > 1) rules.push(`admits ${type.People}`);
  if (!type.TakesSeat) rules.push('no seat');
  if (type.MinPerBooking > 0) rules.push(`at least ${type.MinPerBooking}`);
  if (type.MaxPerBooking !== null) rules.push(`at most ${type.MaxPerBooking}`);
  if (type.Requires) rules.push(`with ${all.find((other) => other.Type === type.Requires)?.Name ?? type.Requires}`);
  return rules;
}

/** The ticket types of an activity: what a booking can buy (adult, child, ...), their prices and rules. */
export function TicketTypesEditor({ activity }: { activity: Activity }) {
  const toast = useToast();
  const { reload: reloadActivities } = useActivities();
  const path = `/api/v2/admin/activities/${activity.ActivityID}/ticket-types`;
  const types = useLoad((signal) => api.get<AdminTicketType[]>(path, undefined, signal), [path]);
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const [removing, setRemoving] = useState<AdminTicketType>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const list = types.data ?? [];
  const digits = currencyDigits(activity.Currency);

  async function changed(message: string) {
    toast(message);
    types.reload();
    // The activity's product (UnitPrice, ticket types) changed with it.
    await reloadActivities();
  }

  async function run(action: () => Promise<unknown>, message: string) {
    setError(undefined);
    try {
      await action();
      await changed(message);
    } catch (caught) {
      setError(caught as ApiError);
    }
  }

  const move = (index: number, by: -1 | 1) => run(() => swapPositions(list, index, by, '/api/v2/admin/ticket-types'), 'Order saved.');

  async function remove() {
    if (!removing) return;
    setBusy(true);
    setError(undefined);
    try {
      await api.del(`/api/v2/admin/ticket-types/${removing.ID}`);
      setRemoving(undefined);
      await changed(`${removing.Name} is no longer on sale.`);
    } catch (caught) {
      setError(caught as ApiError);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card
      title="Ticket types"
      actions={
        editing !== 'new' && (
          <button type="button" className="btn btn-primary" onClick={() => setEditing('new')}>
            <Icon name="plus" />
            Add ticket type
          </button>
        )
      }
    >
      <p className="muted card-intro">
        What a booking can buy, at what price. Capacity counts seats: a ticket that takes no seat (an infant on a lap) leaves them for others. The default type is what a
        booking of a number of participants buys; its price is the activity's price per person.
      </p>
      <ErrorBanner error={types.error ?? (removing ? undefined : error)} onRetry={types.error ? types.reload : undefined} />
      {types.loading && !types.data && <Spinner label="Loading ticket types" />}
      <ol className="question-list ticket-types">
        {list.map((type, index) => (
          <li key={type.ID} className="question" data-ticket-type={type.Type}>
            {editing === type.ID ? (
              <TicketTypeForm
                initial={toDraft(type, digits)}
                others={list.filter((other) => other.ID !== type.ID)}
                currency={activity.Currency}
                creating={false}
                submitLabel="Save ticket type"
                onCancel={() => setEditing(null)}
                onSubmit={async (draft) => {
                  await api.patch(`/api/v2/admin/ticket-types/${type.ID}`, fromDraft(draft, digits, false));
                  setEditing(null);
                  await changed(`${draft.Name.trim()} saved.`);
                }}
              />
            ) : (
              <div className="question-row">
                <div className="question-main">
                  <div className="question-text">
                    <strong>{type.Name}</strong> <span className="muted mono small">{type.Type}</span>
                  </div>
                  <div className="question-tags">
                    <span className="ticket-price">{formatMoney(type.Price, activity.Currency)}</span>
                    {type.Default && <Badge tone="success">Default</Badge>}
                    <Badge tone="info">{CATEGORY_LABELS[type.Category]}</Badge>
                    {rulesOf(type, list).map((rule) => (
                      <Badge key={rule}>{rule}</Badge>
                    ))}
                  </div>
                </div>
                <div className="question-actions">
                  {!type.Default && (
                    <button type="button" className="btn btn-ghost btn-small" onClick={() => void run(() => api.patch(`/api/v2/admin/ticket-types/${type.ID}`, { Default: true }), `${type.Name} is now the default.`)}>
                      Make default
                    </button>
                  )}
                  <button type="button" className="btn btn-icon btn-ghost" aria-label={`Move ${type.Name} up`} disabled={index === 0} onClick={() => void move(index, -1)}>
                    <Icon name="up" />
                  </button>
                  <button type="button" className="btn btn-icon btn-ghost" aria-label={`Move ${type.Name} down`} disabled={index === list.length - 1} onClick={() => void move(index, 1)}>
                    <Icon name="down" />
                  </button>
                  <button type="button" className="btn btn-icon btn-ghost" aria-label={`Edit ${type.Name}`} onClick={() => setEditing(type.ID)}>
                    <Icon name="edit" />
                  </button>
                  <button type="button" className="btn btn-icon btn-ghost btn-danger-text" aria-label={`Remove ${type.Name}`} disabled={type.Default} onClick={() => setRemoving(type)}>
                    <Icon name="trash" />
                  </button>
                </div>
              </div>
            )}
          </li>
        ))}
        {editing === 'new' && (
          <li className="question question-new">
            <TicketTypeForm
              initial={emptyDraft}
              others={list}
              currency={activity.Currency}
              creating
              submitLabel="Add ticket type"
              onCancel={() => setEditing(null)}
              onSubmit={async (draft) => {
                await api.post(path, fromDraft(draft, digits, true));
                setEditing(null);
                await changed(`${draft.Name.trim()} added.`);
              }}
            />
          </li>
        )}
      </ol>
      <ConfirmDialog
        open={removing !== undefined}
        title={`Take ${removing?.Name ?? 'this type'} off sale?`}
        confirmLabel="Remove ticket type"
        busy={busy}
        error={error}
        onConfirm={() => void remove()}
        onClose={() => {
          setRemoving(undefined);
          setError(undefined);
        }}
      >
        <p>New bookings can no longer buy it. Bookings that have these tickets keep them, at the price they paid.</p>
      </ConfirmDialog>
    </Card>
  );
}

function TicketTypeForm({
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
    ['Type', 'Name', 'Price', 'Category', 'MinAge', 'MaxAge', 'People', 'MinPerBooking', 'MaxPerBooking', 'Requires'].includes(field) || field.startsWith('Translations');

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
        <TextField label="Ticket name" autoFocus required maxLength={100} value={draft.Name} onChange={(e) => set({ Name: e.target.value })} error={fieldError('Name')} placeholder="Child (4-14)" />
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
        <SelectField label="Kind of guest" value={draft.Category} onChange={(e) => set({ Category: e.target.value as TicketCategory })} error={fieldError('Category')}>
          {TICKET_CATEGORIES.map((category) => (
            <option key={category} value={category}>
              {CATEGORY_LABELS[category]}
            </option>
          ))}
        </SelectField>
        <div className="field-pair">
          <TextField label="Youngest age" type="number" min={0} max={150} value={draft.MinAge} onChange={(e) => set({ MinAge: e.target.value })} error={fieldError('MinAge')} />
          <TextField label="Oldest age" type="number" min={0} max={150} value={draft.MaxAge} onChange={(e) => set({ MaxAge: e.target.value })} error={fieldError('MaxAge')} />
        </div>
        <div className="field-pair">
          <TextField label="At least per booking" type="number" min={0} value={draft.MinPerBooking} onChange={(e) => set({ MinPerBooking: e.target.value })} error={fieldError('MinPerBooking')} />
          <TextField label="At most per booking" type="number" min={1} value={draft.MaxPerBooking} onChange={(e) => set({ MaxPerBooking: e.target.value })} error={fieldError('MaxPerBooking')} hint="Empty: no limit of its own" />
        </div>
        <TextField label="People per ticket" type="number" min={1} max={20} value={draft.People} onChange={(e) => set({ People: e.target.value })} error={fieldError('People')} hint="A family ticket admits several" />
        <SelectField label="Must come with" value={draft.Requires} onChange={(e) => set({ Requires: e.target.value })} error={fieldError('Requires')} hint="e.g. a child needs an adult in the same booking">
          <option value="">No other ticket</option>
          {others.map((other) => (
            <option key={other.Type} value={other.Type}>
              {other.Name}
            </option>
          ))}
        </SelectField>
        <div className="checks">
          <Checkbox label="Takes a seat" hint="Off for guests who need none, such as infants on a lap" checked={draft.TakesSeat} onChange={(e) => set({ TakesSeat: e.target.checked })} />
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
