// The GetYourGuide connection's records of the admin API (/api/v2/admin/getyourguide; generated from
// /openapi.json: web/src/api-types), for the GetYourGuide page and its parts.
import type { Answer, RequestBody } from './api-types';

export const GYG = '/api/v2/admin/getyourguide';

export type GygConnection = Answer<'/api/v2/admin/getyourguide', 'get'>;
export type GygProductMapping = Answer<'/api/v2/admin/getyourguide/products', 'get'>[number];

/** What a ticket type may be mapped to: one of GetYourGuide's categories, or NONE (checked against the API's body). */
type CategoryChoice = NonNullable<
  NonNullable<RequestBody<'/api/v2/admin/getyourguide/products/{ActivityID}', 'put'>['Categories']>[number]['Category']
>;

/** GetYourGuide's ticket categories: its list is closed (src/getyourguide/schemas.ts). */
export const GYG_CATEGORIES: readonly CategoryChoice[] = [
  'ADULT',
  'CHILD',
  'YOUTH',
  'INFANT',
  'SENIOR',
  'STUDENT',
  'EU_CITIZEN',
  'MILITARY',
  'EU_CITIZEN_STUDENT',
  'GROUP',
];
/** The operator's "not on GetYourGuide" (src/getyourguide/offer.ts). */
export const NOT_OFFERED: CategoryChoice = 'NONE';
