// What of an activity GetYourGuide may sell: each ticket type's GYG category (the operator's choice, else
// the one its own category implies), or why it is not offered. Pure, so that the admin API (which says
// why per ticket type) and the supplier endpoints (which sell only what is offered) decide alike.
import type { TicketTypeRow } from '../catalog/index.js';
import { GYG_CATEGORIES, type GygCategory } from './schemas.js';

/** slotbook's ticket categories with a GYG equivalent; family and other have none (GROUP is the operator's choice). */
const DEFAULT_CATEGORY: Record<string, GygCategory | undefined> = {
  adult: 'ADULT',
  child: 'CHILD',
  youth: 'YOUTH',
  infant: 'INFANT',
  senior: 'SENIOR',
  student: 'STUDENT',
  military: 'MILITARY',
};

/** The operator's explicit "not on GetYourGuide". */
export const NOT_OFFERED = 'NONE';

export interface OfferedType {
  type: TicketTypeRow;
  category: GygCategory;
  /** Seats one ticket takes (0 for a ticket that takes none, e.g. an infant on a lap). */
  seatsPerTicket: number;
}

export interface TypeDecision {
  type: TicketTypeRow;
  category: GygCategory | null;
  /** Whether the category is the operator's choice rather than the default. */
  chosen: boolean;
  offered: boolean;
  /** Why it is not offered; null when it is. */
  reason: string | null;
}

export const isGygCategory = (value: string): value is GygCategory => (GYG_CATEGORIES as readonly string[]).includes(value);

/** Decides every ticket type of one activity, in the types' order (the first keeps a contested category). */
export function decideTypes(types: TicketTypeRow[], choices: Map<number, string>): TypeDecision[] {
  const ordered = [...types].sort((a, b) => a.position - b.position || a.id - b.id);
  const decisions: TypeDecision[] = ordered.map((type) => {
    const choice = choices.get(type.id);
    if (choice === NOT_OFFERED)
      return { type, category: null, chosen: true, offered: false, reason: 'The operator chose not to offer it on GetYourGuide' };
    const category = choice !== undefined && isGygCategory(choice) ? choice : (DEFAULT_CATEGORY[type.category] ?? null);
    if (category === null) {
      return {
        type,
        category: null,
        chosen: false,
        offered: false,
        reason: `Its category "${type.category}" has no GetYourGuide equivalent: choose one of ${GYG_CATEGORIES.join(', ')}`,
      };
    }
    if (category !== 'GROUP' && type.people !== 1) {
      return {
        type,
        category,
        chosen: choice !== undefined,
        offered: false,
        reason: `One ticket admits ${type.people} people, and GetYourGuide counts persons in ${category}: map it to GROUP`,
      };
    }
    return { type, category, chosen: choice !== undefined, offered: true, reason: null };
  });

  const taken = new Map<GygCategory, TicketTypeRow>();
  for (const decision of decisions.filter((d) => d.offered)) {
    const holder = taken.get(decision.category!);
    if (holder) refuse(decision, `Ticket type "${holder.code}" already sells as ${decision.category} (GetYourGuide asks by category)`);
    else taken.set(decision.category!, decision.type);
  }
  // GYG sells a product either by groups or by persons, never both.
  if (taken.has('GROUP')) {
    for (const decision of decisions.filter((d) => d.offered && d.category !== 'GROUP')) {
      refuse(decision, 'The activity sells GROUP tickets on GetYourGuide, and a GROUP product sells groups only');
    }
  }
  // A type that must come with another (a child with an adult) only while that one is offered too.
  for (let changed = true; changed; ) {
    changed = false;
    for (const decision of decisions.filter((d) => d.offered && d.type.requires_code !== null)) {
      const companion = decisions.find((d) => d.type.code === decision.type.requires_code);
      if (!companion?.offered) {
        refuse(decision, `It is sold only with ticket type "${decision.type.requires_code}", which is not offered on GetYourGuide`);
        changed = true;
      }
    }
  }
  return decisions;
}

function refuse(decision: TypeDecision, reason: string): void {
  decision.offered = false;
  decision.reason = reason;
}

/** The offered ticket types of one activity with their categories. */
export function offeredTypes(types: TicketTypeRow[], choices: Map<number, string>): OfferedType[] {
  return decideTypes(types, choices)
    .filter((d) => d.offered)
    .map((d) => ({ type: d.type, category: d.category!, seatsPerTicket: d.type.takes_seat === 1 ? d.type.people : 0 }));
}
