import { Type, type Static } from '@sinclair/typebox';
import { RowId } from '../http/schemas.js';
import { PLACEHOLDERS } from './templates.js';

export const WORKFLOW_EVENTS = ['booking-confirmed', 'booking-cancelled', 'booking-rescheduled', 'reminder', 'follow-up'] as const;
export type WorkflowEvent = (typeof WORKFLOW_EVENTS)[number];

/**
 * Where a booking was made, as bookings record it: the booking pages (online, waitlist claims included),
 * point of sale (the dashboard's desk), a marketplace through the partner API, a reseller through OCTo.
 */
export const WORKFLOW_CHANNELS = ['online', 'pos', 'partner', 'octo'] as const;
export type WorkflowChannel = (typeof WORKFLOW_CHANNELS)[number];

const placeholders = PLACEHOLDERS.map((name) => `{{${name}}}`).join(', ');

const fields = {
  Name: Type.String({
    minLength: 1,
    maxLength: 100,
    pattern: '^(?=.*\\S)[^\\u0000-\\u001F\\u007F]+$',
    description: "The operator's name for the workflow",
  }),
  Event: Type.Unsafe<WorkflowEvent>({
    type: 'string',
    enum: [...WORKFLOW_EVENTS],
    description:
      'booking-confirmed, booking-cancelled and booking-rescheduled (a confirmed booking moved to another time: staff, partner, OCTo or the guest) send at once; ' +
      'reminder sends OffsetHours before the start, follow-up OffsetHours after the end',
  }),
  OffsetHours: Type.Integer({
    minimum: 0,
    maximum: 8760,
    description: 'For reminder and follow-up: hours before the start / after the end (0 for the other events)',
  }),
  Subject: Type.String({
    minLength: 1,
    maxLength: 200,
    pattern: '^[^\\u0000-\\u001F\\u007F]+$',
    description: `Subject template; placeholders: ${placeholders}`,
  }),
  Body: Type.String({
    minLength: 1,
    maxLength: 20_000,
    pattern: '^[^\\u0000]*$',
    description: `Plain-text body template; placeholders: ${placeholders}`,
  }),
  PartnerBookings: Type.Boolean({
    description:
      'Whether bookings made by partners (marketplaces: partner and octo in Channels) trigger it too; setting it adds or removes both channels. ' +
      'Default: false for booking-confirmed (the marketplace confirms its own sales), true for the other events',
  }),
  Channels: Type.Array(Type.Unsafe<WorkflowChannel>({ type: 'string', enum: [...WORKFLOW_CHANNELS] }), {
    minItems: 1,
    uniqueItems: true,
    description:
      'The channels whose bookings it e-mails: online (the booking pages), pos (point of sale), partner (marketplaces through the partner API), octo (OCTo resellers). ' +
      'Default: every channel, but online and pos only for booking-confirmed unless PartnerBookings is true',
  }),
  Enabled: Type.Boolean({ description: 'Default true' }),
};

export const CreateWorkflowBody = Type.Object({
  Name: fields.Name,
  Event: fields.Event,
  OffsetHours: Type.Optional(fields.OffsetHours),
  Subject: fields.Subject,
  Body: fields.Body,
  PartnerBookings: Type.Optional(fields.PartnerBookings),
  Channels: Type.Optional(fields.Channels),
  Enabled: Type.Optional(fields.Enabled),
});
export type CreateWorkflowBody = Static<typeof CreateWorkflowBody>;

export const UpdateWorkflowBody = Type.Partial(Type.Object({ ...fields }), { minProperties: 1 });
export type UpdateWorkflowBody = Static<typeof UpdateWorkflowBody>;

export const Workflow = Type.Object(
  {
    ID: Type.Integer(),
    Name: Type.String(),
    Event: fields.Event,
    OffsetHours: Type.Integer(),
    Subject: Type.String(),
    Body: Type.String(),
    PartnerBookings: Type.Boolean({ description: 'Whether partner or octo is among Channels' }),
    Channels: fields.Channels,
    Enabled: Type.Boolean(),
    CreatedAt: Type.String({ format: 'date-time' }),
    UpdatedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Workflow' },
);
export type Workflow = Static<typeof Workflow>;

export const WorkflowIdParams = Type.Object({ ID: RowId('Workflow ID') });

export const WorkflowPreviewBody = Type.Object({
  Subject: Type.String({ maxLength: 200, description: 'The draft subject template' }),
  Body: Type.String({ maxLength: 20_000, description: 'The draft body template' }),
  Event: Type.Optional({ ...fields.Event, description: "The draft's event, which {{Headline}} and {{Intro}} speak of; default booking-confirmed" }),
  BookingReference: Type.Optional(
    Type.String({ pattern: '^BK-[A-HJ-NP-Z2-9]{8}$', description: 'Render for this booking; default: the newest confirmed booking' }),
  ),
});
export type WorkflowPreviewBody = Static<typeof WorkflowPreviewBody>;

export const WorkflowPreview = Type.Object(
  {
    Sample: Type.Boolean({ description: 'true: rendered for a made-up sample booking, because the operator has none yet' }),
    BookingReference: Type.Union([Type.String(), Type.Null()], { description: 'The real booking it was rendered for' }),
    To: Type.Union([Type.String(), Type.Null()], { description: "Whom that booking's e-mail would go to" }),
    Subject: Type.String({ description: 'Plain text, as it would be sent' }),
    Body: Type.String({ description: 'Plain text, as it would be sent' }),
  },
  { $id: 'WorkflowPreview' },
);
export type WorkflowPreview = Static<typeof WorkflowPreview>;
