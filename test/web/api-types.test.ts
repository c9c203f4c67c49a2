// The web app's API types (web/src/api-types/openapi.ts) are generated from the app's /openapi.json; this
// keeps the checked-in file current, so that a schema changed on the server without regenerating fails here
// (and in CI) instead of leaving the dashboard and the booking pages typing bodies the server no longer sends.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { OpenAPI3 } from 'openapi-typescript';
import { API_TYPES_FILE, generateApiTypes, inNameOrder, withSchemaNames } from '../../scripts/api-types.js';

describe('the web app API types', () => {
  it('are what `npm run api-types` writes from the current /openapi.json', async () => {
    const checkedIn = readFileSync(new URL(`../../${API_TYPES_FILE}`, import.meta.url), 'utf8');
    const generated = await generateApiTypes();
    // The first line that differs, rather than a diff of a 20,000-line file.
    const lines = [checkedIn.split('\n'), generated.split('\n')] as const;
    const at = lines[0].findIndex((line, index) => line !== lines[1][index]);
    const where = at === -1 ? 'it ends early' : `line ${at + 1} is "${lines[0][at]?.trim()}", generated "${lines[1][at]?.trim()}"`;
    expect(generated === checkedIn, `${API_TYPES_FILE} is not current (${where}): run npm run api-types`).toBe(true);
    // Building the whole app and its migrations takes seconds, many more while the suite fills the machine.
  }, 120_000);

  it('name the shared schemas by their titles, references included, and list them by name', () => {
    const document: OpenAPI3 = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {
        '/a': {
          get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/def-1' } } } } } },
        },
      },
      components: {
        schemas: {
          'def-0': { title: 'Problem (RFC 7807)', type: 'object' },
          'def-1': { title: 'Booking', type: 'object', properties: { Error: { $ref: '#/components/schemas/def-0' } } },
        },
      },
    };
    const named = withSchemaNames(document);
    expect(Object.keys(named.components?.schemas ?? {})).toEqual(['Problem', 'Booking']);
    expect(JSON.stringify(named)).not.toContain('def-');
    expect(() => withSchemaNames({ ...document, components: { schemas: { 'def-0': { type: 'object' } } } })).toThrow(/no title/);
    expect(Object.keys(inNameOrder(named).components?.schemas ?? {})).toEqual(['Booking', 'Problem']);
  });
});
