// A campaign as the screens show it: how far it got, how long is left, what its status
// means to the writer and to a reader.
import type { Campaign, CampaignStatus } from './types';

/** pledged / goal as a whole percent (may pass 100), and the bar's share (0..1). */
export function campaignProgress(c: Pick<Campaign, 'pledged' | 'goal' | 'progress'>): { percent: number; share: number } {
  const ratio = Number.isFinite(c.progress) ? c.progress : c.goal > 0 ? c.pledged / c.goal : 0;
  const safe = Math.max(0, ratio);
  return { percent: Math.floor(safe * 100 + 1e-9), share: Math.min(1, safe) };
}

/** "3 days left", "5 hours left", "12 minutes left", "Ended"; "" for an unreadable deadline. */
export function timeLeft(deadline: string, now: number = Date.now()): string {
  const end = Date.parse(deadline);
  if (Number.isNaN(end)) return '';
  const ms = end - now;
  if (ms <= 0) return 'Ended';
  const minutes = Math.ceil(ms / 60_000);
  if (minutes < 60) return minutes === 1 ? '1 minute left' : `${minutes} minutes left`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return hours === 1 ? '1 hour left' : `${hours} hours left`;
  const days = Math.floor(hours / 24);
  return `${days} days left`;
}

export const STATUS_TEXT: Record<CampaignStatus, string> = {
  open: 'Open',
  funded: 'Funded',
  failed: 'Not funded',
};

export function statusTone(status: CampaignStatus): 'primary' | 'success' | 'warning' {
  return status === 'open' ? 'primary' : status === 'funded' ? 'success' : 'warning';
}

/** The open campaign of a book's list (newest first), if any. */
export function openCampaign(campaigns: readonly Campaign[] | undefined): Campaign | null {
  return campaigns?.find((c) => c.status === 'open') ?? null;
}

/** Whether a pledge can still be made: open and before its deadline. */
export function acceptsPledges(c: Pick<Campaign, 'status' | 'deadline'>, now: number = Date.now()): boolean {
  const end = Date.parse(c.deadline);
  return c.status === 'open' && (Number.isNaN(end) || end > now);
}
