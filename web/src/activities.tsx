import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { api, type Activity } from './api';

// ---- The operator's activities, shared by every page that names or picks one ----

interface ActivitiesState {
  activities: Activity[];
  loaded: boolean;
  byId: Map<string, Activity>;
  reload: () => Promise<void>;
}
const ActivitiesContext = createContext<ActivitiesState>({ activities: [], loaded: false, byId: new Map(), reload: async () => {} });
export const useActivities = () => useContext(ActivitiesContext);

/** `enabled` is false for a role that may not read activities (a guide): nothing is asked then. */
export function ActivitiesProvider({ children, enabled = true }: { children: ReactNode; enabled?: boolean }) {
  const [activities, setActivities] = useState<Activity[]>([]);
  const [loaded, setLoaded] = useState(false);
  const reload = useCallback(async () => {
    if (!enabled) return setLoaded(true);
    try {
      setActivities(await api.get<Activity[]>('/api/v2/admin/activities'));
    } finally {
      setLoaded(true);
    }
  }, [enabled]);
  useEffect(() => {
    void reload().catch(() => {});
  }, [reload]);
  const value = useMemo(
    () => ({ activities, loaded, byId: new Map(activities.map((a) => [a.ActivityID, a])), reload }),
    [activities, loaded, reload],
  );
  return <ActivitiesContext.Provider value={value}>{children}</ActivitiesContext.Provider>;
}
