// Loading data: a page's request, its state and its retry.
import { useCallback, useEffect, useRef, useState, type DependencyList } from 'react';
import { ApiError } from '../api';

export interface Loaded<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  reload: () => void;
  setData: (data: T) => void;
}

/**
 * Runs `load` whenever deps change; a newer run cancels the older one's result. `loading` is derived: true
 * until the data (or error) held is that of the current deps. So it is true from the very render in which
 * deps change, which comes before the effect that starts the new load.
 */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, deps: DependencyList): Loaded<T> {
  const [tick, setTick] = useState(0);
  const inputs = [...deps, tick];
  const current = useRef(inputs);
  current.current = inputs;
  const [state, setState] = useState<{ data?: T; error?: ApiError; loadedFor?: DependencyList }>({});
  useEffect(() => {
    const controller = new AbortController();
    setState((previous) => ({ ...previous, error: undefined }));
    load(controller.signal).then(
      (data) => controller.signal.aborted || setState({ data, loadedFor: inputs }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState({ loadedFor: inputs, error: error instanceof ApiError ? error : new ApiError(0, 'Error', String(error)) });
      },
    );
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, inputs);
  return {
    data: state.data,
    error: state.error,
    loading: !state.loadedFor || state.loadedFor.some((value, i) => !Object.is(value, inputs[i])),
    reload: useCallback(() => setTick((t) => t + 1), []),
    setData: useCallback((data: T) => setState({ data, loadedFor: current.current }), []),
  };
}

/** How often live pages read again: other channels' bookings and the desk's check-ins show within 10 s (issue 26). */
export const LIVE_REFRESH_MS = 10_000;

/**
 * Reloads every `ms` while the page is visible (and once when it becomes visible again): lists that must
 * show other channels' bookings without a reload (the bookings list, the manifests). A reload keeps the
 * data shown until the new answer replaces it.
 */
export function useRefreshEvery(reload: () => void, ms: number): void {
  useEffect(() => {
    const tick = () => document.visibilityState === 'visible' && reload();
    const timer = window.setInterval(tick, ms);
    document.addEventListener('visibilitychange', tick);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', tick);
    };
  }, [reload, ms]);
}
