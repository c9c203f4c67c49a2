// The guest an OCTo booking is for, kept in the booking's customer columns so that the dashboard shows
// OCTo bookings like any other. OCTo sends contact details piecemeal (some at reservation, the rest at
// confirmation or in an update), so each call changes only the fields it names.
import type { BookingDetails, BookingRecord } from '../bookings/store.js';
import { OctoError } from './errors.js';
import type { BookingContactBody } from './schemas.js';
import { REQUIRED_CONTACT_FIELDS } from './terms.js';

/** The customer columns' values; '' where the reseller has not said yet. */
export interface Guest {
  firstName: string;
  lastName: string;
  emailAddress: string;
  phoneNumber: string;
}

export const NO_GUEST: Guest = { firstName: '', lastName: '', emailAddress: '', phoneNumber: '' };

export const guestOf = (record: BookingRecord): Guest => ({
  firstName: record.customer_first_name,
  lastName: record.customer_last_name,
  emailAddress: record.customer_email,
  phoneNumber: record.customer_phone,
});

/** The guest with the fields `contact` names changed; a fullName alone fills first and last name. */
export function withContact(guest: Guest, contact: BookingContactBody | undefined): Guest {
  if (!contact) return guest;
  const next = { ...guest };
  for (const field of ['firstName', 'lastName', 'emailAddress', 'phoneNumber'] as const) {
    if (contact[field] !== undefined) next[field] = (contact[field] ?? '').trim();
  }
  const fullName = contact.fullName?.trim();
  if (fullName && contact.firstName === undefined && contact.lastName === undefined) {
    const split = fullName.lastIndexOf(' ');
    next.firstName = split > 0 ? fullName.slice(0, split).trim() : fullName;
    next.lastName = split > 0 ? fullName.slice(split + 1) : '';
  }
  return next;
}

/** A confirmed booking must say who is coming: the option's requiredContactFields. */
export function requireContactFields(guest: Guest): void {
  const missing = REQUIRED_CONTACT_FIELDS.filter((field) => guest[field] === '');
  if (missing.length > 0) {
    throw OctoError.badRequest(`The contact must give ${missing.map((field) => `contact.${field}`).join(', ')} to confirm the booking`);
  }
}

export const guestColumns = (guest: Guest): BookingDetails => ({
  customer_first_name: guest.firstName,
  customer_last_name: guest.lastName,
  customer_email: guest.emailAddress,
  customer_phone: guest.phoneNumber,
});
