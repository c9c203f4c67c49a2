// Toasts: short confirmations at the corner of the screen.
import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from 'react';
import { Icon } from './icons';

interface Toast {
  id: number;
  text: string;
  tone: 'success' | 'error';
}
const ToastContext = createContext<(text: string, tone?: Toast['tone']) => void>(() => {});
export const useToast = () => useContext(ToastContext);

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const show = useCallback((text: string, tone: Toast['tone'] = 'success') => {
    const id = next.current++;
    setToasts((list) => [...list, { id, text, tone }]);
    setTimeout(() => setToasts((list) => list.filter((toast) => toast.id !== id)), 5000);
  }, []);
  return (
    <ToastContext.Provider value={show}>
      {children}
      <div className="toasts" role="status" aria-live="polite">
        {toasts.map((toast) => (
          <div key={toast.id} className={`toast toast-${toast.tone}`}>
            <Icon name={toast.tone === 'success' ? 'check' : 'alert'} />
            {toast.text}
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}
