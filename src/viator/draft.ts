// The one place where Viator's requests become slotbook's booking (the domain's BookingDraft): Viator's ticket types and traveller
// mixes as the activity's ticket lines (through its offered age bands), the lead traveller as the
// booking's customer, and what Viator says of the booking (questions, pick-up, special requirements) as
// its note. Whether a mix may be sold is the catalogue's rule (checkMix), never decided here.
import type { TimeslotRow } from '../availability/index.js';
import type { BookingDraft } from '../bookings/index.js';
import { checkMix, type TicketMix } from '../catalog/tickets/mix.js';
import type { TicketTypeRow } from '../catalog/index.js';
import type { ViatorProduct } from './products.js';
import type { BookingRequestData, TicketRequest, Traveller } from './schemas.js';

export interface TicketLine {
  code: string;
  quantity: number;
}

/** Lines of the activity's ticket types, or why Viator's tickets cannot be one of its bookings. */
export type Lines = { lines: TicketLine[]; unsupported?: undefined } | { lines?: undefined; unsupported: string };

/** Viator's tickets ({type, quantity}) as the activity's ticket lines through its offered bands. */
export function linesOf(product: ViatorProduct, tickets: TicketRequest[]): Lines {
  const byBand = new Map(product.offered.map((o) => [o.band as string, o]));
  const quantities = new Map<string, number>();
  for (const ticket of tickets) {
    const offer = byBand.get(ticket.type);
    if (!offer) {
      const sold = product.offered.map((o) => o.band).join(', ');
      return { unsupported: `Ticket type ${ticket.type} is not sold for product option ${product.optionId} (it sells ${sold})` };
    }
    quantities.set(offer.type.code, (quantities.get(offer.type.code) ?? 0) + ticket.quantity);
  }
  const lines = [...quantities].map(([code, quantity]) => ({ code, quantity })).filter((line) => line.quantity > 0);
  if (lines.length === 0) return { unsupported: 'At least one ticket must be asked for' };
  return { lines };
}

/** The mix the activity would sell for these lines (the catalogue's rule), or why not. */
export function mixOf(product: ViatorProduct, types: TicketTypeRow[], lines: TicketLine[]): { mix?: TicketMix; problem?: string } {
  const { mix, problems } = checkMix(types, lines, product.activity.max_participants_per_booking);
  return problems.length > 0 ? { problem: problems.map((p) => p.message).join('; ') } : { mix };
}

/** For a product priced per unit: whether `travelers` fit the units asked for (Viator's totalTravelers). */
export function travelersFit(product: ViatorProduct, lines: TicketLine[], travelers: number | undefined): boolean {
  if (!product.unit || travelers === undefined) return true;
  const units = lines.reduce((sum, line) => sum + line.quantity, 0);
  return travelers <= units * product.unit.type.people;
}

/** The partner booking a reserve asks for: a hold, until the booking names its lead traveller. */
export function reserveDraftOf(product: ViatorProduct, timeslot: TimeslotRow, lines: TicketLine[], holdMinutes: number): BookingDraft {
  return {
    activityId: product.activity.public_id,
    date: timeslot.date,
    time: timeslot.time,
    tickets: lines.map((line) => ({ code: line.code, quantity: line.quantity })),
    customer: { firstName: 'Viator', lastName: 'reservation', email: '', phone: '' },
    holdMinutes,
  };
}

/** A booking Viator sends without a hold (v1's booking): confirmed at once, for the lead traveller. */
export function directDraftOf(product: ViatorProduct, timeslot: TimeslotRow, lines: TicketLine[], data: BookingRequestData): BookingDraft {
  const customer = customerOf(data);
  return {
    activityId: product.activity.public_id,
    date: timeslot.date,
    time: timeslot.time,
    tickets: lines.map((line) => ({ code: line.code, quantity: line.quantity })),
    customer: {
      firstName: customer.customer_first_name || 'Viator',
      lastName: customer.customer_last_name,
      email: customer.customer_email,
      phone: customer.customer_phone,
    },
    paymentReference: data.BookingReference,
  };
}

const BANDS: Record<Traveller['AgeBand'], TicketRequest['type']> = {
  Adult: 'ADULT',
  Child: 'CHILD',
  Youth: 'YOUTH',
  Infant: 'INFANT',
  Senior: 'SENIOR',
};

/**
 * The tickets of a v1 booking or amendment: its TravellerMix (counts per age band), else its travellers'
 * age bands. For a product priced per unit the travellers make units: as many as it takes to seat them
 * (Viator: "if the number of Adult <= maxTravelers then book 1 unit").
 */
export function ticketsOfTravellers(product: ViatorProduct, data: Pick<BookingRequestData, 'TravellerMix' | 'Traveller'>): TicketRequest[] {
  const counts = new Map<TicketRequest['type'], number>();
  const mix = data.TravellerMix;
  if (mix) {
    for (const [band, type] of Object.entries(BANDS)) {
      const value = Number(mix[band as Traveller['AgeBand']] ?? 0);
      if (value > 0) counts.set(type, value);
    }
  }
  if (counts.size === 0)
    for (const traveller of data.Traveller) counts.set(BANDS[traveller.AgeBand], (counts.get(BANDS[traveller.AgeBand]) ?? 0) + 1);
  if (product.unit) {
    const travellers = [...counts.values()].reduce((sum, n) => sum + n, 0);
    return [{ type: 'UNIT', quantity: Math.max(1, Math.ceil(travellers / product.unit.type.people)) }];
  }
  return [...counts].map(([type, quantity]) => ({ type, quantity }));
}

/** The lead traveller (the one Viator marks, else the first) as the booking's customer; Viator's masked e-mail and contact. */
export function customerOf(data: Pick<BookingRequestData, 'Traveller' | 'ContactEmail' | 'ContactDetail'>) {
  const lead = data.Traveller.find((t) => t.LeadTraveller) ?? data.Traveller[0]!;
  return {
    customer_first_name: lead.GivenName.trim(),
    customer_last_name: lead.Surname.trim(),
    customer_email: (data.ContactEmail ?? '').trim(),
    customer_phone: (data.ContactDetail?.ContactValue ?? '').trim(),
  };
}

/** What Viator tells the operator about the booking, as one note; null when it says nothing. */
export function noteOf(
  data: Pick<BookingRequestData, 'RequiredInfo' | 'SpecialRequirement' | 'PickupPoint'> & { SupplierNote?: string },
): string | null {
  const parts = [
    ...(data.RequiredInfo?.Question ?? []).map((q) => `${q.QuestionText.trim()}: ${q.QuestionAnswer.trim()}`),
    data.SpecialRequirement?.trim() && `Special requirement: ${data.SpecialRequirement.trim()}`,
    data.PickupPoint?.trim() && `Pick-up: ${data.PickupPoint.trim()}`,
    data.SupplierNote?.trim() && `Note from Viator: ${data.SupplierNote.trim()}`,
  ].filter((part): part is string => !!part);
  return parts.length > 0 ? parts.join('\n').slice(0, 4000) : null;
}

/** The departure time a v1 request names (TourDepartureTime "09:00:00" or "09:00"), if any. */
export const departureTimeOf = (data: Pick<BookingRequestData, 'TourOptions'>): string | undefined =>
  data.TourOptions?.TourDepartureTime?.slice(0, 5);

/** Whether two ticket lists ask for the same (order and zero quantities aside). */
export function sameTickets(a: TicketRequest[], b: TicketRequest[]): boolean {
  const key = (tickets: TicketRequest[]) =>
    JSON.stringify(
      tickets
        .filter((t) => t.quantity > 0)
        .map((t) => [t.type, t.quantity])
        .sort(),
    );
  return key(a) === key(b);
}
