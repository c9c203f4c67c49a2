// Pieces every /octo route declares: the OCTo tag and the error responses.
import type { TSchema } from '@sinclair/typebox';
import { OctoErrorBody } from './schemas.js';

export const tags = ['OCTo'];

const DESCRIPTIONS: Record<number, string> = {
  400: 'INVALID_PRODUCT_ID, INVALID_OPTION_ID, INVALID_UNIT_ID, INVALID_AVAILABILITY_ID, INVALID_BOOKING_UUID, BAD_REQUEST or UNPROCESSABLE_ENTITY (e.g. sold out)',
  401: 'UNAUTHORIZED: no API key, or an unknown or revoked one',
  403: 'FORBIDDEN: the key lacks the ota scope',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_SERVER_ERROR',
};

/** OCTo error bodies for the statuses an OCTo route answers besides 200. */
export function octoErrors(): Record<number, TSchema> {
  return Object.fromEntries(Object.entries(DESCRIPTIONS).map(([status, description]) => [status, { ...OctoErrorBody, description }]));
}
