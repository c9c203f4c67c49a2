// The booking pages' only way to the service: the public shop API (/api/v2/shop/{OperatorID}), the same
// one any storefront could use. Problems (RFC 7807) become ShopError with their status and field errors.
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

/** Uploads a waiver file to the basket, reporting progress (0 to 1); answers its FileID. */
export function upload(token: string, file: File, progress: (fraction: number) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `${prefix}/baskets/${token}/uploads`);
    request.setRequestHeader('content-type', file.type || 'application/octet-stream');
    request.upload.onprogress = (event) => event.lengthComputable && progress(event.loaded / event.total);
    request.onerror = () => reject(new ShopError(0, '', 'network'));
    request.onload = () => {
      const parsed = JSON.parse(request.responseText || '{}') as { data?: { FileID: string }; detail?: string; type?: string };
      if (request.status === 201 && parsed.data) resolve(parsed.data.FileID);
      else reject(new ShopError(request.status, parsed.detail ?? '', (parsed.type ?? '').split('/').pop() ?? ''));
    };
    request.send(file);
  });
}

export interface TicketType {
  Type: string;
  Name: string;
  Price: number;
  People: number;
  TakesSeat: boolean;
  MinPerBooking: number;
  MaxPerBooking: number | null;
  Default: boolean;
}

export interface Activity {
  ActivityID: string;
  Name: string;
  Description: string;
  DurationMinutes: number;
  Timezone: string;
  Currency: string;
  UnitPrice: number;
  MaxParticipantsPerBooking: number;
  TicketTypes: TicketType[];
  PriceFrom: number;
  NextAvailableDate: string | null;
}

export interface Profile {
  Name: string;
  Slug: string;
  BrandColour: string | null;
  LogoUrl: string | null;
}

export interface CalendarDay {
  Date: string;
  Timeslots: number;
  Available: number;
  SoldOut: boolean;
}

export interface Timeslot {
  Time: string;
  EndTime: string;
  StartsAt: string;
  Available: number;
}

export interface Question {
  ID: number;
  Question: string;
  Type: 'text' | 'boolean' | 'select' | 'date' | 'file' | 'signature';
  Required: boolean;
  Options: string[];
}

export interface Customer {
  FirstName: string;
  LastName: string;
  Email: string;
  Phone: string;
}

export interface BasketItem {
  BookingReference: string;
  ActivityID: string;
  ActivityName: string;
  Date: string;
  Time: string;
  /** ISO 8601 with the activity's offset that day, e.g. 2026-12-04T09:00:00+01:00. */
  StartsAt: string;
  Participants: number;
  Tickets: { Type: string; Name?: string; Quantity: number; Amount: number }[];
  Amount: number;
  Status: string;
  HoldExpiresAt: string | null;
}

export interface Basket {
  BasketToken: string;
  Status: 'open' | 'paid';
  Currency: string | null;
  Total: number;
  Customer: Customer;
  Items: BasketItem[];
  PaymentReference: string | null;
  CheckoutStartedAt: string | null;
  PaidAt: string | null;
}

export interface ManagedBooking {
  BookingReference: string;
  Status: string;
  ActivityName: string;
  Timezone: string;
  Date: string;
  Time: string;
  StartsAt: string;
  Participants: number;
  Currency: string;
  Total: number;
  Cancellation: { Allowed: boolean; Until: string | null; Refusal: 'not-confirmed' | 'not-allowed' | 'too-late' | null };
}
