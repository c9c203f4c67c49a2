// The rules a set of ticket types must satisfy, checked on every change against the set as it would be
// after it, reporting every failing field of the request at once.
import { ValidationFailed, type FieldError } from '../../http/errors.js';
import { canonicalLocale } from '../../lib/locale.js';
import { MAX_TICKET_TYPES, TICKET_CATEGORIES, type TicketCategory } from './schemas.js';

/** A ticket type as the rules see it: the fields an operator edits, after defaults. */
export interface TicketFields {
  /** The row ID, or undefined for the type being created. */
  id?: number;
  code: string;
  name: string;
  translations: Record<string, { Name: string }>;
  price: number;
  category: TicketCategory;
  minAge: number | null;
  maxAge: number | null;
  people: number;
  takesSeat: boolean;
  minPerBooking: number;
  maxPerBooking: number | null;
  requires: string | null;
  isDefault: boolean;
  position: number;
}

/** The category a code names, if it names one ("child" -> child), else other. */
export const categoryOf = (code: string): TicketCategory =>
  (TICKET_CATEGORIES as readonly string[]).includes(code) ? (code as TicketCategory) : 'other';

/**
 * Checks `changed` (the type a request creates or changes) within `all` (every live type of the activity
 * as it would be afterwards, `changed` included) and returns it with a trimmed name and canonical
 * translation tags. Field names are those of the request body.
 */
export function checkTicketType(changed: TicketFields, all: TicketFields[]): TicketFields {
  const errors: FieldError[] = [];
  const name = changed.name.trim();
  if (name === '') errors.push({ field: 'Name', message: 'Name must not be blank' });
  if (all.length > MAX_TICKET_TYPES) errors.push({ field: 'Type', message: `An activity has at most ${MAX_TICKET_TYPES} ticket types` });
  if (all.some((other) => other !== changed && other.code === changed.code)) {
    errors.push({ field: 'Type', message: `The activity already has a ticket type "${changed.code}"` });
  }
  if (changed.minAge !== null && changed.maxAge !== null && changed.minAge > changed.maxAge) {
    errors.push({ field: 'MaxAge', message: 'MaxAge must not be below MinAge' });
  }
  if (changed.maxPerBooking !== null && changed.minPerBooking > changed.maxPerBooking) {
    errors.push({ field: 'MaxPerBooking', message: 'MaxPerBooking must not be below MinPerBooking' });
  }
  if (changed.requires !== null) {
    if (changed.requires === changed.code) errors.push({ field: 'Requires', message: 'A ticket type cannot require itself' });
    else if (!all.some((other) => other.code === changed.requires)) {
      errors.push({ field: 'Requires', message: `The activity has no ticket type "${changed.requires}"` });
    }
  }
  if (changed.isDefault && (!changed.takesSeat || changed.people !== 1)) {
    errors.push({ field: 'Default', message: 'The default type (what Participants books) must take a seat and admit one person' });
  }
  if (changed.isDefault && changed.requires !== null) {
    errors.push({ field: 'Default', message: 'The default type cannot require another type: Participants books it alone' });
  }
  const translations: Record<string, { Name: string }> = {};
  for (const [tag, translation] of Object.entries(changed.translations)) {
    const canonical = canonicalLocale(tag);
    if (canonical === undefined) errors.push({ field: `Translations.${tag}`, message: `"${tag}" is not a BCP 47 language tag such as de or de-CH` });
    else if (Object.hasOwn(translations, canonical))
      errors.push({ field: `Translations.${tag}`, message: `"${tag}" names the same language as another translation` });
    else if (translation.Name.trim() === '') errors.push({ field: `Translations.${tag}.Name`, message: 'A translated Name must not be blank' });
    else translations[canonical] = { Name: translation.Name.trim() };
  }
  if (errors.length > 0) throw new ValidationFailed(errors);
  return { ...changed, name, translations };
}

/** Types that require `code`: they would lose what they require if it went. */
export const dependentsOf = (code: string, all: TicketFields[]): TicketFields[] => all.filter((other) => other.requires === code);
