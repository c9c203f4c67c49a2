import { useState } from 'react';
import { api, type ApiError, swapPositions, type Activity, type AdminTicketType, ticketCategory } from '../api';
import { useActivities } from '../activities';
import { formatMoney } from '../format';
import { Badge, Card, ConfirmDialog, ErrorBanner, Icon, Spinner, useLoad, useToast } from '../ui';
import { currencyDigits } from './ActivityForm';
import { CATEGORY_LABELS, emptyDraft, fromDraft, TicketTypeForm, toDraft } from './TicketTypeForm';

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
        What a booking can buy, at what price. Capacity counts seats: a ticket that takes no seat (an infant on a lap) leaves them for others. The
        default type is what a booking of a number of participants buys; its price is the activity's price per person.
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
                    <Badge tone="info">{CATEGORY_LABELS[ticketCategory(type.Category)]}</Badge>
                    {rulesOf(type, list).map((rule) => (
                      <Badge key={rule}>{rule}</Badge>
                    ))}
                  </div>
                </div>
                <div className="question-actions">
                  {!type.Default && (
                    <button
                      type="button"
                      className="btn btn-ghost btn-small"
                      onClick={() =>
                        void run(() => api.patch(`/api/v2/admin/ticket-types/${type.ID}`, { Default: true }), `${type.Name} is now the default.`)
                      }
                    >
                      Make default
                    </button>
                  )}
                  <button
                    type="button"
                    className="btn btn-icon btn-ghost"
                    aria-label={`Move ${type.Name} up`}
                    disabled={index === 0}
                    onClick={() => void move(index, -1)}
                  >
                    <Icon name="up" />
                  </button>
                  <button
                    type="button"
                    className="btn btn-icon btn-ghost"
                    aria-label={`Move ${type.Name} down`}
                    disabled={index === list.length - 1}
                    onClick={() => void move(index, 1)}
                  >
                    <Icon name="down" />
                  </button>
                  <button type="button" className="btn btn-icon btn-ghost" aria-label={`Edit ${type.Name}`} onClick={() => setEditing(type.ID)}>
                    <Icon name="edit" />
                  </button>
                  <button
                    type="button"
                    className="btn btn-icon btn-ghost btn-danger-text"
                    aria-label={`Remove ${type.Name}`}
                    disabled={type.Default}
                    onClick={() => setRemoving(type)}
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
