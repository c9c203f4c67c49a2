// The meters the platform fills itself (api.md 2.8, contract "Platform events"), and the rules that keep a
// client's meter name from passing for one of them. Clients may not post to a built-in meter, so that it
// counts platform events and nothing else; nor to a name that reads like one on the operator's screen
// or in a spreadsheet.

export const BUILT_IN_METERS = ['order-completed', 'waitlist-notified', 'workflow-email-sent'] as const;
export type BuiltInMeter = (typeof BUILT_IN_METERS)[number];

export const MAX_METER_LENGTH = 255;

/**
 * Characters a meter name may not hold: control and format characters (Unicode Cc and Cf: U+200B and the
 * other zero-width characters, bidirectional controls, the soft hyphen), private-use, surrogate and
 * unassigned code points, line and paragraph separators, and the other characters that show nothing:
 * variation selectors, the combining grapheme joiner, Hangul fillers. Spaces other than U+0020 are refused
 * too (a no-break space reads as a space).
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cs}\p{Cn}\p{Zl}\p{Zp}\u034F\u115F\u1160\u3164\uFFA0\uFE00-\uFE0F\u{E0100}-\u{E01EF}]|[^\P{Zs} ]/u;

/** The first character a meter name may not hold, as U+XXXX, or undefined. */
export function invisibleCharacter(meter: string): string | undefined {
  const found = INVISIBLE.exec(meter)?.[0];
  return found === undefined ? undefined : `U+${found.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Look-alikes of the characters of the built-in names (a to w and the dash), from Unicode's confusables
 * (UTS #39), for the scripts people actually mix in: Cyrillic, Greek, Armenian, IPA and a few symbols.
 * Fullwidth, mathematical and other compatibility forms need no entry: NFKC folds them first. The letters
 * i, l, I, 1 and | share one class (after case folding, I is i), as do o and 0; the separators - _ . and
 * space and the dashes share another, so "Order Completed" and "order_completed" are reserved too.
 */
const LOOK_ALIKES: Record<string, string> = {
  a: 'аɑα⍺',
  c: 'сϲᴄꮯ',
  d: 'ԁᑯ',
  e: 'еҽ℮',
  f: 'ꞙ',
  l: 'il1|іıɩιӏǀƖꙇ',
  n: 'ո',
  o: '0оοօᴏ०০๐໐',
  p: 'рρ⍴',
  r: 'гᴦ',
  s: 'ѕꜱ',
  w: 'ԝѡ',
  '-': '_. \u2010\u2011\u2012\u2013\u2014\u2015\u2212\u2043\u02D7\u06D4\u2796',
};
const CLASS_OF = new Map<string, string>(Object.entries(LOOK_ALIKES).flatMap(([target, alikes]) => [...alikes].map((alike) => [alike, target])));
// Two letters that read as one when set close together.
const DIGRAPHS: [RegExp, string][] = [
  [/rn/g, 'm'],
  [/vv/g, 'w'],
  [/cl/g, 'd'],
];

/** A name as it reads: NFKC, case-folded, every look-alike replaced by the one it passes for. */
export function meterSkeleton(meter: string): string {
  const folded = meter.trim().normalize('NFKC').toLowerCase().normalize('NFKC');
  let skeleton = '';
  for (const character of folded) skeleton += CLASS_OF.get(character) ?? character;
  for (const [pattern, replacement] of DIGRAPHS) skeleton = skeleton.replace(pattern, replacement);
  return skeleton;
}

const RESERVED = new Set(BUILT_IN_METERS.map(meterSkeleton));

/** Whether the name is, or reads as, a built-in meter: " Order-Completed ", "order‐completed" (U+2010), "оrder-completed" (Cyrillic о). */
export function isReservedMeter(meter: string): boolean {
  return RESERVED.has(meterSkeleton(meter));
}
