// The reader's page colours per theme.
import { describe, expect, it } from 'vitest';
import { pageStyles } from '@/features/reader/page-style';
import { APPEARANCE_PRESETS } from '@/stores/reader-settings';

describe('page styles', () => {
  it('leaves the preset alone in the light theme', () => {
    const styles = APPEARANCE_PRESETS.calmBold.styles;
    expect(pageStyles(styles, 'light', 'calmBold')).toBe(styles);
  });

  it('gives dark paper and light ink in the dark theme, keeping the size and weight', () => {
    for (const appearance of ['original', 'calmBold', 'calmLarger'] as const) {
      const styles = APPEARANCE_PRESETS[appearance].styles;
      const dark = pageStyles(styles, 'dark', appearance);
      expect(dark.background).not.toBe(styles.background);
      expect(dark.color).not.toBe(styles.color);
      expect(dark.fontSize).toBe(styles.fontSize);
      expect(dark.fontWeight).toBe(styles.fontWeight);
      const brightness = (hex: string) => parseInt(hex.slice(1, 3), 16) + parseInt(hex.slice(3, 5), 16) + parseInt(hex.slice(5, 7), 16);
      expect(brightness(dark.background)).toBeLessThan(150);
      expect(brightness(dark.color)).toBeGreaterThan(600);
    }
  });
});
