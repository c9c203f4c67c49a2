// The dashboard's only way to the service: the HTTP API, signed in with a session cookie (HttpOnly, so
// scripts never see it). Changes carry the session's CSRF token, which the sign-in and GET
// /api/v2/staff/me give; a 401 anywhere means the session ended and shows the sign-in page.

import { saveBlob } from './download';

let csrfToken: string | null = null;

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

export interface FieldError {
  field: string;
  message: string;
}

/** An RFC 7807 problem answered by the API (or a network failure, status 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string,
    readonly errors: FieldError[] = [],
    readonly kind = '',
  ) {
    super(detail || title);
  }

  /** The message of one field's error, for showing next to that field. */
  fieldError(field: string): string | undefined {
    return this.errors.find((error) => error.field === field)?.message;
  }
}

type Listener = () => void;
const unauthorizedListeners = new Set<Listener>();
/** Called when the API answers 401: the session ended (signed out elsewhere, revoked, expired). */
export function onUnauthorized(listener: Listener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

export type Query = Record<string, string | number | undefined | null | false>;

export function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '' || value === false) continue;
    params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

export async function request<T>(
  method: string,
  path: string,
  options: { body?: unknown; query?: Query; signal?: AbortSignal; quiet?: boolean } = {},
): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (method !== 'GET' && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(withQuery(path, options.query), {
      method,
      headers,
      credentials: 'same-origin',
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'Network error', 'The service did not answer. Is slotbook running?');
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const problem = (body ?? {}) as { title?: string; detail?: string; errors?: FieldError[]; type?: string };
    const kind = problem.type?.split('/').pop() ?? '';
    const error = new ApiError(
      response.status,
      problem.title ?? response.statusText,
      problem.detail ?? `The service answered ${response.status}`,
      problem.errors ?? [],
      kind,
    );
    if (response.status === 401 && !options.quiet) unauthorizedListeners.forEach((listener) => listener());
    throw error;
  }
  return (body as { data: T }).data;
}

/**
 * Downloads a file the API serves as an attachment (a waiver answer's upload): fetched with the session,
 * then handed to the browser as a download of untyped bytes, so that it is saved, never opened in the
 * dashboard's origin.
 */
export async function downloadFile(path: string, fallbackName: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(path, { credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'Network error', 'The service did not answer. Is slotbook running?');
  }
  if (!response.ok) {
    const problem = (await response.json().catch(() => ({}))) as { title?: string; detail?: string };
    if (response.status === 401) unauthorizedListeners.forEach((listener) => listener());
    throw new ApiError(response.status, problem.title ?? response.statusText, problem.detail ?? `The service answered ${response.status}`);
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ?? fallbackName;
  saveBlob(name, new Blob([await response.arrayBuffer()], { type: 'application/octet-stream' }));
}

export const api = {
  get: <T>(path: string, query?: Query, signal?: AbortSignal) => request<T>('GET', path, { query, signal }),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, { body: body ?? {} }),
  patch: <T>(path: string, body: unknown) => request<T>('PATCH', path, { body }),
  del: (path: string) => request<void>('DELETE', path),
};

// ---- The API's records (see /openapi.json) ----

export type Source = 'partner' | 'online' | 'pos';
export type BookingStatus = 'on_hold' | 'confirmed' | 'cancelled' | 'expired';

export interface Customer {
  FirstName: string;
  LastName: string;
  Email: string;
  Phone: string;
}

export interface Booking {
  BookingReference: string;
  Status: BookingStatus;
  Source: Source;
  Partner: string | null;
  PaymentReference: string | null;
  ActivityID: string;
  Date: string;
  Time: string;
  StartsAt?: string;
  Participants: number;
  Seats: number;
  Tickets: BookedTicket[];
  Currency: string;
  Total: number;
  Customer: Customer;
  WaiverStatus: 'pending' | 'complete';
  HoldExpiresAt?: string | null;
  CreatedAt: string;
}

export interface WaiverAnswer {
  QuestionID: number;
  Question: string;
  Type: string;
  Answer: string;
  File: { FileID: string; ContentType: string; Size: number; Download: string } | null;
}

export interface BookedTicket {
  Type: string;
  Name: string;
  Quantity: number;
  UnitPrice: number;
}

export const TICKET_CATEGORIES = ['adult', 'child', 'youth', 'infant', 'senior', 'student', 'military', 'family', 'other'] as const;
export type TicketCategory = (typeof TICKET_CATEGORIES)[number];

export interface TicketType {
  Type: string;
  Name: string;
  Price: number;
  Category: TicketCategory;
  MinAge: number | null;
  MaxAge: number | null;
  People: number;
  TakesSeat: boolean;
  MinPerBooking: number;
  MaxPerBooking: number | null;
  Requires: string | null;
  Default: boolean;
}

export interface AdminTicketType extends TicketType {
  ID: number;
  ActivityID: string;
  Position: number;
  Translations: Record<string, { Name: string }>;
}

export interface Activity {
  ID: number;
  ActivityID: string;
  Name: string;
  Description: string;
  DurationMinutes: number;
  Timezone: string;
  Currency: string;
  UnitPrice: number;
  MaxParticipantsPerBooking: number;
  UpdatedAt: string;
  Archived: boolean;
  AvailabilityType: 'start_time' | 'opening_hours';
  TicketTypes: TicketType[];
  RequiredContactFields: string[];
  /** Guests may cancel online until this many hours before the start; null: they may not. */
  GuestCancelHours: number | null;
}

export interface Timeslot {
  ID: number;
  ActivityID: string;
  Date: string;
  Time: string;
  EndTime: string;
  StartsAt: string;
  Capacity: number;
  Booked: number;
  Available: number;
  Free: number;
}

export const QUESTION_TYPES = ['text', 'boolean', 'select', 'date', 'file', 'signature'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

export interface Question {
  ID: number;
  Question: string;
  Type: QuestionType;
  Required: boolean;
  RequiresFileUpload: boolean;
  Options: string[];
  Position: number;
  Translations?: Record<string, { Question: string; Options?: string[] }>;
}

export const SCOPES = ['ota', 'usage:read', 'usage:write', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

export interface ApiKey {
  ID: number;
  Name: string;
  Scopes: string[];
  Partner: string | null;
  CreatedAt: string;
  RevokedAt: string | null;
}

export interface CreatedKey {
  ID: number;
  Key: string;
  Name: string;
  Scopes: string[];
  Partner: string | null;
}

export interface MeterTotal {
  Meter: string;
  TotalUsage: number;
  EventCount: number;
}

export interface Period {
  From: string;
  To: string;
  FromTimestamp: number;
  ToTimestamp: number;
}

export interface UsageSummary {
  Period: Period;
  Totals: { Usage: number; Events: number };
  Meters: MeterTotal[];
}

export interface DailyUsage {
  Period: Period;
  Days: { Date: string; Meters: MeterTotal[] }[];
}

/**
 * Moves the item at `index` of a list ordered by Position one place up (-1) or down (+1), by swapping
 * the Positions of the two items through PATCH `{path}/{ID}`. Equal positions (then ordered by ID) get
 * distinct ones first. False when there is nothing to swap with.
 */
export async function swapPositions(list: { ID: number; Position: number }[], index: number, by: -1 | 1, path: string): Promise<boolean> {
  const a = list[index];
  const b = list[index + by];
  if (!a || !b) return false;
  const pa = a.Position === b.Position ? index : a.Position;
  const pb = a.Position === b.Position ? index + by : b.Position;
  await api.patch(`${path}/${a.ID}`, { Position: pb });
  await api.patch(`${path}/${b.ID}`, { Position: pa });
  return true;
}

// ---- Staff accounts and the audit log ----

export const ROLES = ['owner', 'manager', 'front-desk', 'guide'] as const;
export type Role = (typeof ROLES)[number];
export const ROLE_LABELS: Record<Role, string> = { owner: 'Owner', manager: 'Manager', 'front-desk': 'Front desk', guide: 'Guide' };

export interface StaffUser {
  ID: number;
  Email: string;
  Name: string;
  Role: Role;
  Status: 'invited' | 'active';
  TwoFactor: boolean;
  /** Set while sign-in is refused after 5 wrong passwords or codes in a row. */
  LockedUntil: string | null;
  CreatedAt: string;
}

export interface Me {
  User: StaffUser;
  Operator: { ID: number; Name: string };
  Permissions: string[];
  CsrfToken: string;
}

export interface SignInResult {
  Status: 'signed-in' | 'totp-required' | 'choose-operator';
  Me?: Me;
  Challenge?: string;
  Operators?: { OperatorID: number; Name: string }[];
}

export interface StaffSession {
  ID: number;
  CreatedAt: string;
  LastSeenAt: string;
  ExpiresAt: string;
  Address: string;
  UserAgent: string;
  Current: boolean;
}

export interface AuditEntry {
  ID: number;
  At: string;
  Actor: { Type: 'user' | 'key' | 'system' | 'anonymous'; ID: number | null; Label: string };
  Address: string | null;
  Action: string;
  Resource: { Type: string; ID: string | null };
  Before: unknown;
  After: unknown;
}

export interface AuditVocabulary {
  Actions: string[];
  ResourceTypes: string[];
  Actors: { Actor: string; Label: string }[];
}

/** The headers a change needs besides its body (for uploads of raw bytes, which `request` does not send). */
export function csrfHeaders(): Record<string, string> {
  return csrfToken ? { 'X-CSRF-Token': csrfToken } : {};
}
