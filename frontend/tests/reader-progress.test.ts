import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  clampPercent,
  createProgressSaver,
  pickStartPosition,
  PROGRESS_DEBOUNCE_MS,
  readLocalProgress,
  writeLocalProgress,
} from '@/features/reader/progress';

beforeEach(() => {
  localStorage.clear();
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

describe('progress saver', () => {
  it('sends one save with the last place after a burst of page turns', () => {
    const save = vi.fn();
    const saver = createProgressSaver(save, 1000);
    saver.update({ position: 'page=1', percent: 10 });
    vi.advanceTimersByTime(500);
    saver.update({ position: 'page=2', percent: 20 });
    vi.advanceTimersByTime(500);
    saver.update({ position: 'page=3', percent: 30.456 });
    expect(save).not.toHaveBeenCalled();
    vi.advanceTimersByTime(999);
    expect(save).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(save).toHaveBeenCalledTimes(1);
    expect(save).toHaveBeenCalledWith({ position: 'page=3', percent: 30.46 });
  });

  it('flushes a pending place at once (leaving the page) and only once', () => {
    const save = vi.fn();
    const saver = createProgressSaver(save);
    saver.update({ position: 'offset=120', percent: 4 });
    saver.flush();
    saver.flush();
    expect(save).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(PROGRESS_DEBOUNCE_MS * 2);
    expect(save).toHaveBeenCalledTimes(1);
  });

  it('does not send the same place twice, and retries after a failed save', async () => {
    const save = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue({});
    const saver = createProgressSaver(save, 10);
    saver.update({ position: 'epubcfi(/6/4!/4/2)', percent: 5 });
    vi.advanceTimersByTime(10);
    await Promise.resolve();
    await Promise.resolve();
    saver.update({ position: 'epubcfi(/6/4!/4/2)', percent: 5 });
    vi.advanceTimersByTime(10);
    expect(save).toHaveBeenCalledTimes(2);
    await Promise.resolve();
    saver.update({ position: 'epubcfi(/6/4!/4/2)', percent: 5 });
    vi.advanceTimersByTime(10);
    expect(save).toHaveBeenCalledTimes(2);
  });

  it('cancel drops the pending place', () => {
    const save = vi.fn();
    const saver = createProgressSaver(save, 10);
    saver.update({ position: 'page=9', percent: 90 });
    saver.cancel();
    vi.advanceTimersByTime(100);
    saver.flush();
    expect(save).not.toHaveBeenCalled();
  });

  it('clamps percent into 0..=100', () => {
    expect(clampPercent(-3)).toBe(0);
    expect(clampPercent(101)).toBe(100);
    expect(clampPercent(Number.NaN)).toBe(0);
    expect(clampPercent(33.333)).toBe(33.33);
  });
});

describe('where the reader reopens', () => {
  it('keeps the place in local storage per book', () => {
    writeLocalProgress('b1', { position: 'page=4', percent: 40 }, 1000);
    expect(readLocalProgress('b1')).toEqual({ position: 'page=4', percent: 40, savedAt: 1000 });
    expect(readLocalProgress('b2')).toBeNull();
  });

  it('takes the newer of the server copy and the local one', () => {
    const server = { book_id: 'b', position: 'page=2', percent: 20, updated_at: '2026-11-22T10:00:00Z' };
    const older = { position: 'page=1', percent: 10, savedAt: Date.parse('2026-11-22T09:00:00Z') };
    const newer = { position: 'page=5', percent: 50, savedAt: Date.parse('2026-11-22T11:00:00Z') };
    expect(pickStartPosition(server, older)).toBe('page=2');
    expect(pickStartPosition(server, newer)).toBe('page=5');
    expect(pickStartPosition(server, null)).toBe('page=2');
    expect(pickStartPosition({ ...server, position: '' }, older)).toBe('page=1');
    expect(pickStartPosition(null, null)).toBeNull();
    expect(pickStartPosition({ book_id: 'b', position: '', percent: 0 }, null)).toBeNull();
  });
});
