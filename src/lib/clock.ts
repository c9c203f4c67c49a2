// The one clock the rules read. Every rule takes `now` as an argument so tests can pin it; callers at the
// edge ask here.

/** Unix seconds now (or of `nowMs`). */
export const unixNow = (nowMs = Date.now()): number => Math.floor(nowMs / 1000);
