// The guest an OCTo booking is for. Name, e-mail and phone live in the booking's customer columns (so the
// dashboard shows OCTo bookings like any other); the contact fields bookings has no column for (notes,
// country, postal code, locales) in octo_bookings.contact. OCTo sends contact details piecemeal (some at
// reservation, the rest at confirmation or in an update), so each call changes only the fields it names.
import { guestLanguage } from '../../lib/guest-messages.js';
import type { BookingDetails, BookingRecord } from '../../bookings/index.js';
import { requiredContactFieldsOf } from '../../catalog/service.js';
import type { ActivityRow } from '../../catalog/index.js';
import { OctoError } from '../errors.js';
import type { OctoBookingRow } from './store.js';
import type { BookingContactBody, Contact } from './schemas.js';

/** The customer columns' values ('' where the reseller has not said yet) and the other contact fields. */
export interface Guest {
  firstName: string;
  lastName: string;
  emailAddress: string;
  phoneNumber: string;
  notes: string | null;
  country: string | null;
  postalCode: string | null;
  locales: string[];
}

type Extras = Pick<Guest, 'notes' | 'country' | 'postalCode' | 'locales'>;

export const NO_GUEST: Guest = {
  firstName: '',
  lastName: '',
  emailAddress: '',
  phoneNumber: '',
  notes: null,
  country: null,
  postalCode: null,
  locales: [],
};

const extrasOf = (octo: Pick<OctoBookingRow, 'contact'>): Extras => ({ ...NO_GUEST, ...(JSON.parse(octo.contact) as Partial<Extras>) });

export const guestOf = (record: BookingRecord, octo: Pick<OctoBookingRow, 'contact'>): Guest => {
  const { notes, country, postalCode, locales } = extrasOf(octo);
  return {
    firstName: record.customer_first_name,
    lastName: record.customer_last_name,
    emailAddress: record.customer_email,
    phoneNumber: record.customer_phone,
    notes,
    country,
    postalCode,
    locales,
  };
};

const orNull = (text: string | null | undefined): string | null => (text ? text : null);

/** The guest as OCTo shows a contact. */
export function toContact(guest: Guest): Contact {
  const fullName = [guest.firstName, guest.lastName].filter(Boolean).join(' ');
  return {
    fullName: orNull(fullName),
    firstName: orNull(guest.firstName),
    lastName: orNull(guest.lastName),
    emailAddress: orNull(guest.emailAddress),
    phoneNumber: orNull(guest.phoneNumber),
    locales: guest.locales,
    postalCode: guest.postalCode,
    country: guest.country,
    notes: guest.notes,
  };
}

/** The guest with the fields `contact` names changed; a fullName alone fills first and last name. */
export function withContact(guest: Guest, contact: BookingContactBody | undefined): Guest {
  if (!contact) return guest;
  const next = { ...guest };
  for (const field of ['firstName', 'lastName', 'emailAddress', 'phoneNumber'] as const) {
    if (contact[field] !== undefined) next[field] = (contact[field] ?? '').trim();
  }
  for (const field of ['notes', 'country', 'postalCode'] as const) {
    if (contact[field] !== undefined) next[field] = contact[field]?.trim() || null;
  }
  if (contact.locales !== undefined) next.locales = contact.locales;
  const fullName = contact.fullName?.trim();
  if (fullName && contact.firstName === undefined && contact.lastName === undefined) {
    const split = fullName.lastIndexOf(' ');
    next.firstName = split > 0 ? fullName.slice(0, split).trim() : fullName;
    next.lastName = split > 0 ? fullName.slice(split + 1) : '';
  }
  return next;
}

const given = (guest: Guest, field: string): boolean => {
  const value = guest[field as keyof Guest];
  return Array.isArray(value) ? value.length > 0 : value !== null && value !== '';
};

/** A confirmed booking must carry the activity's requiredContactFields (OCTo's option.requiredContactFields). */
export function requireContactFields(guest: Guest, activity: ActivityRow): void {
  const missing = requiredContactFieldsOf(activity).filter((field) => !given(guest, field));
  if (missing.length > 0) {
    throw OctoError.badRequest(`The contact must give ${missing.map((field) => `contact.${field}`).join(', ')} to confirm the booking`);
  }
}

export const guestColumns = (guest: Guest): BookingDetails => ({
  customer_first_name: guest.firstName,
  customer_last_name: guest.lastName,
  customer_email: guest.emailAddress,
  customer_phone: guest.phoneNumber,
  // The guest's e-mails speak the contact's first locale when slotbook speaks it, else English (docs/emails.md).
  ...(guest.locales.length > 0 && { locale: guestLanguage(guest.locales[0]) }),
});

/** octo_bookings.contact: what the customer columns cannot hold. */
export const extrasColumn = (guest: Guest): string =>
  JSON.stringify({ notes: guest.notes, country: guest.country, postalCode: guest.postalCode, locales: guest.locales } satisfies Extras);
