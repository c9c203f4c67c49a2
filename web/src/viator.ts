// The Viator connection's records of the admin API (/api/v2/admin/viator; generated from /openapi.json:
// web/src/api-types), for the Viator page and its parts.
import type { Answer, RequestBody } from './api-types';

export const VIATOR = '/api/v2/admin/viator';

export type ViatorConnection = Answer<'/api/v2/admin/viator', 'get'>;
export type ViatorProductMapping = Answer<'/api/v2/admin/viator/products', 'get'>[number];

/** What a ticket type may be mapped to: one of Viator's ticket types, or NONE (checked against the API's body). */
type BandChoice = NonNullable<NonNullable<RequestBody<'/api/v2/admin/viator/products/{ActivityID}', 'put'>['Bands']>[number]['Band']>;

/** Viator's age bands and UNIT (a price per group): its list is closed (src/viator/schemas.ts). */
export const VIATOR_BANDS: readonly BandChoice[] = ['ADULT', 'SENIOR', 'YOUTH', 'CHILD', 'INFANT', 'UNIT'];
/** The operator's "not on Viator" (src/viator/age-bands.ts). */
export const NOT_OFFERED: BandChoice = 'NONE';
