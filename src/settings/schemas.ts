// API types of the operator's shop settings (GET/PATCH /api/v2/admin/settings, the logo upload).
import { Type, type Static } from '@sinclair/typebox';
import { EmailAddress } from '../http/schemas.js';
import { SLUG_PATTERN } from '../lib/slug.js';
import { MAX_EMBED_ORIGINS } from './rules.js';

const Email = EmailAddress();
/** A page of the operator's own website: https only (guests follow it from the booking form). */
const PageUrl = Type.String({ maxLength: 2048, pattern: '^https://[^\\s/?#]+\\.[^\\s]+$', description: 'An https address' });

export const OperatorSettings = Type.Object(
  {
    ShopName: Type.Union([Type.String(), Type.Null()], {
      description: "The name guests see on the booking pages and in e-mails; null: the operator's name",
    }),
    DisplayName: Type.String({ description: "The name guests see: ShopName, else the operator's name" }),
    Slug: Type.String({ description: "The booking pages' address: /book/{Slug}" }),
    ContactEmail: Type.Union([Email, Type.Null()], {
      description: "Where slotbook e-mails the operator (the same address as the webhook settings' ContactEmail)",
    }),
    BrandColour: Type.Union([Type.String(), Type.Null()], {
      description: "#rrggbb of buttons and headers on the booking pages and in e-mails, under white text; null: slotbook's blue",
    }),
    LogoUrl: Type.Union([Type.String(), Type.Null()], { description: "The logo's public address (it changes with the logo); null: none" }),
    AllowedEmbedOrigins: Type.Array(Type.String(), {
      description: 'Websites that may show the booking pages in a frame (the embed); empty: any website',
    }),
    TermsUrl: Type.Union([Type.String(), Type.Null()], {
      description: "The shop's terms and conditions (https); while it or PrivacyUrl is set, guests accept them before paying. null: none",
    }),
    PrivacyUrl: Type.Union([Type.String(), Type.Null()], { description: "The shop's privacy notice (https); null: none" }),
    BookingPageUrl: Type.String({ description: 'The booking pages (the preview link)' }),
    EmbedScriptUrl: Type.String({ description: 'The embed script' }),
    EmbedSnippet: Type.String({ description: "HTML to paste into the operator's website: the script tag and an example button" }),
  },
  { $id: 'OperatorSettings' },
);
export type OperatorSettings = Static<typeof OperatorSettings>;

export const OperatorSettingsChange = Type.Object(
  {
    ShopName: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()], { description: "null or empty: use the operator's name" })),
    Slug: Type.Optional(
      Type.String({
        pattern: SLUG_PATTERN,
        description:
          '2 to 40 lower-case letters, digits and single hyphens; unique among operators (409 when taken). The old slug keeps redirecting until another operator takes it.',
      }),
    ),
    ContactEmail: Type.Optional(Type.Union([Email, Type.Null()])),
    BrandColour: Type.Optional(
      Type.Union([Type.String({ maxLength: 7 }), Type.Null()], {
        description: '#rrggbb or #rgb; white text on it must reach a contrast of 4.5:1 (422 otherwise)',
      }),
    ),
    TermsUrl: Type.Optional(Type.Union([PageUrl, Type.Null()])),
    PrivacyUrl: Type.Optional(Type.Union([PageUrl, Type.Null()])),
    AllowedEmbedOrigins: Type.Optional(
      Type.Array(Type.String({ maxLength: 300 }), {
        maxItems: MAX_EMBED_ORIGINS,
        description: 'https origins such as https://www.example.com (http only for localhost); stored normalised, without duplicates',
      }),
    ),
  },
  { additionalProperties: false },
);
export type OperatorSettingsChange = Static<typeof OperatorSettingsChange>;

/** A booking's acceptance of the shop's terms and privacy pages (settings/terms.ts), as staff see it. */
export const TermsAcceptance = Type.Union(
  [
    Type.Object({
      AcceptedAt: Type.String({ format: 'date-time' }),
      TermsUrl: Type.Union([Type.String(), Type.Null()], { description: 'The terms page the guest accepted, as it was set then' }),
      PrivacyUrl: Type.Union([Type.String(), Type.Null()], { description: 'The privacy page the guest accepted, as it was set then' }),
    }),
    Type.Null(),
  ],
  {
    description:
      "When the guest accepted the shop's terms and privacy pages before paying (the shop had them set); null: nobody was asked (no terms then, or a booking made by staff or a partner)",
  },
);
export type TermsAcceptance = Static<typeof TermsAcceptance>;
