// The booking pages' shell (page.ts) on its own: the brand colour hook and the escaping of what the
// operator typed. The HTTP tests (storefront.test.ts) cover the route around it.
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { renderShell, type Boot } from '../../src/storefront/page.js';

const assets = { script: 'booking-abc.js', style: 'booking-abc.css' };
const boot = (BrandColour: string | null, Name = 'Spree'): Boot => ({
  OperatorID: 7,
  Base: '/book/spree',
  Locale: 'en',
  Profile: { Name, Slug: 'spree', BrandColour, LogoUrl: null, TermsUrl: null, PrivacyUrl: null },
  TestMode: false,
});

describe('booking pages shell', () => {
  it('applies a brand colour as --brand, allowed by its hash in the policy', () => {
    const { html, csp } = renderShell(boot('#aa3300'), assets);
    const style = ':root{--brand:#aa3300}';
    expect(html).toContain(`<style>${style}</style>`);
    expect(csp).toContain(`style-src 'self' 'sha256-${createHash('sha256').update(style).digest('base64')}'`);
  });

  it('leaves the default colour without a brand colour, and ignores anything but #rrggbb', () => {
    for (const colour of [null, 'red', '#abc', '#aa3300;}body{display:none']) {
      const { html, csp } = renderShell(boot(colour), assets);
      expect(html).not.toContain('<style>');
      expect(csp).toContain("style-src 'self';");
    }
  });

  it('escapes the name in the page and in the start data', () => {
    const { html } = renderShell(boot(null, '</script><script>alert(1)</script>'), assets);
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('\\u003c/script>\\u003cscript>alert(1)\\u003c/script>');
  });
});
