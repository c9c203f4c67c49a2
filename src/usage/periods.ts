// Which total rows add up to a range of UTC days. Whole months come from the monthly totals; a month the
// range covers only in part is read as its days in the range, or as the month's total minus its days
// outside the range, whichever is fewer days. So a year reads about 12 monthly rows per meter and at most
// 15 days of each edge month (none for "the last 365 days up to today": the days after today are empty).

/** Inclusive ranges: months YYYY-MM, days YYYY-MM-DD. */
export interface TotalsPlan {
  months: [string, string] | undefined;
  addDays: [string, string][];
  subtractDays: [string, string][];
}

const DAY_MS = 86_400_000;

/** `from` and `to` are calendar dates, from <= to. */
export function planTotals(from: string, to: string): TotalsPlan {
  const first = monthOf(from);
  const last = monthOf(to);
  if (first.month === last.month) {
    const inside = dayNumber(to) - dayNumber(from) + 1;
    if (inside <= first.days - inside) return { months: undefined, addDays: [[from, to]], subtractDays: [] };
    return { months: [first.month, first.month], addDays: [], subtractDays: outside(first, from, to) };
  }
  const plan: TotalsPlan = { months: undefined, addDays: [], subtractDays: [] };
  let fromMonth = first.month;
  let toMonth = last.month;
  // Days of the first month in the range: from .. its end; outside: its start .. the day before from.
  const firstInside = dayNumber(first.end) - dayNumber(from) + 1;
  if (firstInside <= first.days - firstInside) {
    plan.addDays.push([from, first.end]);
    fromMonth = monthOf(plusDays(first.end, 1)).month;
  } else plan.subtractDays.push(...outside(first, from, first.end));
  const lastInside = dayNumber(to) - dayNumber(last.start) + 1;
  if (lastInside <= last.days - lastInside) {
    plan.addDays.push([last.start, to]);
    toMonth = monthOf(plusDays(last.start, -1)).month;
  } else plan.subtractDays.push(...outside(last, last.start, to));
  if (fromMonth <= toMonth) plan.months = [fromMonth, toMonth];
  return plan;
}

interface Month {
  month: string;
  start: string;
  end: string;
  days: number;
}

function monthOf(day: string): Month {
  const year = Number(day.slice(0, 4));
  const month = Number(day.slice(5, 7));
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  const prefix = day.slice(0, 7);
  return { month: prefix, start: `${prefix}-01`, end: `${prefix}-${String(days).padStart(2, '0')}`, days };
}

/** The days of `month` outside from..to (both inside the month): up to two ranges. */
function outside(month: Month, from: string, to: string): [string, string][] {
  const ranges: [string, string][] = [];
  if (from > month.start) ranges.push([month.start, plusDays(from, -1)]);
  if (to < month.end) ranges.push([plusDays(to, 1), month.end]);
  return ranges;
}

const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;
const plusDays = (day: string, days: number) => new Date((dayNumber(day) + days) * DAY_MS).toISOString().slice(0, 10);
