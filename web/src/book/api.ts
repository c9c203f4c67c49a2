// The booking pages' only way to the service: the public shop API (/api/v2/shop/{OperatorID}), the same
// one any storefront could use. Problems (RFC 7807) become ShopError with their status and field errors.
import type { Schemas } from '../api-types';

export interface FieldError {
  field: string;
  message: string;
}

export class ShopError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly kind: string,
    readonly errors: FieldError[] = [],
  ) {
    super(detail);
  }
}

let prefix = '';
export function setShop(operatorId: number): void {
  prefix = `/api/v2/shop/${operatorId}`;
}

/** The address of a shop resource, for elements that load it themselves (an image). */
export function shopUrl(path: string): string {
  return prefix + path;
}

export async function shop<T>(method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(prefix + path, {
      method,
      headers: { accept: 'application/json', ...(body !== undefined && { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ShopError(0, '', 'network');
  }
  const text = await response.text();
  const parsed = text ? (JSON.parse(text) as { data?: T; detail?: string; type?: string; errors?: FieldError[] }) : {};
  if (!response.ok)
    throw new ShopError(response.status, parsed.detail ?? response.statusText, (parsed.type ?? '').split('/').pop() ?? '', parsed.errors ?? []);
  return parsed.data as T;
}

/** Where a waiver file goes: a basket's uploads, or (completing a booking's waiver) the booking link's. */
export type UploadTarget = { basket: string } | { booking: string };

/** Uploads a waiver file, reporting progress (0 to 1); answers its FileID. */
export function upload(target: UploadTarget, file: File, progress: (fraction: number) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', 'basket' in target ? `${prefix}/baskets/${target.basket}/uploads` : `${prefix}/bookings/${target.booking}/uploads`);
    request.setRequestHeader('content-type', file.type || 'application/octet-stream');
    request.upload.onprogress = (event) => event.lengthComputable && progress(event.loaded / event.total);
    request.onerror = () => reject(new ShopError(0, '', 'network'));
    request.onload = () => {
      const parsed = JSON.parse(request.responseText || '{}') as { data?: Schemas['Upload']; detail?: string; type?: string };
      if (request.status === 201 && parsed.data) resolve(parsed.data.FileID);
      else reject(new ShopError(request.status, parsed.detail ?? '', (parsed.type ?? '').split('/').pop() ?? ''));
    };
    request.send(file);
  });
}

// ---- The shop API's records: aliases of the types generated from /openapi.json (web/src/api-types) ----

export type Storefront = Schemas['Storefront'];
export type Profile = Schemas['StorefrontProfile'];
export type Activity = Storefront['Activities'][number];
export type TicketType = Activity['TicketTypes'][number];
export type CalendarDay = Schemas['CalendarDay'];
export type Timeslot = Schemas['Timeslot'];
export type Question = Schemas['Question'];
export type Basket = Schemas['Basket'];
export type BasketItem = Basket['Items'][number];
export type Customer = Basket['Customer'];
export type ManageLink = Schemas['ManageLink'];
export type ManagedBooking = Schemas['ManagedBooking'];
export type BookingWaiver = Schemas['BookingWaiver'];
export type BalancePayment = Schemas['BalancePayment'];
