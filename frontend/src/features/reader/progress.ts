// Reading position: saved to the server (debounced, and at once when the reader leaves)
// so it follows a logged-in user across devices, and always mirrored in local storage so
// a reload finds it even when the last save was cut off, and anonymous readers keep theirs.
import type { Progress, ReadingLocation } from './types';

export const PROGRESS_DEBOUNCE_MS = 1500;
const LOCAL_PREFIX = 'readerProgress:';

export interface LocalProgress {
  position: string;
  percent: number;
  /** Epoch milliseconds of the save. */
  savedAt: number;
}

export function readLocalProgress(bookId: string): LocalProgress | null {
  try {
    const raw = localStorage.getItem(LOCAL_PREFIX + bookId);
    if (!raw) return null;
    const v = JSON.parse(raw) as Partial<LocalProgress>;
    if (typeof v.position !== 'string' || !v.position) return null;
    return { position: v.position, percent: Number(v.percent) || 0, savedAt: Number(v.savedAt) || 0 };
  } catch {
    return null;
  }
}

export function writeLocalProgress(bookId: string, loc: ReadingLocation, now = Date.now()): void {
  try {
    const value: LocalProgress = { position: loc.position, percent: clampPercent(loc.percent), savedAt: now };
    localStorage.setItem(LOCAL_PREFIX + bookId, JSON.stringify(value));
  } catch {
    // storage full or blocked: the server copy (if any) still holds the position
  }
}

export function clampPercent(p: number): number {
  if (!Number.isFinite(p)) return 0;
  return Math.min(100, Math.max(0, Math.round(p * 100) / 100));
}

/**
 * Where to reopen: the newer of the server's and this browser's copy. A save that never
 * reached the server (tab closed mid-request) leaves the local copy newer.
 */
export function pickStartPosition(server: Progress | null | undefined, local: LocalProgress | null): string | null {
  const serverAt = server?.updated_at ? Date.parse(server.updated_at) : NaN;
  const serverPos = server?.position || '';
  if (serverPos && local) return local.savedAt > (Number.isNaN(serverAt) ? 0 : serverAt) ? local.position : serverPos;
  return serverPos || local?.position || null;
}

export interface ProgressSaver {
  /** Records the newest location; the server hears of it after the quiet period. */
  update: (loc: ReadingLocation) => void;
  /** Sends a pending location now (leaving the page, hiding the tab). */
  flush: () => void;
  /** Drops a pending location without sending it. */
  cancel: () => void;
}

/**
 * Debounces server saves: a burst of page turns makes one request with the last place.
 * Identical consecutive positions are not sent twice.
 */
export function createProgressSaver(
  save: (loc: ReadingLocation) => Promise<unknown> | void,
  delayMs = PROGRESS_DEBOUNCE_MS,
): ProgressSaver {
  let pending: ReadingLocation | null = null;
  let lastSent: string | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const clear = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };
  const send = () => {
    clear();
    const loc = pending;
    pending = null;
    if (!loc) return;
    const key = `${loc.position}|${clampPercent(loc.percent)}`;
    if (key === lastSent) return;
    lastSent = key;
    try {
      const result = save({ ...loc, percent: clampPercent(loc.percent) });
      if (result && typeof (result as Promise<unknown>).catch === 'function') {
        (result as Promise<unknown>).catch(() => {
          // the next page turn tries again
          lastSent = null;
        });
      }
    } catch {
      lastSent = null;
    }
  };

  return {
    update: (loc) => {
      pending = loc;
      clear();
      timer = setTimeout(send, delayMs);
    },
    flush: send,
    cancel: () => {
      pending = null;
      clear();
    },
  };
}
