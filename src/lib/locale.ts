// BCP 47 language tags. Intl does the parsing, so "de_CH" or "" are rejected exactly as the standard says,
// and "de-ch" and "de-CH" name the same translation (tags are case-insensitive; we store the canonical form).

/** The canonical form of a BCP 47 tag ("de-ch" -> "de-CH"), or undefined when it is malformed. */
export function canonicalLocale(tag: string): string | undefined {
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch {
    return undefined;
  }
}

/**
 * The translation for the exact tag, else for its language ("de-CH" -> "de"), else undefined (the
 * default text). `locale` must already be canonical, as the keys of `translations` are.
 */
export function pickTranslation<T>(translations: Record<string, T>, locale: string): T | undefined {
  if (Object.hasOwn(translations, locale)) return translations[locale];
  const language = new Intl.Locale(locale).language;
  return Object.hasOwn(translations, language) ? translations[language] : undefined;
}
