// Table types for Kysely: the database as it is, snake_case, one interface per table. API types live in
// each domain's schemas.ts; a mapper in each store turns rows into them.
import type { Generated } from 'kysely';

export interface Database {
  operators: OperatorTable;
  api_keys: ApiKeyTable;
  activities: ActivityTable;
  timeslots: TimeslotTable;
  questions: QuestionTable;
  uploads: UploadTable;
  bookings: BookingTable;
  waiver_answers: WaiverAnswerTable;
  usage_entries: UsageEntryTable;
  usage_daily_totals: UsageDailyTotalTable;
  idempotency_keys: IdempotencyKeyTable;
}

export interface OperatorTable {
  id: Generated<number>;
  name: string;
  created_at: number;
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
  created_at: number;
  revoked_at: number | null;
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
  updated_at: number;
}

export interface TimeslotTable {
  id: Generated<number>;
  operator_id: number;
  activity_id: number;
  date: string;
  time: string;
  /** Unix seconds. */
  starts_at: number;
  ends_at: number;
  capacity: number;
  booked: Generated<number>;
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
  created_at: number;
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
  participants: number;
  customer_first_name: string;
  customer_last_name: string;
  customer_email: string;
  customer_phone: string;
  waiver_status: string;
  /** Unix seconds; set while the booking is on hold. */
  hold_expires_at: number | null;
  created_at: number;
  cancelled_at: number | null;
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
  /** Unix seconds. */
  occurred_at: number;
  created_at: number;
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

export interface IdempotencyKeyTable {
  operator_id: number;
  idempotency_key: string;
  request_hash: string;
  status_code: number;
  response_body: string;
  response_location: string | null;
  created_at: number;
}
