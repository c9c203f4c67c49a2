// Operator slugs: the readable part of the booking pages' address (/book/{slug}). Lower-case ASCII letters,
// digits and single hyphens, 2 to 40 characters, so that it is safe in a URL path without escaping. The
// rule alone, for every layer; giving an operator a free one is operators/slug.ts.
export const SLUG_PATTERN = '^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){1,39}$';
const SLUG = new RegExp(SLUG_PATTERN);

export function isSlug(text: string): boolean {
  return SLUG.test(text);
}

/** "Müller's Kayak Tours!" → "mullers-kayak-tours"; "op" when nothing usable is left. */
export function slugify(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 32)
    .replace(/-+$/, '');
  return base.length >= 2 ? base : 'op';
}
