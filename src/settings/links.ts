// The addresses of the booking pages that e-mails link to: every customer-facing link is a page, never
// the JSON API. The basket page is also the waitlist claim page (the offer's seats are held in a basket).
export const bookingPagesUrl = (publicUrl: string, slug: string): string => `${publicUrl}/book/${slug}`;

export const claimPageUrl = (publicUrl: string, slug: string, basketToken: string): string =>
  `${bookingPagesUrl(publicUrl, slug)}/basket/${basketToken}`;

/** Where a guest views (and, where allowed, cancels) their booking: the token is manage.ts's capability. */
export const manageBookingUrl = (publicUrl: string, slug: string, manageToken: string): string =>
  `${bookingPagesUrl(publicUrl, slug)}/manage/${manageToken}`;
