import { create } from 'zustand';
import type { Part } from '@/lib/unavailable';

/** One part that answered 503: the banner's line for it. */
export interface Outage {
  key: Part;
  text: string;
}

/**
 * How long a line stays without a new 503 from its part: a part that is back should not
 * be announced as down for long, and one still down announces itself again.
 */
export const OUTAGE_SHOWN_MS = 60_000;

/** After the person dismissed a line, its part's next failures stay quiet this long. */
export const OUTAGE_SNOOZE_MS = 30_000;

interface OutageState {
  outages: Outage[];
  report: (outage: Outage) => void;
  dismiss: (key: Outage['key']) => void;
  /** Forgets every line and snooze (tests, sign-out). */
  reset: () => void;
}

const timers = new Map<Outage['key'], ReturnType<typeof setTimeout>>();
const snoozedUntil = new Map<Outage['key'], number>();

export const useOutageStore = create<OutageState>((set) => ({
  outages: [],
  report: (outage) => {
    if ((snoozedUntil.get(outage.key) ?? 0) > Date.now()) return;
    // One line per part, however many calls to it failed.
    set((s) => ({ outages: [...s.outages.filter((o) => o.key !== outage.key), outage] }));
    clearTimeout(timers.get(outage.key));
    timers.set(
      outage.key,
      setTimeout(() => {
        timers.delete(outage.key);
        set((s) => ({ outages: s.outages.filter((o) => o.key !== outage.key) }));
      }, OUTAGE_SHOWN_MS),
    );
  },
  dismiss: (key) => {
    snoozedUntil.set(key, Date.now() + OUTAGE_SNOOZE_MS);
    clearTimeout(timers.get(key));
    timers.delete(key);
    set((s) => ({ outages: s.outages.filter((o) => o.key !== key) }));
  },
  reset: () => {
    for (const timer of timers.values()) clearTimeout(timer);
    timers.clear();
    snoozedUntil.clear();
    set({ outages: [] });
  },
}));
