// Which ticket types of an activity Viator may sell, and as which of Viator's ticket types: the operator's
// choice, else the band its own category implies by Viator's suggested mapping (student: YOUTH, military:
// SENIOR as a veteran, other: ADULT as "everyone"; a family ticket has none, Viator prices it per UNIT
// only where the operator says so). Pure, so that the admin API (which says why per ticket type) and the
// endpoints (which sell only what is offered) decide alike.
import type { TicketTypeRow } from '../catalog/index.js';
import { PERSON_BANDS, TICKET_TYPES, type ViatorTicketType } from './schemas.js';

const DEFAULT_BAND: Record<string, ViatorTicketType | undefined> = {
  adult: 'ADULT',
  child: 'CHILD',
  youth: 'YOUTH',
  infant: 'INFANT',
  senior: 'SENIOR',
  student: 'YOUTH',
  military: 'SENIOR',
  other: 'ADULT',
};

/** The operator's explicit "not on Viator". */
export const NOT_OFFERED = 'NONE';

export interface OfferedBand {
  type: TicketTypeRow;
  band: ViatorTicketType;
  /** Seats one ticket takes (0 for one that takes none, e.g. an infant on a lap). */
  seatsPerTicket: number;
}

export interface BandDecision {
  type: TicketTypeRow;
  band: ViatorTicketType | null;
  /** Whether the band is the operator's choice rather than the default. */
  chosen: boolean;
  offered: boolean;
  /** Why it is not offered; null when it is. */
  reason: string | null;
}

export const isViatorTicketType = (value: string): value is ViatorTicketType => (TICKET_TYPES as readonly string[]).includes(value);

/** Decides every ticket type of one activity, in the types' order (the first keeps a contested band). */
export function decideBands(types: TicketTypeRow[], choices: Map<number, string>): BandDecision[] {
  const ordered = [...types].sort((a, b) => a.position - b.position || a.id - b.id);
  const decisions: BandDecision[] = ordered.map((type) => {
    const choice = choices.get(type.id);
    if (choice === NOT_OFFERED) return { type, band: null, chosen: true, offered: false, reason: 'The operator chose not to offer it on Viator' };
    const band = choice !== undefined && isViatorTicketType(choice) ? choice : (DEFAULT_BAND[type.category] ?? null);
    if (band === null) {
      return {
        type,
        band: null,
        chosen: false,
        offered: false,
        reason: `Its category "${type.category}" has no Viator age band (Viator supports no family prices): choose one of ${TICKET_TYPES.join(', ')}`,
      };
    }
    if (band !== 'UNIT' && type.people !== 1) {
      return {
        type,
        band,
        chosen: choice !== undefined,
        offered: false,
        reason: `One ticket admits ${type.people} people, and Viator counts persons in ${band}: map it to UNIT (a price per group)`,
      };
    }
    return { type, band, chosen: choice !== undefined, offered: true, reason: null };
  });

  const taken = new Map<ViatorTicketType, TicketTypeRow>();
  for (const decision of decisions.filter((d) => d.offered)) {
    const holder = taken.get(decision.band!);
    if (holder) refuse(decision, `Ticket type "${holder.code}" already sells as ${decision.band} (Viator prices one ticket type per age band)`);
    else taken.set(decision.band!, decision.type);
  }
  // Viator prices an event per person or per unit, never both.
  if (taken.has('UNIT')) {
    for (const decision of decisions.filter((d) => d.offered && d.band !== 'UNIT')) {
      refuse(decision, 'The activity sells UNIT tickets on Viator, and a product priced per unit sells units only');
    }
  }
  // A type that must come with another (a child with an adult) only while that one is offered too.
  for (let changed = true; changed; ) {
    changed = false;
    for (const decision of decisions.filter((d) => d.offered && d.type.requires_code !== null)) {
      const companion = decisions.find((d) => d.type.code === decision.type.requires_code);
      if (!companion?.offered) {
        refuse(decision, `It is sold only with ticket type "${decision.type.requires_code}", which is not offered on Viator`);
        changed = true;
      }
    }
  }
  return decisions;
}

function refuse(decision: BandDecision, reason: string): void {
  decision.offered = false;
  decision.reason = reason;
}

/** The offered ticket types of one activity with their bands. */
export function offeredBands(types: TicketTypeRow[], choices: Map<number, string>): OfferedBand[] {
  return decideBands(types, choices)
    .filter((d) => d.offered)
    .map((d) => ({ type: d.type, band: d.band!, seatsPerTicket: d.type.takes_seat === 1 ? d.type.people : 0 }));
}

export const isPersonBand = (band: string): boolean => (PERSON_BANDS as readonly string[]).includes(band);
