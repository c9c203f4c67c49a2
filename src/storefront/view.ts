// The booking pages' view of the operator's profile (settings/profile.ts). The logo is served by slotbook
// itself, so its same-origin path works on every page (and in img-src 'self'): the profile is read with an
// empty public URL.
import type { ShopProfile } from '../settings/profile.js';
import type { StorefrontProfile } from './schemas.js';

export const toStorefrontProfile = (profile: ShopProfile): StorefrontProfile => ({
  Name: profile.name,
  Slug: profile.slug,
  BrandColour: profile.brandColour,
  LogoUrl: profile.logoUrl,
  TermsUrl: profile.termsUrl,
  PrivacyUrl: profile.privacyUrl,
});
