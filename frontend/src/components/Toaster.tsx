import { useToastStore } from '@/stores/toast';
import { Icon, type IconName } from './Icon';

const ICONS: Record<string, IconName> = { success: 'check', error: 'alert', info: 'sparkles' };

/** Toasts stack at the top of the screen, 8px from the edge (spec section 9). */
export function Toaster() {
  const toasts = useToastStore((s) => s.toasts);
  const dismiss = useToastStore((s) => s.dismiss);
  return (
    <div className="toaster" aria-live="polite" aria-atomic="false">
      {toasts.map((t) => (
        <div key={t.id} className={`toast toast-${t.kind}`} role={t.kind === 'error' ? 'alert' : 'status'} onClick={() => dismiss(t.id)}>
          <span className="toast-icon">
            <Icon name={ICONS[t.kind]} size={13} />
          </span>
          <span className="toast-text">{t.text}</span>
        </div>
      ))}
    </div>
  );
}
