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
