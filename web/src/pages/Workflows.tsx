// Workflows: the operator's automated e-mails. List, create, edit, enable and disable them; while editing,
// a live preview renders the draft on the server with the renderer that sends (for the newest real
// booking, or a labelled sample); each workflow's sent and failed e-mails are one click away.
import { useEffect, useRef, useState, type FormEvent, type RefObject } from 'react';
import { api, type ApiError } from '../api';
import type { Schemas } from '../api-types';
import { formatInstant } from '../format';
import { usePageTitle } from '../router';
import { useSession } from '../session';
import {
  Badge,
  Card,
  Checkbox,
  DataTable,
  EmptyState,
  ErrorBanner,
  Icon,
  PageHeader,
  SelectField,
  Spinner,
  TextArea,
  TextField,
  useLoad,
  useToast,
} from '../ui';
import './workflows.css';

export const WORKFLOW_EVENTS = ['booking-confirmed', 'booking-cancelled', 'booking-rescheduled', 'reminder', 'follow-up'] as const;
type WorkflowEvent = (typeof WORKFLOW_EVENTS)[number];
// Every placeholder the server renders, from the server's own list (a file that imports nothing).
import { PLACEHOLDERS } from '../../../src/workflows/placeholders';

type Channel = Workflow['Channels'][number];
const CHANNELS: { channel: Channel; label: string; hint: string }[] = [
  { channel: 'online', label: 'Booking pages', hint: 'The online shop and waitlist claims' },
  { channel: 'pos', label: 'Point of sale', hint: 'Bookings staff make in the dashboard' },
  { channel: 'partner', label: 'Marketplaces (partner API)', hint: 'Marketplaces often confirm their own sales' },
  { channel: 'octo', label: 'Resellers (OCTo)', hint: 'Bookings made through OCTo' },
];
const ALL_CHANNELS = CHANNELS.map((c) => c.channel);

function channelsText(channels: readonly Channel[]): string {
  if (ALL_CHANNELS.every((c) => channels.includes(c))) return 'every channel';
  return CHANNELS.filter((c) => channels.includes(c.channel))
    .map((c) => c.label)
    .join(', ');
}

const EVENT_LABELS: Record<WorkflowEvent, string> = {
  'booking-confirmed': 'When a booking is confirmed',
  'booking-cancelled': 'When a booking is cancelled',
  'booking-rescheduled': 'When a booking moves to another time',
  reminder: 'Reminder before the activity',
  'follow-up': 'Follow-up after the activity',
};

export type Workflow = Schemas['Workflow'];

type Preview = Schemas['WorkflowPreview'];

type Email = Schemas['Email'];

type Draft = Omit<Workflow, 'ID' | 'CreatedAt' | 'UpdatedAt'>;
const NEW_DRAFT: Draft = {
  Name: '',
  Event: 'booking-confirmed',
  OffsetHours: 0,
  Subject: 'Your booking {{BookingReference}}: {{ActivityName}}',
  Body: 'Hello {{FirstName}},\n\nthank you for booking {{ActivityName}} on {{Date}} at {{Time}} for {{Participants}}.\n\n{{OperatorName}}',
  PartnerBookings: true,
  Channels: ALL_CHANNELS,
  Enabled: true,
};

const scheduled = (event: WorkflowEvent) => event === 'reminder' || event === 'follow-up';

function whenText(workflow: Pick<Workflow, 'Event' | 'OffsetHours'>): string {
  if (workflow.Event === 'reminder') return `${workflow.OffsetHours} h before the start`;
  if (workflow.Event === 'follow-up') return `${workflow.OffsetHours} h after the end`;
  if (workflow.Event === 'booking-rescheduled') return 'At once, on each move';
  return workflow.Event === 'booking-confirmed' ? 'At once, on confirmation' : 'At once, on cancellation';
}

export function WorkflowsPage() {
  usePageTitle('Workflows');
  const { can } = useSession();
  const writable = can('workflows:write');
  const toast = useToast();
  const workflows = useLoad((signal) => api.get<Workflow[]>('/api/v2/admin/workflows', undefined, signal), []);
  const [editing, setEditing] = useState<Workflow | 'new'>();
  const [showing, setShowing] = useState<Workflow>();
  const [error, setError] = useState<ApiError>();

  async function toggle(workflow: Workflow) {
    setError(undefined);
    try {
      await api.patch(`/api/v2/admin/workflows/${workflow.ID}`, { Enabled: !workflow.Enabled });
      toast(workflow.Enabled ? `“${workflow.Name}” paused.` : `“${workflow.Name}” enabled.`);
      workflows.reload();
    } catch (caught) {
      setError(caught as ApiError);
    }
  }

  const list = workflows.data ?? [];
  return (
    <div className="page">
      <PageHeader
        title="Workflows"
        description="E-mails sent to your guests automatically: on confirmation, on cancellation, as a reminder before the activity or as a follow-up after it."
        actions={
          writable &&
          editing === undefined && (
            <button type="button" className="btn btn-primary" onClick={() => setEditing('new')}>
              <Icon name="plus" /> New workflow
            </button>
          )
        }
      />
      <ErrorBanner error={workflows.error ?? error} onRetry={workflows.error ? workflows.reload : undefined} />
      {editing !== undefined && (
        <WorkflowEditor
          key={editing === 'new' ? 'new' : editing.ID}
          initial={editing === 'new' ? NEW_DRAFT : editing}
          id={editing === 'new' ? undefined : editing.ID}
          onDone={(saved) => {
            setEditing(undefined);
            if (saved) {
              toast(editing === 'new' ? 'Workflow created.' : 'Workflow saved.');
              workflows.reload();
            }
          }}
        />
      )}
      <Card title="Your workflows">
        {workflows.loading && !workflows.data && <Spinner label="Loading workflows" />}
        {workflows.data && list.length === 0 && (
          <EmptyState
            icon="mail"
            title="No workflows yet"
            action={
              writable && (
                <button type="button" className="btn btn-secondary" onClick={() => setEditing('new')}>
                  Create the first workflow
                </button>
              )
            }
          >
            A confirmation e-mail and a reminder the day before are a good start.
          </EmptyState>
        )}
        {list.length > 0 && (
          <ul className="workflow-list">
            {list.map((workflow) => (
              <li key={workflow.ID} className="workflow-item" data-workflow={workflow.ID}>
                <div className="workflow-main">
                  <div className="workflow-name">
                    {workflow.Name} {workflow.Enabled ? <Badge tone="success">Enabled</Badge> : <Badge>Paused</Badge>}
                  </div>
                  <div className="muted small">
                    {EVENT_LABELS[workflow.Event]} · {whenText(workflow)}
                    {` · for ${channelsText(workflow.Channels)}`}
                  </div>
                  <div className="workflow-subject small">{workflow.Subject}</div>
                </div>
                <div className="workflow-actions">
                  <button
                    type="button"
                    className="btn btn-sm btn-secondary"
                    onClick={() => setShowing(showing?.ID === workflow.ID ? undefined : workflow)}
                    aria-expanded={showing?.ID === workflow.ID}
                  >
                    <Icon name="mail" /> E-mails
                  </button>
                  {writable && (
                    <>
                      <button type="button" className="btn btn-sm btn-secondary" onClick={() => void toggle(workflow)}>
                        {workflow.Enabled ? `Pause` : `Enable`}
                        <span className="visually-hidden"> {workflow.Name}</span>
                      </button>
                      <button
                        type="button"
                        className="btn btn-sm btn-ghost"
                        onClick={() => setEditing(workflow)}
                        aria-label={`Edit ${workflow.Name}`}
                      >
                        <Icon name="edit" /> Edit
                      </button>
                    </>
                  )}
                </div>
                {showing?.ID === workflow.ID && <WorkflowEmails workflow={workflow} />}
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}

/** Create or edit a workflow, with the live preview beside the form. */
function WorkflowEditor({ initial, id, onDone }: { initial: Draft; id?: number; onDone: (saved: boolean) => void }) {
  const [draft, setDraft] = useState<Draft>({
    Name: initial.Name,
    Event: initial.Event,
    OffsetHours: initial.OffsetHours,
    Subject: initial.Subject,
    Body: initial.Body,
    PartnerBookings: initial.PartnerBookings,
    Channels: initial.Channels,
    Enabled: initial.Enabled,
  });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  // The body's textarea, found inside its wrapper (the shared TextArea takes no ref): placeholders go in at the caret.
  const bodyRef = useRef<HTMLDivElement>(null);
  const set = (changes: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...changes }));
    // A template being edited is checked by the live preview; the last save's complaint about it is stale.
    if (changes.Subject !== undefined || changes.Body !== undefined) setError(undefined);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    // Channels says which bookings it e-mails; PartnerBookings only summarises it (the server derives it).
    const { PartnerBookings: _summary, ...fields } = draft;
    const body = { ...fields, OffsetHours: scheduled(draft.Event) ? draft.OffsetHours : 0 };
    try {
      if (id === undefined) await api.post('/api/v2/admin/workflows', body);
      else await api.patch(`/api/v2/admin/workflows/${id}`, body);
      onDone(true);
    } catch (caught) {
      setError(caught as ApiError);
    } finally {
      setBusy(false);
    }
  }

  function insert(name: string) {
    const area = bodyRef.current?.querySelector('textarea');
    const text = `{{${name}}}`;
    if (!area) return set({ Body: draft.Body + text });
    const start = area.selectionStart ?? draft.Body.length;
    const end = area.selectionEnd ?? start;
    set({ Body: draft.Body.slice(0, start) + text + draft.Body.slice(end) });
    requestAnimationFrame(() => {
      area.focus();
      area.setSelectionRange(start + text.length, start + text.length);
    });
  }

  const known = ['Name', 'Event', 'OffsetHours', 'Subject', 'Body', 'Channels'];
  return (
    <Card title={id === undefined ? 'New workflow' : `Edit “${initial.Name}”`} className="workflow-editor">
      <div className="workflow-editor-grid">
        <form onSubmit={submit} noValidate aria-label="Workflow">
          <div className="form-grid">
            <TextField
              label="Name"
              value={draft.Name}
              onChange={(e) => set({ Name: e.target.value })}
              error={error?.fieldError('Name')}
              placeholder="Booking confirmation"
              autoFocus
            />
            <SelectField
              label="Sent"
              value={draft.Event}
              onChange={(e) => {
                const next = e.target.value as WorkflowEvent;
                set({
                  Event: next,
                  OffsetHours: scheduled(next) ? Math.max(draft.OffsetHours, 24) : 0,
                });
              }}
              error={error?.fieldError('Event')}
            >
              {WORKFLOW_EVENTS.map((event) => (
                <option key={event} value={event}>
                  {EVENT_LABELS[event]}
                </option>
              ))}
            </SelectField>
            {scheduled(draft.Event) && (
              <TextField
                label={draft.Event === 'reminder' ? 'Hours before the start' : 'Hours after the end'}
                type="number"
                min={1}
                max={8760}
                inputMode="numeric"
                value={String(draft.OffsetHours)}
                onChange={(e) => set({ OffsetHours: Number(e.target.value) })}
                error={error?.fieldError('OffsetHours')}
              />
            )}
          </div>
          <TemplateFields draft={draft} set={set} error={error} bodyRef={bodyRef} />
          <div className="placeholders" role="group" aria-label="Insert a placeholder into the body">
            {PLACEHOLDERS.map((name) => (
              <button key={name} type="button" className="chip" onClick={() => insert(name)}>
                {`{{${name}}}`}
              </button>
            ))}
          </div>
          <fieldset className="fieldset checks">
            <legend>Bookings of these channels</legend>
            {CHANNELS.map(({ channel, label, hint }) => (
              <Checkbox
                key={channel}
                label={label}
                hint={hint}
                checked={draft.Channels.includes(channel)}
                onChange={(e) => set({ Channels: e.target.checked ? [...draft.Channels, channel] : draft.Channels.filter((c) => c !== channel) })}
              />
            ))}
            {error?.fieldError('Channels') && (
              <p className="field-error" role="alert">
                {error.fieldError('Channels')}
              </p>
            )}
          </fieldset>
          <div className="checks">
            <Checkbox
              label="Enabled"
              hint="Paused workflows send nothing"
              checked={draft.Enabled}
              onChange={(e) => set({ Enabled: e.target.checked })}
            />
          </div>
          <ErrorBanner error={error && !known.some((f) => error.fieldError(f)) ? error : undefined} />
          <div className="form-actions">
            <button type="button" className="btn btn-secondary" onClick={() => onDone(false)}>
              Cancel
            </button>
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {busy ? 'Saving…' : id === undefined ? 'Create workflow' : 'Save workflow'}
            </button>
          </div>
        </form>
        <LivePreview subject={draft.Subject} body={draft.Body} event={draft.Event} />
      </div>
    </Card>
  );
}

function TemplateFields({
  draft,
  set,
  error,
  bodyRef,
}: {
  draft: Draft;
  set: (c: Partial<Draft>) => void;
  error?: ApiError;
  bodyRef: RefObject<HTMLDivElement | null>;
}) {
  return (
    <>
      <TextField label="Subject" value={draft.Subject} onChange={(e) => set({ Subject: e.target.value })} error={error?.fieldError('Subject')} />
      <div ref={bodyRef}>
        <TextArea
          label="Body (plain text)"
          rows={9}
          value={draft.Body}
          onChange={(e) => set({ Body: e.target.value })}
          error={error?.fieldError('Body')}
        />
      </div>
    </>
  );
}

/**
 * The draft rendered by the server a moment after typing stops. Shown as text (never as HTML), so what a
 * guest typed into a booking appears exactly as the e-mail will carry it. Template errors appear here at once.
 */
function LivePreview({ subject, body, event }: { subject: string; body: string; event: WorkflowEvent }) {
  const [preview, setPreview] = useState<Preview>();
  const [error, setError] = useState<ApiError>();
  const [pending, setPending] = useState(true);
  useEffect(() => {
    setPending(true);
    let stale = false;
    const timer = setTimeout(() => {
      api
        .post<Preview>('/api/v2/admin/workflows/preview', { Subject: subject, Body: body, Event: event })
        .then((data) => {
          if (stale) return;
          setPreview(data);
          setError(undefined);
        })
        .catch((caught: ApiError) => {
          if (!stale) setError(caught);
        })
        .finally(() => {
          if (!stale) setPending(false);
        });
    }, 300);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [subject, body, event]);

  const problems = error?.errors.length ? error.errors : error ? [{ field: '', message: error.message }] : [];
  return (
    <section className="workflow-preview" aria-labelledby="preview-title" aria-busy={pending}>
      <h3 id="preview-title">Preview</h3>
      {problems.length > 0 ? (
        <div className="preview-errors" role="alert">
          <strong>The template cannot be rendered:</strong>
          <ul>
            {problems.map((problem) => (
              <li key={problem.field + problem.message}>
                {problem.field && <span className="mono">{problem.field}: </span>}
                {problem.message}
              </li>
            ))}
          </ul>
        </div>
      ) : preview ? (
        <>
          <p className="muted small preview-for" data-sample={preview.Sample}>
            {preview.Sample ? (
              <>
                <Badge tone="warning">Sample booking</Badge> You have no confirmed booking yet, so made-up details are shown.
              </>
            ) : (
              <>
                For your latest booking <span className="mono">{preview.BookingReference}</span>, to {preview.To}
              </>
            )}
          </p>
          <div className="preview-mail">
            <div className="preview-subject">
              <span className="muted small">Subject</span>
              <div data-testid="preview-subject">{preview.Subject}</div>
            </div>
            <pre className="email-body" data-testid="preview-body">
              {preview.Body}
            </pre>
          </div>
        </>
      ) : (
        <Spinner label="Rendering the preview" />
      )}
    </section>
  );
}

const STATUS_FILTERS = [
  { value: '', label: 'All' },
  { value: 'sent', label: 'Sent' },
  { value: 'failed', label: 'Failed' },
  { value: 'queued', label: 'Waiting' },
] as const;
const STATUS_TONES: Record<Email['Status'], string> = { sent: 'success', failed: 'danger', queued: 'info', sending: 'info', cancelled: 'neutral' };

/** The workflow's e-mails, newest first, filtered by status. */
function WorkflowEmails({ workflow }: { workflow: Workflow }) {
  const [status, setStatus] = useState('');
  const emails = useLoad(
    (signal) => api.get<Email[]>('/api/v2/admin/emails', { WorkflowID: workflow.ID, Status: status, Limit: 50 }, signal),
    [workflow.ID, status],
  );
  return (
    <div className="workflow-emails">
      <div className="presets" role="group" aria-label={`E-mails of ${workflow.Name}`}>
        {STATUS_FILTERS.map((filter) => (
          <button
            key={filter.value}
            type="button"
            className={`chip ${status === filter.value ? 'chip-active' : ''}`}
            aria-pressed={status === filter.value}
            onClick={() => setStatus(filter.value)}
          >
            {filter.label}
          </button>
        ))}
      </div>
      <ErrorBanner error={emails.error} onRetry={emails.reload} />
      {emails.loading && !emails.data && <Spinner label="Loading e-mails" />}
      <DataTable
        rows={emails.data}
        columns={['To', 'Booking', 'Status', 'When', 'Error']}
        label={`E-mails of ${workflow.Name}`}
        scrollable
        empty={<p className="muted small">No e-mails{status ? ` in this state` : ''} yet.</p>}
      >
        {(email) => (
          <tr key={email.ID}>
            <td data-label="To">{email.To}</td>
            <td data-label="Booking" className="mono">
              {email.BookingReference ?? '–'}
            </td>
            <td data-label="Status">
              <Badge tone={STATUS_TONES[email.Status]}>{email.Status}</Badge>
            </td>
            <td data-label="When">{formatInstant(email.SentAt ?? email.ScheduledFor)}</td>
            <td data-label="Error">{email.LastError ?? '–'}</td>
          </tr>
        )}
      </DataTable>
    </div>
  );
}
