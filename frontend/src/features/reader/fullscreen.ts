// Full screen for the reader: the Fullscreen API on the reader element where the browser
// allows it; elsewhere (iPhone Safari, an iframe without allowfullscreen, a refused request)
// the reader fills the window instead and says why the browser's bars stay.
import { useCallback, useEffect, useState, type RefObject } from 'react';
import { toast } from '@/stores/toast';

export const FULLSCREEN_FALLBACK_TEXT = 'This browser does not allow full screen here: the reader fills the window instead';

export type FullscreenState = 'off' | 'native' | 'window';

export function useFullscreen(target: RefObject<HTMLElement>) {
  const [state, setState] = useState<FullscreenState>('off');

  useEffect(() => {
    const onChange = () => {
      const el = target.current;
      setState((s) => (el && document.fullscreenElement === el ? 'native' : s === 'native' ? 'off' : s));
    };
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, [target]);

  // Escape leaves the window-filling fallback as it leaves real full screen.
  useEffect(() => {
    if (state !== 'window') return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setState('off');
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [state]);

  // Leaving the reader leaves full screen too.
  useEffect(
    () => () => {
      if (document.fullscreenElement && document.fullscreenElement === target.current) void document.exitFullscreen().catch(() => undefined);
    },
    [target],
  );

  const toggle = useCallback(() => {
    const el = target.current;
    if (!el) return;
    if (state === 'native') {
      void document.exitFullscreen().catch(() => setState('off'));
      return;
    }
    if (state === 'window') {
      setState('off');
      return;
    }
    const fallback = () => {
      setState('window');
      toast.info(FULLSCREEN_FALLBACK_TEXT);
    };
    if (!document.fullscreenEnabled || typeof el.requestFullscreen !== 'function') {
      fallback();
      return;
    }
    el.requestFullscreen().then(() => setState('native'), fallback);
  }, [state, target]);

  return { state, on: state !== 'off', toggle };
}
