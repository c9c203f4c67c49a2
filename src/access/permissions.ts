// What each staff role and each kind of API key may do. Every /api/v2/admin route declares the one
// permission it needs with `config: requires('...')`; the auth hook (plugin.ts) answers 403 to a caller
// whose role (or key) lacks it. A new endpoint picks an existing permission, or adds one here and to the
// roles that should have it (docs/staff.md has the table).
import type { StaffRole } from '../db/schema.js';

export const PERMISSIONS = [
  'activities:read', // activities, timeslots and waiver questions
  'activities:write',
  'bookings:read',
  'bookings:write', // point-of-sale bookings, cancellations
  'manifests:today', // the manifests of today's timeslots
  'manifests:read', // the manifests of any day
  'checkin',
  'waitlists:read',
  'waitlists:write',
  'workflows:read',
  'workflows:write',
  'emails:read',
  'usage:read',
  'reports:read',
  'audit:read',
  'guests:manage', // a guest's data on request: export and erasure (docs/privacy.md)
  'settings:manage', // the operator's own settings (the online shop)
  'webhooks:manage', // webhook endpoints, their deliveries and secrets
  'payments:manage', // the operator's Stripe account (where the money goes) and refunds (owners and admin keys only)
  'keys:manage',
  'users:manage',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const ROLES = ['owner', 'manager', 'front-desk', 'guide'] as const satisfies readonly StaffRole[];

const FRONT_DESK: Permission[] = [
  'activities:read',
  'bookings:read',
  'bookings:write',
  'manifests:today',
  'manifests:read',
  'checkin',
  'waitlists:read',
  'waitlists:write',
];

export const ROLE_PERMISSIONS: Record<StaffRole, readonly Permission[]> = {
  owner: PERMISSIONS,
  manager: PERMISSIONS.filter((p) => p !== 'users:manage' && p !== 'keys:manage' && p !== 'payments:manage'),
  'front-desk': FRONT_DESK,
  guide: ['manifests:today', 'checkin'],
};

/** An `admin` API key acts for the operator's machines: like an owner, except that it cannot manage users. */
export const ADMIN_KEY_PERMISSIONS: readonly Permission[] = PERMISSIONS.filter((p) => p !== 'users:manage');

/** A route's config for an operator endpoint: an admin key or a signed-in user whose role has `permission`. */
export function requires(permission: Permission): { scope: 'admin'; permission: Permission } {
  return { scope: 'admin', permission };
}

export function roleGrants(role: StaffRole, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}
