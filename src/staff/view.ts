import type { StaffUser } from './schemas.js';
import type { UserRow } from './users/store.js';
import type { SessionRow } from './sessions/store.js';

export function toStaffUser(row: UserRow, now = Date.now()): StaffUser {
  return {
    ID: row.id,
    Email: row.email,
    Name: row.name,
    Role: row.role,
    Status: row.status === 'invited' ? 'invited' : 'active',
    TwoFactor: row.totp_secret !== null,
    LockedUntil: row.locked_until !== null && Number(row.locked_until) > now ? new Date(Number(row.locked_until)).toISOString() : null,
    CreatedAt: new Date(Number(row.created_at)).toISOString(),
    BookingNotices: row.booking_notices,
  };
}

export function toStaffSession(row: SessionRow, currentId?: number) {
  return {
    ID: row.id,
    CreatedAt: new Date(Number(row.created_at)).toISOString(),
    LastSeenAt: new Date(Number(row.last_seen_at)).toISOString(),
    ExpiresAt: new Date(Number(row.expires_at)).toISOString(),
    Address: row.address,
    UserAgent: row.user_agent,
    Current: row.id === currentId,
  };
}

/** E-mail addresses are compared in lower case (and stored so). */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();
