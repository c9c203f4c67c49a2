// The dashboard's only way to the service: the HTTP API, signed in with a session cookie (HttpOnly, so
// scripts never see it). Changes carry the session's CSRF token, which the sign-in and GET
// /api/v2/staff/me give; a 401 anywhere means the session ended and shows the sign-in page.

import type { Answer, RequestBody, Schemas } from './api-types';
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

  /**
   * The message of one field's error, for showing next to that field. A message that starts with a
   * field's path ("Customer.Email must be an e-mail address") reads as a sentence about the field once
   * the path, which the field's label already says, is left out: "Must be an e-mail address".
   */
  fieldError(field: string): string | undefined {
    const message = this.errors.find((error) => error.field === field)?.message;
    if (message === undefined || !/[.[]/.test(field) || !message.startsWith(`${field} `)) return message;
    const bare = message.slice(field.length + 1);
    return bare === 'is required' ? 'Required' : bare.charAt(0).toUpperCase() + bare.slice(1);
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
  put: <T>(path: string, body: unknown) => request<T>('PUT', path, { body }),
  del: (path: string) => request<void>('DELETE', path),
};

// ---- The API's records: aliases of the types generated from /openapi.json (web/src/api-types) ----

/**
 * A union's values as a list for the pages to offer (a select's options), checked against the document:
 * a value the union lacks, or one of its values left out, is a type error.
 */
function everyValue<Union extends string>() {
  return <const List extends readonly Union[]>(list: List & ([Union] extends [List[number]] ? unknown : never)): List => list;
}

export type Booking = Schemas['Booking'];
export type Source = Booking['Source'];
export type BookingStatus = Booking['Status'];
export type Customer = Booking['Customer'];
export type BookedTicket = Booking['Tickets'][number];
export type WaiverAnswer = Schemas['BookingWaiverAnswer'];
/** The operator's booking: the booking and its money (payments, refunds, what was paid and given back). */
export type AdminBooking = Schemas['AdminBooking'];
export type BookingRefund = Schemas['Refund'];

export type Activity = Schemas['AdminProduct'];
export type TicketType = Activity['TicketTypes'][number];
export type AdminTicketType = Schemas['AdminTicketType'];
/** The categories a ticket type may be given; answers type Category as any string (their description lists them). */
export type TicketCategory = NonNullable<RequestBody<'/api/v2/admin/activities/{ActivityID}/ticket-types', 'post'>['Category']>;
export const TICKET_CATEGORIES = everyValue<TicketCategory>()([
  'adult',
  'child',
  'youth',
  'infant',
  'senior',
  'student',
  'military',
  'family',
  'other',
]);
/** A ticket type's Category as one of the categories (the server answers no other; "other" if it ever did). */
export function ticketCategory(category: string): TicketCategory {
  return TICKET_CATEGORIES.find((known) => known === category) ?? 'other';
}

export type Timeslot = Answer<'/api/v2/admin/activities/{ActivityID}/timeslots', 'get'>[number];

export type Question = Schemas['AdminQuestion'];
export type QuestionType = Question['Type'];
export const QUESTION_TYPES = everyValue<QuestionType>()(['text', 'boolean', 'consent', 'select', 'date', 'file', 'signature']);

export type Scope = RequestBody<'/api/v2/admin/keys', 'post'>['Scopes'][number];
export const SCOPES = everyValue<Scope>()(['ota', 'usage:read', 'usage:write', 'admin']);
export type ApiKey = Schemas['ApiKey'];
export type CreatedKey = Schemas['CreatedApiKey'];

export type UsageSummary = Schemas['UsageSummary'];
export type DailyUsage = Schemas['DailyUsage'];
export type MeterTotal = UsageSummary['Meters'][number];
export type Period = UsageSummary['Period'];

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

export type StaffUser = Schemas['StaffUser'];
export type Role = StaffUser['Role'];
export const ROLES = everyValue<Role>()(['owner', 'manager', 'front-desk', 'guide']);
export const ROLE_LABELS: Record<Role, string> = { owner: 'Owner', manager: 'Manager', 'front-desk': 'Front desk', guide: 'Guide' };

export type Me = Answer<'/api/v2/staff/me', 'get'>;
/** What a role may do (src/auth/permissions.ts); the pages ask the session's `can`. */
export type Permission = Me['Permissions'][number];
export type SignInResult = Answer<'/api/v2/staff/sign-in', 'post'>;
export type StaffSession = Schemas['StaffSession'];
export type AuditEntry = Schemas['AuditEntry'];
export type AuditVocabulary = Answer<'/api/v2/admin/audit/vocabulary', 'get'>;

/** The headers a change needs besides its body (for uploads of raw bytes, which `request` does not send). */
export function csrfHeaders(): Record<string, string> {
  return csrfToken ? { 'X-CSRF-Token': csrfToken } : {};
}
