// The one clock the rules read. Every rule takes `now` as an argument so tests can pin it; callers at the
// edge ask here.
//
// Time is stored in two units: Unix seconds and Unix milliseconds, per column (src/db/schema.ts says which).
// The brands below make the unit part of the type, so a seconds value written to a milliseconds column (or
// passed where milliseconds are asked for) does not compile. They are plain numbers at runtime: a row read
// from the database carries its brand without any conversion. Arithmetic drops the brand (a duration is a
// plain number), so deadlines are built with addSeconds/addMillis, and a number from outside (a request, a
// provider's event, a test) enters with asUnixSeconds/asUnixMillis.
//
// TypeScript does not check the operands of < and > against each other: a comparison of seconds with
// milliseconds still compiles. Compare values of one brand, and in SQL let Kysely check the column's unit.

declare const unit: unique symbol;

/** Whole seconds since 1970-01-01T00:00:00Z. */
export type UnixSeconds = number & { readonly [unit]: 's' };
/** Milliseconds since 1970-01-01T00:00:00Z. */
export type UnixMillis = number & { readonly [unit]: 'ms' };

/** Unix milliseconds now. */
export const nowMillis = (): UnixMillis => Date.now() as UnixMillis;

/** Unix seconds now (or of `nowMs`), rounded down. */
export const unixNow = (nowMs: UnixMillis = nowMillis()): UnixSeconds => toSeconds(nowMs);

/** Milliseconds to whole seconds (rounded down, as unixNow). */
export const toSeconds = (ms: UnixMillis): UnixSeconds => Math.floor(ms / 1000) as UnixSeconds;

/** Seconds to milliseconds. */
export const toMillis = (s: UnixSeconds): UnixMillis => (s * 1000) as UnixMillis;

/** A number from outside (a request, a provider, a test) that is known to be Unix seconds. */
export const asUnixSeconds = (n: number): UnixSeconds => n as UnixSeconds;

/** A number from outside (a request, a provider, a test) that is known to be Unix milliseconds. */
export const asUnixMillis = (n: number): UnixMillis => n as UnixMillis;

/** The time `seconds` after (or before, when negative) `at`. */
export const addSeconds = (at: UnixSeconds, seconds: number): UnixSeconds => (at + seconds) as UnixSeconds;

/** The time `ms` after (or before, when negative) `at`. */
export const addMillis = (at: UnixMillis, ms: number): UnixMillis => (at + ms) as UnixMillis;

/** The latest of times of one unit (Math.max, keeping the unit). */
export const latest = <T extends UnixSeconds | UnixMillis>(first: T, ...rest: T[]): T => Math.max(first, ...rest) as T;

/** The earliest of times of one unit (Math.min, keeping the unit). */
export const earliest = <T extends UnixSeconds | UnixMillis>(first: T, ...rest: T[]): T => Math.min(first, ...rest) as T;
