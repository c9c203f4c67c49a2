// The meters the platform fills itself (api.md 2.8, contract "Platform events"). Clients may not post to
// them, so that a built-in meter counts platform events and nothing else.

export const BUILT_IN_METERS = ['order-completed', 'waitlist-notified', 'workflow-email-sent'] as const;
export type BuiltInMeter = (typeof BUILT_IN_METERS)[number];

export const MAX_METER_LENGTH = 255;

/** Compared trimmed and case-insensitively, so " Order-Completed " is reserved too. */
export function isReservedMeter(meter: string): boolean {
  return (BUILT_IN_METERS as readonly string[]).includes(meter.trim().toLowerCase());
}
