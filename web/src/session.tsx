// The signed-in user: who they are, their operator, and what their role may do (the navigation and the
// pages ask `can`). The server checks every request anyway; this only hides what would answer 403.
import { createContext, useContext } from 'react';
import type { Me, Permission } from './api';

export interface SessionValue {
  me: Me;
  can: (permission: Permission) => boolean;
  signOut: () => void;
  /** After a change to the user's own account (name, two-factor). */
  refresh: () => void;
}

export const SessionContext = createContext<SessionValue | null>(null);

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside a signed-in dashboard');
  return value;
}
