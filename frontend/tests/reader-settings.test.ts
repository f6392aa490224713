import { beforeEach, describe, expect, it } from 'vitest';
import { APPEARANCE_PRESETS, isLeftPartVisible, READER_SETTINGS_KEY, useReaderSettings } from '@/stores/reader-settings';

beforeEach(() => {
  localStorage.clear();
  useReaderSettings.getState().reset();
});

describe('reader settings', () => {
  it('holds theme, textSize, mode, appearance, visible and styles', () => {
    const s = useReaderSettings.getState();
    expect(Object.keys(s)).toEqual(expect.arrayContaining(['theme', 'textSize', 'mode', 'appearance', 'visible', 'styles']));
    expect(s.appearance).toBe('original');
  });

  it('has the three appearance presets of the spec', () => {
    expect(APPEARANCE_PRESETS.original.styles).toMatchObject({ background: '#ffffff', fontSize: '100%', fontWeight: 'normal' });
    expect(APPEARANCE_PRESETS.calmBold.styles).toMatchObject({ background: '#fef3c7', fontSize: '120%', fontWeight: 'bold' });
    expect(APPEARANCE_PRESETS.calmLarger.styles).toMatchObject({ background: '#fef3c7', fontSize: '150%', fontWeight: 'bold' });
  });

  it('applies a preset and persists it', () => {
    useReaderSettings.getState().setAppearance('calmLarger');
    const s = useReaderSettings.getState();
    expect(s.textSize).toBe(150);
    expect(s.styles.fontSize).toBe('150%');
    const stored = JSON.parse(localStorage.getItem(READER_SETTINGS_KEY) ?? '{}');
    expect(stored.state.appearance).toBe('calmLarger');
  });

  it('shows the left part whenever a panel is open', () => {
    expect(isLeftPartVisible(useReaderSettings.getState().visible)).toBe(false);
    useReaderSettings.getState().togglePanel('bookmarks');
    expect(isLeftPartVisible(useReaderSettings.getState().visible)).toBe(true);
  });
});

describe('reader settings, exact presets and persistence', () => {
  it('has exactly the values of the spec for each preset', () => {
    expect(APPEARANCE_PRESETS.original.textSize).toBe(100);
    expect(APPEARANCE_PRESETS.calmBold.textSize).toBe(120);
    expect(APPEARANCE_PRESETS.calmLarger.textSize).toBe(150);
    // white; amber-100 is #fef3c7 in Tailwind's palette
    expect(APPEARANCE_PRESETS.original.styles.background).toBe('#ffffff');
    expect(APPEARANCE_PRESETS.calmBold.styles.background).toBe('#fef3c7');
    expect(APPEARANCE_PRESETS.calmLarger.styles.background).toBe('#fef3c7');
    expect(Object.keys(APPEARANCE_PRESETS)).toEqual(['original', 'calmBold', 'calmLarger']);
  });

  it('setting a preset sets text size, background, size and weight together', () => {
    useReaderSettings.getState().setAppearance('calmBold');
    const s = useReaderSettings.getState();
    expect(s).toMatchObject({ appearance: 'calmBold', textSize: 120 });
    expect(s.styles).toMatchObject({ background: '#fef3c7', fontSize: '120%', fontWeight: 'bold' });
    useReaderSettings.getState().setAppearance('original');
    expect(useReaderSettings.getState().styles).toMatchObject({ background: '#ffffff', fontSize: '100%', fontWeight: 'normal' });
  });

  it('keeps theme, textSize, mode, appearance, visible and styles across a reload of the store', async () => {
    const st = useReaderSettings.getState();
    st.setAppearance('calmLarger');
    st.setTheme('dark');
    st.setMode('scrolled');
    st.setTextSize(120);
    st.showPanel('bookmarks');
    const saved = localStorage.getItem(READER_SETTINGS_KEY);
    // a new page load: the in-memory state is gone, the stored copy is read again
    useReaderSettings.setState({ theme: 'light', textSize: 100, mode: 'paginated', appearance: 'original' });
    localStorage.setItem(READER_SETTINGS_KEY, saved ?? '');
    await useReaderSettings.persist.rehydrate();
    const s = useReaderSettings.getState();
    expect(s.theme).toBe('dark');
    expect(s.mode).toBe('scrolled');
    expect(s.appearance).toBe('calmLarger');
    expect(s.textSize).toBe(120);
    expect(s.styles).toMatchObject({ background: '#fef3c7', fontSize: '120%', fontWeight: 'bold' });
    expect(s.visible.bookmarks).toBe(true);
    expect(Object.keys(JSON.parse(saved ?? '{}').state).sort()).toEqual(['appearance', 'mode', 'styles', 'textSize', 'theme', 'visible']);
  });

  it('fills keys an older stored copy does not have', async () => {
    localStorage.setItem(READER_SETTINGS_KEY, JSON.stringify({ state: { theme: 'dark', visible: { chat: true } }, version: 0 }));
    await useReaderSettings.persist.rehydrate();
    const s = useReaderSettings.getState();
    expect(s.theme).toBe('dark');
    expect(s.visible).toEqual({ chat: true, comments: false, settings: false, explore: false, bookmarks: false });
    expect(s.styles.background).toBe('#ffffff');
  });
});

describe('the left part of the book view', () => {
  const closed = { chat: false, comments: false, settings: false, explore: false, bookmarks: false };
  it.each(['chat', 'comments', 'explore', 'bookmarks', 'settings'] as const)('is visible when %s is open', (panel) => {
    expect(isLeftPartVisible({ ...closed, [panel]: true })).toBe(true);
  });

  it('is hidden when every panel is closed', () => {
    expect(isLeftPartVisible(closed)).toBe(false);
  });

  it('showPanel opens one panel at a time and closes it on a second call', () => {
    const st = useReaderSettings.getState();
    st.showPanel('comments');
    st.showPanel('settings');
    expect(useReaderSettings.getState().visible).toEqual({ ...closed, settings: true });
    st.showPanel('settings');
    expect(isLeftPartVisible(useReaderSettings.getState().visible)).toBe(false);
    st.showPanel('chat');
    st.closePanels();
    expect(isLeftPartVisible(useReaderSettings.getState().visible)).toBe(false);
  });
});
