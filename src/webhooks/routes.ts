// Partner API: a marketplace manages its own webhook endpoints with its ota key, without asking the
// operator. They receive the events of the bookings it made and the public catalogue and availability
// events, nothing else (docs/webhooks.md).
import { PartnerParams } from '../http/schemas.js';
import { endpointRoutes } from './endpoint-routes.js';

export const webhookPartnerRoutes = endpointRoutes({
  scope: 'ota',
  tags: ['Partner API: webhooks'],
  params: PartnerParams,
  // The auth hook has checked that :partner is the key's marketplace.
  owner: (request) => ({ operatorId: request.caller.operatorId, partner: request.caller.partner ?? '' }),
  collection: (request) => `/api/v2/ota/${request.caller.partner}/webhooks`,
});
