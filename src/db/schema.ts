// Table types for Kysely: the database as it is, snake_case, one interface per table. API types live in
// each domain's schemas.ts; a mapper in each store turns rows into them.
//
// Time columns are Unix seconds or Unix milliseconds, often both in one row (a booking's hold_expires_at is
// seconds, its created_at milliseconds), as each table was first written; renaming them would change every
// query, the API's mappers and two databases' data for no behaviour. So the type of each column says its
// unit instead (UnixSeconds, UnixMillis: src/lib/clock.ts): a write or a query that hands one unit to a
// column of the other does not compile. Mostly, seconds are the schedules and deadlines of the booking side
// (timeslots, holds, offers, e-mail and webhook retries, Stripe's own times), milliseconds the stamps of
// when something happened; the type, not this rule, decides.
import type { Generated } from 'kysely';
import type { UnixMillis, UnixSeconds } from '../lib/clock.js';

export interface Database {
  operators: OperatorTable;
  operator_logos: OperatorLogoTable;
  former_slugs: FormerSlugTable;
  api_keys: ApiKeyTable;
  activities: ActivityTable;
  activity_photos: ActivityPhotoTable;
  activity_photo_sizes: ActivityPhotoSizeTable;
  booking_terms_acceptances: BookingTermsAcceptanceTable;
  timeslots: TimeslotTable;
  questions: QuestionTable;
  uploads: UploadTable;
  bookings: BookingTable;
  waiver_answers: WaiverAnswerTable;
  usage_entries: UsageEntryTable;
  usage_daily_totals: UsageDailyTotalTable;
  usage_monthly_totals: UsageMonthlyTotalTable;
  idempotency_keys: IdempotencyKeyTable;
  idempotency_keys_before_008: LegacyIdempotencyKeyTable;
  octo_bookings: OctoBookingTable;
  gyg_connections: GygConnectionTable;
  gyg_products: GygProductTable;
  gyg_categories: GygCategoryTable;
  gyg_bookings: GygBookingTable;
  gyg_notifications: GygNotificationTable;
  gyg_requests: GygRequestTable;
  viator_connections: ViatorConnectionTable;
  viator_products: ViatorProductTable;
  viator_age_bands: ViatorAgeBandTable;
  viator_bookings: ViatorBookingTable;
  viator_requests: ViatorRequestTable;
  marketplace_pushes: MarketplacePushTable;
  baskets: BasketTable;
  basket_items: BasketItemTable;
  payments: PaymentTable;
  balance_requests: BalanceRequestTable;
  refunds: RefundTable;
  payment_allocations: PaymentAllocationTable;
  disputes: DisputeTable;
  dispute_bookings: DisputeBookingTable;
  stripe_accounts: StripeAccountTable;
  stripe_events: StripeEventTable;
  waitlist_entries: WaitlistEntryTable;
  workflows: WorkflowTable;
  emails: EmailTable;
  instance_secrets: InstanceSecretTable;
  shop_settings: ShopSettingsTable;
  ticket_types: TicketTypeTable;
  booking_tickets: BookingTicketTable;
  booking_checkins: BookingCheckinTable;
  rate_limit_buckets: RateLimitBucketTable;
  staff_users: StaffUserTable;
  staff_sessions: StaffSessionTable;
  staff_tokens: StaffTokenTable;
  staff_throttles: StaffThrottleTable;
  audit_log: AuditLogTable;
  webhook_endpoints: WebhookEndpointTable;
  webhook_outbox: WebhookOutboxTable;
  webhook_events: WebhookEventTable;
  webhook_timeslot_changes: WebhookTimeslotChangeTable;
  webhook_availability_notices: WebhookAvailabilityNoticeTable;
  webhook_deliveries: WebhookDeliveryTable;
  webhook_attempts: WebhookAttemptTable;
  departure_cancellations: DepartureCancellationTable;
}

/** A cancelled departure (migration 028): the operator's message, and what it cancelled. */
export interface DepartureCancellationTable {
  timeslot_id: number;
  operator_id: number;
  message: string;
  /** The timeslot's capacity before the cancellation set it to 0. */
  capacity: number;
  /** JSON array of the IDs of the bookings it cancelled. */
  booking_ids: string;
  /** Who cancelled it, as the audit log names them. */
  cancelled_by: string;
  cancelled_at: UnixSeconds;
}

export interface OperatorTable {
  id: Generated<number>;
  name: string;
  created_at: UnixMillis;
  /** Where notices about the service itself go, e.g. an endpoint disabled for failing (migration 011). */
  contact_email: string | null;
  /** The booking pages' address, /book/{slug} (migration 013); null only for rows written by hand. */
  slug: string | null;
  /** The name guests see on the booking pages and in e-mails; null: `name` (migration 015). */
  shop_name: string | null;
  /** #rrggbb, readable under white text; null: slotbook's own colour (migration 015). */
  brand_colour: string | null;
  /** JSON array of the origins allowed to frame the booking pages; empty: any (migration 015). */
  embed_origins: Generated<string>;
  /** The shop's terms and privacy pages (https; migration 034): while either is set, checkout needs the guest's acceptance. */
  terms_url: Generated<string | null>;
  privacy_url: Generated<string | null>;
}

/** An operator's logo (migration 015): one image, served publicly under its digest (src/settings/logo.ts). */
export interface OperatorLogoTable {
  operator_id: number;
  content_type: string;
  content: Buffer;
  digest: string;
  updated_at: UnixMillis;
}

/** Slugs an operator had before: /book/{old} redirects to the current one until another operator takes it. */
export interface FormerSlugTable {
  slug: string;
  operator_id: number;
  replaced_at: UnixMillis;
}

export interface ApiKeyTable {
  id: Generated<number>;
  operator_id: number;
  lookup_id: string;
  secret_hash: string;
  name: string;
  /** Space-separated scope names. */
  scopes: string;
  partner: string | null;
  created_at: UnixMillis;
  revoked_at: UnixMillis | null;
}

export interface ActivityTable {
  id: Generated<number>;
  operator_id: number;
  public_id: string;
  name: string;
  description: string;
  duration_minutes: number;
  timezone: string;
  currency: string;
  unit_price: number;
  max_participants_per_booking: number;
  archived: Generated<number>;
  updated_at: UnixMillis;
  /** 'start_time' or 'opening_hours' (migration 010). */
  availability_type: Generated<string>;
  /** JSON array of the OCTo contact fields a confirmation must carry (migration 010). */
  required_contact_fields: Generated<string>;
  /** Guests may cancel their own booking until this many hours before the start; null: they may not (migration 014). */
  guest_cancel_hours: number | null;
  /** JSON array of {HoursBefore, Percent}, largest HoursBefore first: what a guest's cancellation refunds (migration 024). */
  guest_refund_rules: Generated<string>;
  /** JSON {Address, MapUrl, Latitude, Longitude}, or null (migration 030). */
  meeting_point: string | null;
  /** JSON arrays of short lines: what the price includes, what to bring (migration 030). */
  inclusions: Generated<string>;
  what_to_bring: Generated<string>;
  /** Migration 026: a deposit per booking, a percentage (1-99) or a fixed amount (minor units); both null: pay in full. */
  deposit_percent: Generated<number | null>;
  deposit_amount: Generated<number | null>;
  /** Days before the start the balance link is e-mailed; null: collected at check-in only. */
  balance_due_days: Generated<number | null>;
  /** Guests may move their own booking to another time until this many hours before its start; null: they may not (migration 028). */
  guest_reschedule_hours: Generated<number | null>;
}

export interface TimeslotTable {
  id: Generated<number>;
  operator_id: number;
  activity_id: number;
  date: string;
  time: string;
  starts_at: UnixSeconds;
  ends_at: UnixSeconds;
  capacity: number;
  booked: Generated<number>;
  /** Until when it takes bookings: starts_at, or ends_at for opening hours (migration 010). */
  bookable_until: Generated<UnixSeconds>;
  /** When the departure was cancelled (migration 028): it takes no more bookings. */
  cancelled_at: Generated<UnixSeconds | null>;
}

export interface QuestionTable {
  id: Generated<number>;
  operator_id: number;
  activity_id: number;
  question: string;
  type: string;
  required: number;
  requires_file_upload: number;
  /** JSON array of strings. */
  options: string;
  /** JSON object: locale tag -> { Question, Options? }. */
  translations: string;
  position: number;
}

export interface UploadTable {
  id: Generated<number>;
  operator_id: number;
  public_id: string;
  content_type: string;
  size: number;
  content: Buffer;
  created_at: UnixMillis;
  /** The API key that uploaded it (partner API), with its marketplace (migration 009). */
  api_key_id: number | null;
  partner: string | null;
  /** The shop basket it was uploaded through, and an HMAC of the guest's address (migration 009). */
  basket_id: number | null;
  client_fingerprint: string | null;
  /** The booking whose guest uploaded it through the booking's own link, completing its waiver (migration 029). */
  booking_id: Generated<number | null>;
  /** When a confirmed booking's waiver answer first named it; null: unattached, swept in time. */
  attached_at: UnixMillis | null;
  /** The latest expiry of a hold that named it, which keeps it from the sweep until then (migration 021). */
  held_until: UnixMillis | null;
}

export interface BookingTable {
  id: Generated<number>;
  operator_id: number;
  reference: string;
  timeslot_id: number;
  status: string;
  source: string;
  partner: string | null;
  payment_reference: string | null;
  /** People: the sum of the tickets' people. */
  participants: number;
  /** Seats held: the sum of the seat-taking tickets (migration 010); what timeslots.booked counts. */
  seats: Generated<number>;
  customer_first_name: string;
  customer_last_name: string;
  customer_email: string;
  customer_phone: string;
  waiver_status: string;
  /** The guest's language for e-mails: 'en' or 'de' (migration 033). */
  locale: Generated<string>;
  /** Set while the booking is on hold. */
  hold_expires_at: UnixSeconds | null;
  created_at: UnixMillis;
  cancelled_at: UnixMillis | null;
}

export interface WaiverAnswerTable {
  booking_id: number;
  question_id: number;
  answer: string;
}

export interface UsageEntryTable {
  id: Generated<number>;
  operator_id: number;
  meter: string;
  /** Integer micro-units, bound as a decimal string so no precision is lost on the way. */
  usage_micros: string;
  extra_info: string | null;
  occurred_at: UnixSeconds;
  created_at: UnixMillis;
}

export interface UsageDailyTotalTable {
  operator_id: number;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  meter: string;
  /** Exact decimal integer string of micro-units. */
  total_micros: string;
  event_count: number;
}

/** The daily totals of a UTC month, kept beside them (migration 004) so that long summaries read fewer rows. */
export interface UsageMonthlyTotalTable {
  operator_id: number;
  /** UTC month, YYYY-MM. */
  month: string;
  meter: string;
  /** Exact decimal integer string of micro-units. */
  total_micros: string;
  event_count: number;
}

/** Idempotency records (migration 008): one namespace per operator, holder and route. */
export interface IdempotencyKeyTable {
  operator_id: number;
  /** `partner:<marketplace>`, `key:<API key ID>` or `basket:<basket ID>`. */
  holder: string;
  /** Method and route pattern, e.g. `POST /api/v2/ota/:partner/booking`. */
  route: string;
  idempotency_key: string;
  /** Hex HMAC (instance key) of the request fingerprint. */
  request_hash: string;
  status_code: number;
  response_body: string;
  response_location: string | null;
  created_at: UnixMillis;
}

/** The records written before migration 008 (per operator only, SHA-256 fingerprints), answered until they lapse. */
export type LegacyIdempotencyKeyTable = Omit<IdempotencyKeyTable, 'holder' | 'route'>;

/** GetYourGuide (migration 032): an operator's connection. */
export interface GygConnectionTable {
  operator_id: number;
  enabled: Generated<number>;
  /** The inbound HTTP Basic user name GYG calls with (unique over the instance: it names the connection). */
  username: string;
  /** SHA-256 (hex) of the random inbound password. */
  password_hash: string;
  supplier_id: string | null;
  outbound_username: string | null;
  /** GYG's password for its own API, sealed with the instance's keys. */
  outbound_password_sealed: string | null;
  /** Minutes a reservation holds its seats; null: GYG_HOLD_MINUTES. */
  hold_minutes: number | null;
  /** 'INDIVIDUAL' (one ticket per unit) or 'COLLECTIVE' (one ticket for the booking). */
  ticket_style: Generated<string>;
  created_at: UnixMillis;
  updated_at: UnixMillis;
}

export interface GygProductTable {
  operator_id: number;
  activity_id: number;
  product_id: string;
}

export interface GygCategoryTable {
  operator_id: number;
  ticket_type_id: number;
  /** One of GYG's categories, or 'NONE'. */
  category: string;
}

/** What a GYG booking carries beside its bookings row (source partner, partner 'GetYourGuide'). */
export interface GygBookingTable {
  booking_id: number;
  operator_id: number;
  gyg_booking_reference: string;
  product_id: string;
  /** JSON array of the reserve's bookingItems. */
  items: string;
  ticket_style: string | null;
  comment: string | null;
  language: string | null;
  booked_at: UnixMillis | null;
}

export interface GygNotificationTable {
  id: Generated<number>;
  operator_id: number;
  notification_type: string;
  product_id: string | null;
  description: string;
  /** JSON of GYG's notificationDetails and productDetails. */
  details: string;
  received_at: UnixMillis;
}

export interface GygRequestTable {
  id: Generated<number>;
  operator_id: number;
  endpoint: string;
  product_id: string | null;
  error_code: string | null;
  duration_ms: number;
  at: UnixMillis;
}

/** Viator (migration 039): an operator's connection. */
export interface ViatorConnectionTable {
  operator_id: number;
  enabled: Generated<number>;
  /** SHA-256 (hex) of the random key Viator sends in X-Api-Key (unique over the instance: it names the connection). */
  key_hash: string;
  /** The key's first characters, to recognise it on the connection page. */
  key_hint: string;
  /** Viator's supplier ID (an integer, kept as its decimal text). */
  supplier_id: string | null;
  /** Viator's key for its notification endpoint, sealed with the instance's keys. */
  outbound_key_sealed: string | null;
  created_at: UnixMillis;
  updated_at: UnixMillis;
}

export interface ViatorProductTable {
  operator_id: number;
  activity_id: number;
  product_option_id: string;
  /** 1 once Viator asked its calendar (event notifications enabled), 0 again when Viator refuses the option. */
  notify: Generated<number>;
}

export interface ViatorAgeBandTable {
  operator_id: number;
  ticket_type_id: number;
  /** One of Viator's ticket types (ADULT, ..., UNIT), or 'NONE'. */
  band: string;
}

/** What a Viator booking carries beside its bookings row (source partner, partner Viator). */
export interface ViatorBookingTable {
  booking_id: number;
  operator_id: number;
  product_option_id: string;
  /** JSON array of the reserve's tickets ({type, quantity}). */
  tickets: string;
  /** Viator's BookingReference, once booked. */
  viator_reference: string | null;
  note: string | null;
  booked_at: UnixMillis | null;
}

export interface ViatorRequestTable {
  id: Generated<number>;
  operator_id: number;
  endpoint: string;
  product_option_id: string | null;
  /** null: answered as asked; else Viator's error code, reason or rejection. */
  outcome: string | null;
  duration_ms: number;
  at: UnixMillis;
}

/** A timeslot whose availability is still to be pushed to a marketplace (migration 040). */
export interface MarketplacePushTable {
  /** The marketplace: 'viator', 'getyourguide'. */
  channel: string;
  timeslot_id: number;
  operator_id: number;
  /** The marketplace's product (or product option) ID of the timeslot's activity. */
  product_id: string;
  /** The time of the latest change queued. */
  queued_at: UnixMillis;
  attempts: Generated<number>;
  next_attempt_at: UnixMillis;
  last_error: string | null;
}

/** OCTo (migration 003): what an OCTo booking carries beside its bookings row. */
export interface OctoBookingTable {
  booking_id: number;
  operator_id: number;
  /** The reseller (the key's marketplace) whose uuid this is (migration 008). */
  partner: string;
  /** The reseller's booking uuid (lower case), unique per operator and reseller. */
  uuid: string;
  notes: string | null;
  /** JSON array of { uuid, unitId, resellerReference }, one per participant. */
  unit_items: string;
  cancel_reason: string | null;
  confirmed_at: UnixMillis | null;
  updated_at: UnixMillis;
  /** JSON object of the contact fields bookings has no column for: notes, country, postalCode, locales (migration 010). */
  contact: Generated<string>;
}

// Platform events (migration 002, docs/platform-events.md).

export interface BasketTable {
  id: Generated<number>;
  operator_id: number;
  /** Random public address of the basket; `id` stays internal (it goes into the order-completed entry). */
  token: string;
  status: 'open' | 'paid';
  currency: string | null;
  customer_first_name: string;
  customer_last_name: string;
  customer_email: string;
  customer_phone: string;
  waitlist_entry_id: number | null;
  payment_reference: string | null;
  created_at: UnixMillis;
  paid_at: UnixMillis | null;
  /** HMAC of the address of the client that opened it (migration 008); null for baskets the platform opened. */
  client_hmac: string | null;
  /** When the guest began checkout (the seats are then held longer, and no item is added). */
  checkout_started_at: UnixSeconds | null;
  /** The booking pages' language, given to the bookings the basket places (migration 033). */
  locale: Generated<string>;
}

export interface BasketItemTable {
  basket_id: number;
  booking_id: number;
  activity_name: string;
  unit_price: number;
  participants: number;
  /** HMAC of the address of the client that added the item (migration 008); null for a waitlist offer's. */
  client_hmac: string | null;
  /** Migration 026: what the shop charges for the item, its deposit (minor units); null: its whole price. */
  deposit: Generated<number | null>;
  /** Migration 036: what the shop charged for the item when bought (its tickets' price then, or its deposit); null before it. */
  charged: Generated<number | null>;
}

/** Migration 022: a Stripe Checkout is pending until paid or expired; one that could not be honoured is refunded. */
export type PaymentStatus = 'pending' | 'succeeded' | 'declined' | 'expired' | 'refunding' | 'refunded';

export interface PaymentTable {
  id: Generated<number>;
  operator_id: number;
  /** The basket paid; null for payments of a booking outside the shop (migration 022). */
  basket_id: number | null;
  booking_id: number | null;
  provider: string;
  status: PaymentStatus;
  amount: number;
  currency: string;
  /** The provider's reference of the money moved (test_..., Stripe's PaymentIntent pi_...), once paid. */
  provider_reference: string | null;
  failure: string | null;
  created_at: UnixMillis;
  /** HMAC of the paying client's address (migration 008): declines are slowed per address. */
  client_hmac: string | null;
  /** Stripe: the Checkout Session (cs_...), its address and expiry (Unix seconds); migration 022. */
  checkout_session_id: string | null;
  redirect_url: string | null;
  session_expires_at: UnixSeconds | null;
  /** Stripe: the refund (re_...) of a payment that could not be honoured. */
  refund_reference: string | null;
  /** The time of the last change of status. */
  updated_at: UnixMillis | null;
  /** When it took money (became succeeded); null until then (migration 027). */
  succeeded_at: UnixMillis | null;
  /** How it was paid (migration 025): online, or at the desk cash | card_terminal | invoice | voucher; null before (online). */
  method: Generated<string | null>;
}

/** Migration 037: which payment paid which booking, and how much of it (written when the payment takes money). */
export interface PaymentAllocationTable {
  payment_id: number;
  booking_id: number;
  operator_id: number;
  /** Minor units of the payment's currency. */
  amount: number;
}

/** Migration 023: a refund is pending until its provider answers; a failed one may be retried. */
export type RefundStatus = 'pending' | 'succeeded' | 'failed';
/** Who asked for a refund: a staff user, an API key, a guest cancelling, or slotbook itself. */
export type RefundRequester = 'user' | 'key' | 'guest' | 'system';

/** One refund of one booking's share of a payment (migration 023, docs/payments.md). */
export interface RefundTable {
  id: Generated<number>;
  operator_id: number;
  payment_id: number;
  booking_id: number;
  /** Minor units of `currency`, the payment's. */
  amount: number;
  currency: string;
  status: RefundStatus;
  /** The provider's refund (re_..., test_refund_...), once it answered. */
  provider_reference: string | null;
  reason: string;
  /** Why the provider refused it, when failed. */
  failure: string | null;
  requested_by_type: RefundRequester;
  /** The staff user's or API key's id; null for a guest or the system. */
  requested_by_id: number | null;
  created_at: UnixMillis;
  updated_at: UnixMillis;
  /** When it became succeeded; null until then (migration 027). */
  succeeded_at: UnixMillis | null;
}

/** A cardholder's dispute of a payment (Stripe's charge.dispute.* events; migration 027). */
export interface DisputeTable {
  id: Generated<number>;
  operator_id: number;
  payment_id: number;
  /** Stripe's dispute id (dp_...). */
  dispute_reference: string;
  /** Minor units of `currency`. */
  amount: number;
  currency: string;
  /** Stripe's reason (fraudulent, product_not_received, ...). */
  reason: string;
  /** Stripe's status (warning_needs_response, needs_response, under_review, won, lost, ...). */
  status: string;
  /** The payment in Stripe's dashboard (https://dashboard.stripe.com/{test/}payments/pi_...). */
  dashboard_url: string;
  /** The evidence must reach Stripe before this; null when Stripe names none. */
  evidence_due_by: UnixSeconds | null;
  created_at: UnixMillis;
  updated_at: UnixMillis;
  /** Stripe's time of the last event applied. */
  last_event_at: UnixSeconds;
}

export interface DisputeBookingTable {
  dispute_id: number;
  booking_id: number;
}

/** The operator's own Stripe account (migration 022): sealed secrets, and what may be shown of them. */
export interface StripeAccountTable {
  operator_id: number;
  secret_key_sealed: string;
  webhook_secret_sealed: string;
  key_last4: string;
  /** 1: a live key (sk_live_/rk_live_), 0: a test-mode key. */
  live_mode: number;
  account_id: string | null;
  created_at: UnixMillis;
  updated_at: UnixMillis;
}

/** Stripe event ids received per operator (migration 022): a second delivery does nothing. */
export interface StripeEventTable {
  operator_id: number;
  event_id: string;
  type: string;
  received_at: UnixMillis;
}

export interface WaitlistEntryTable {
  id: Generated<number>;
  operator_id: number;
  timeslot_id: number;
  participants: number;
  customer_first_name: string;
  customer_last_name: string;
  customer_email: string;
  customer_phone: string;
  status: 'waiting' | 'offered' | 'claimed' | 'expired' | 'removed';
  basket_id: number | null;
  /** The end of the claim window of an offer. */
  offer_expires_at: UnixSeconds | null;
  created_at: UnixMillis;
  notified_at: UnixMillis | null;
  /** When the address was confirmed (migration 008); null while unconfirmed. */
  confirmed_at: UnixMillis | null;
  /** An unconfirmed place lapses then. */
  confirm_by: UnixSeconds | null;
  /** SHA-256 (hex) of the confirmation link's token. */
  confirm_token_hash: string | null;
  /** HMAC of the address of the client that joined. */
  client_hmac: string | null;
}

export interface WorkflowTable {
  id: Generated<number>;
  operator_id: number;
  name: string;
  event: 'booking-confirmed' | 'booking-cancelled' | 'booking-rescheduled' | 'reminder' | 'follow-up';
  offset_hours: number;
  subject_template: string;
  body_template: string;
  partner_bookings: number;
  /** Comma list of the channels whose bookings it e-mails: online, pos, partner, octo (migration 033). */
  channels: Generated<string>;
  enabled: number;
  created_at: UnixMillis;
  updated_at: UnixMillis;
}

/** A workflow e-mail, a waitlist offer, or the link that confirms a waitlist place's address. */
/** staff: sign-in links, password resets and invitations; their body is sealed (src/staff/users/emails.ts). */
export type EmailKind =
  | 'workflow'
  | 'waitlist'
  | 'waitlist-confirmation'
  | 'staff'
  | 'webhook'
  | 'payment'
  | 'booking-notice'
  | 'balance'
  | 'departure';

export interface EmailTable {
  id: Generated<number>;
  operator_id: number;
  kind: EmailKind;
  workflow_id: number | null;
  booking_id: number | null;
  waitlist_entry_id: number | null;
  to_address: string;
  subject: string;
  body: string;
  status: 'queued' | 'sending' | 'sent' | 'failed' | 'cancelled';
  /** When it was due first; next_attempt_at moves on with each retry. */
  scheduled_for: UnixSeconds;
  next_attempt_at: UnixSeconds;
  attempts: Generated<number>;
  claimed_by: string | null;
  claimed_until: UnixSeconds | null;
  last_error: string | null;
  transport: string | null;
  message_id: string | null;
  meter: string | null;
  meter_extra_info: string | null;
  created_at: UnixMillis;
  sent_at: UnixMillis | null;
}

/** The instance's master secret when SECRET_KEY is not set (migration 006, src/secrets/). */
export interface InstanceSecretTable {
  name: string;
  value: string;
  created_at: UnixMillis;
}

/** Whether an operator's public shop answers (migration 008): closed until the operator opens it. */
export interface ShopSettingsTable {
  operator_id: number;
  is_open: number;
  /** 1: a test shop, charged by the test provider even in production (migration 019, src/payments/providers/provider.ts). */
  test_mode: Generated<number>;
  updated_at: UnixMillis;
}
/** Ticket types of an activity (migration 010, src/catalog/tickets/). */
export interface TicketTypeTable {
  id: Generated<number>;
  operator_id: number;
  activity_id: number;
  code: string;
  name: string;
  /** JSON object: locale tag -> { Name }. */
  translations: string;
  price: number;
  category: string;
  min_age: number | null;
  max_age: number | null;
  people: number;
  takes_seat: number;
  min_per_booking: number;
  max_per_booking: number | null;
  requires_code: string | null;
  is_default: number;
  position: number;
  archived: Generated<number>;
  updated_at: UnixMillis;
}

/** A booking's tickets as sold, with the price and names of that moment (migration 010). */
export interface BookingTicketTable {
  booking_id: number;
  ticket_type_id: number;
  code: string;
  name: string;
  quantity: number;
  unit_price: number;
  currency: string;
  position: number;
}

/** How many of a booking's tickets of one type were checked in, and since when (migration 016). */
export interface BookingCheckinTable {
  booking_id: number;
  ticket_type_id: number;
  operator_id: number;
  /** More than 0: a line nobody is checked in on has no row. */
  checked_in: number;
  /** The time of the line's first check-in. */
  checked_in_at: UnixMillis;
}

/** A rate limit's shared counter: permits taken by every process in the bucket's window (migration 007). */
export interface RateLimitBucketTable {
  bucket: string;
  window_start: UnixMillis;
  granted: number;
}

// Staff accounts and the audit log (migration 012, docs/staff.md).

export type StaffRole = 'owner' | 'manager' | 'front-desk' | 'guide';

export interface StaffUserTable {
  id: Generated<number>;
  operator_id: number;
  /** Lower case. */
  email: string;
  name: string;
  role: StaffRole;
  status: 'invited' | 'active' | 'removed';
  /** scrypt$N$r$p$salt$hash; null until the invitation is accepted. */
  password_hash: string | null;
  /** Sealed TOTP secrets (src/secrets): the enabled one, and one being enrolled. */
  totp_secret: string | null;
  totp_pending: string | null;
  /** The last TOTP time step accepted, so a code is never accepted twice. */
  totp_last_step: number | null;
  /** JSON array of SHA-256 hashes of the unused recovery codes. */
  recovery_codes: Generated<string>;
  failed_attempts: Generated<number>;
  locked_until: UnixMillis | null;
  created_at: UnixMillis;
  updated_at: UnixMillis;
  /** E-mails about bookings: none, each (one per new, moved or cancelled booking) or digest (daily) (migration 031). */
  booking_notices: Generated<BookingNotices>;
  /** The UTC date (YYYY-MM-DD) of the last daily digest sent to this user (migration 031). */
  digest_sent_on: string | null;
}

export type BookingNotices = 'none' | 'each' | 'digest';

export interface StaffSessionTable {
  id: Generated<number>;
  operator_id: number;
  user_id: number;
  token_hash: string;
  address: string;
  user_agent: string;
  created_at: UnixMillis;
  last_seen_at: UnixMillis;
  expires_at: UnixMillis;
  revoked_at: UnixMillis | null;
}

export type StaffTokenPurpose = 'sign-in-link' | 'password-reset' | 'invitation' | 'totp-challenge';

export interface StaffTokenTable {
  id: Generated<number>;
  operator_id: number;
  user_id: number;
  purpose: StaffTokenPurpose;
  token_hash: string;
  created_at: UnixMillis;
  expires_at: UnixMillis;
  used_at: UnixMillis | null;
}

export interface StaffThrottleTable {
  key: string;
  count: number;
  window_started_at: UnixMillis;
  /** The last failure counted, for the back-off of a client address's sign-in failures (migration 020). */
  last_at: UnixMillis | null;
}

export interface AuditLogTable {
  id: Generated<number>;
  operator_id: number;
  at: UnixMillis;
  actor_type: 'user' | 'key' | 'system' | 'anonymous';
  actor_id: number | null;
  actor_label: string;
  address: string | null;
  action: string;
  resource_type: string;
  resource_id: string | null;
  before_json: string | null;
  after_json: string | null;
}

// Webhooks (migration 011, docs/webhooks.md).

export interface WebhookEndpointTable {
  id: Generated<number>;
  operator_id: number;
  url: string;
  description: string;
  /** Space-separated event types, or '*' for every type but the opt-in ones. */
  event_types: string;
  /** A marketplace's endpoint; null receives all of the operator's events. */
  partner: string | null;
  status: 'enabled' | 'disabled';
  disabled_reason: 'manual' | 'failing' | null;
  disabled_at: UnixSeconds | null;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: UnixSeconds | null;
  /** The time of the first failed attempt since the last success. */
  failing_since: UnixSeconds | null;
  last_success_at: UnixSeconds | null;
  created_at: UnixMillis;
  updated_at: UnixMillis;
}

/** The outbox: one row per transaction and operator, its events as JSON (src/events/outbox.ts). */
export interface WebhookOutboxTable {
  id: Generated<number>;
  operator_id: number;
  /** JSON array of [types, resource, audience, partner, booking ID, snapshot, data]. */
  events: string;
  created_at: UnixMillis;
}

/** An event as sent. */
export interface WebhookEventTable {
  id: Generated<number>;
  public_id: string;
  operator_id: number;
  type: string;
  resource: string;
  /** JSON of the resource as the API shows it. */
  data: string;
  /** When it happened. */
  created_at: UnixMillis;
}

export interface WebhookTimeslotChangeTable {
  id: Generated<number>;
  operator_id: number;
  timeslot_id: number;
  changed_at: UnixMillis;
}

export interface WebhookAvailabilityNoticeTable {
  timeslot_id: number;
  /** The time of the last availability.changed event of the timeslot. */
  notified_at: UnixMillis;
}

export interface WebhookDeliveryTable {
  id: Generated<number>;
  operator_id: number;
  endpoint_id: number;
  event_id: number;
  resource: string;
  status: 'pending' | 'sending' | 'delivered' | 'failed';
  attempts: Generated<number>;
  next_attempt_at: UnixSeconds;
  claimed_by: string | null;
  claimed_until: UnixSeconds | null;
  last_attempt_at: UnixMillis | null;
  last_status_code: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  /** The start of the latest attempt's answer (earlier attempts are in webhook_attempts). */
  last_response_body: string | null;
  replay_of: number | null;
  is_test: Generated<number>;
  created_at: UnixMillis;
  delivered_at: UnixMillis | null;
}

export interface WebhookAttemptTable {
  id: Generated<number>;
  delivery_id: number;
  attempted_at: UnixMillis;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response_body: string | null;
}

/** Migration 026: the balance link e-mailed for a booking (once). */
export interface BalanceRequestTable {
  booking_id: number;
  operator_id: number;
  emailed_at: UnixMillis;
}

/** An activity's photo (migration 034): the original's size; its resized JPEGs are activity_photo_sizes. */
export interface ActivityPhotoTable {
  id: Generated<number>;
  operator_id: number;
  activity_id: number;
  /** Of the original's bytes: the public address names it, so a new photo never shows an old cache. */
  digest: string;
  alt: Generated<string>;
  position: number;
  width: number;
  height: number;
  created_at: UnixMillis;
}

/** One resized JPEG of a photo, made once at upload (src/catalog/photos/resize.ts). */
export interface ActivityPhotoSizeTable {
  photo_id: number;
  width: number;
  height: number;
  content: Buffer;
}

/** A guest's acceptance of the shop's terms and privacy pages, per booking of the basket paid (migration 034). */
export interface BookingTermsAcceptanceTable {
  booking_id: number;
  operator_id: number;
  accepted_at: UnixMillis;
  terms_url: string | null;
  privacy_url: string | null;
}
