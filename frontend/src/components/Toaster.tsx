import { useLayoutEffect, useState, type RefObject } from 'react';
import { useToastStore } from '@/stores/toast';
import { Icon, type IconName } from './Icon';

const ICONS: Record<string, IconName> = { success: 'check', error: 'alert', info: 'sparkles' };

/** Spec section 9: toasts sit 8px from the top of what they may cover. */
const OFFSET_PX = 8;

/**
 * The lowest edge, in viewport pixels, of `el` and of the navigation inside it (a phone's
 * menu drops down below the bar); 0 when it is scrolled away or hidden.
 */
function lowestEdge(el: HTMLElement): number {
  const boxes = [el, ...Array.from(el.querySelectorAll('nav'))]
    .map((e) => e.getBoundingClientRect())
    .filter((r) => r.height > 0);
  return Math.max(0, ...boxes.map((r) => r.bottom));
}

/** How far from the top toasts start so that they never cover `below` (the header). */
function useTopBelow(below: RefObject<HTMLElement | null> | undefined, active: boolean): number {
  const [top, setTop] = useState(OFFSET_PX);
  useLayoutEffect(() => {
    const el = below?.current;
    if (!el || !active) return;
    const update = () => setTop(lowestEdge(el) + OFFSET_PX);
    update();
    const resized = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
    resized?.observe(el);
    el.querySelectorAll('nav').forEach((n) => resized?.observe(n));
    // The phone menu opens by a class change; its size change alone may not be observed.
    const changed = typeof MutationObserver === 'undefined' ? null : new MutationObserver(update);
    changed?.observe(el, { attributes: true, subtree: true, attributeFilter: ['class', 'style', 'hidden'] });
    window.addEventListener('scroll', update, { passive: true });
    window.addEventListener('resize', update);
    return () => {
      resized?.disconnect();
      changed?.disconnect();
      window.removeEventListener('scroll', update);
      window.removeEventListener('resize', update);
    };
  }, [below, active]);
  return top;
}

/**
 * Toasts stack near the top of the screen, below `below` (the header and its navigation,
 * which they must never cover), for 3 seconds each (spec section 9); a tap or the close
 * button dismisses one sooner.
 */
export function Toaster({ below }: { below?: RefObject<HTMLElement | null> }) {
  const toasts = useToastStore((s) => s.toasts);
  const dismiss = useToastStore((s) => s.dismiss);
  const top = useTopBelow(below, toasts.length > 0);
  return (
    <div className="toaster" style={{ top }} aria-live="polite" aria-atomic="false" data-testid="toaster">
      {toasts.map((t) => (
        <div key={t.id} className={`toast toast-${t.kind}`} role={t.kind === 'error' ? 'alert' : 'status'} onClick={() => dismiss(t.id)}>
          <span className="toast-icon">
            <Icon name={ICONS[t.kind]} size={13} />
          </span>
          <span className="toast-text">{t.text}</span>
          <button
            type="button"
            className="toast-close"
            aria-label="Dismiss"
            onClick={(e) => {
              e.stopPropagation();
              dismiss(t.id);
            }}
          >
            <Icon name="close" size={14} />
          </button>
        </div>
      ))}
    </div>
  );
}
