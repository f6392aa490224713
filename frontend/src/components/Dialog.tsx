// A modal dialog, rendered on document.body so no transformed or clipped parent (the reader's
// stage) can trap it. Escape and the backdrop close it unless it is busy; focus moves in on
// open and goes back to where it was on close. On a phone it is a bottom sheet (CSS).
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Icon } from '@/components/Icon';
import './dialog.css';

export interface DialogProps {
  title: string;
  onClose: () => void;
  /** While true, the dialog cannot be dismissed (a payment is under way). */
  busy?: boolean;
  children: ReactNode;
  footer?: ReactNode;
  testId?: string;
}

export function Dialog({ title, onClose, busy, children, footer, testId }: DialogProps) {
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);
  const latest = useRef({ onClose, busy });
  latest.current = { onClose, busy };

  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    // The marked action when it can be used now; else the dialog itself (a payment is never
    // one Enter away from a dialog whose figures are still loading).
    const first = box.current?.querySelector<HTMLElement>('[data-autofocus]:not([disabled])');
    (first ?? box.current)?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !latest.current.busy) latest.current.onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      if (before && document.contains(before)) before.focus();
    };
  }, []);

  return createPortal(
    <div
      className="dialog-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget && !busy) onClose();
      }}
    >
      <div ref={box} className="dialog" role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1} data-testid={testId}>
        <div className="dialog-head">
          <h2 id={titleId} className="dialog-title">
            {title}
          </h2>
          <button type="button" className="icon-button" aria-label="Close" onClick={onClose} disabled={busy}>
            <Icon name="close" size={18} />
          </button>
        </div>
        <div className="dialog-body">{children}</div>
        {footer ? <div className="dialog-footer">{footer}</div> : null}
      </div>
    </div>,
    document.body,
  );
}
