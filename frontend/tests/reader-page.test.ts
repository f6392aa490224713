// The reader's page colours per theme and the end-of-book rating text.
import { describe, expect, it } from 'vitest';
import { pageStyles } from '@/features/reader/page-style';
import { ratingComment, RATING_WORDS_MAX } from '@/features/reader/rating';
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

describe('rating comment', () => {
  it('opens with the stars and the score', () => {
    expect(ratingComment(4, '')).toBe('★★★★☆ 4/5');
    expect(ratingComment(5, '  Loved it ')).toBe('★★★★★ 5/5 · Loved it');
  });

  it('keeps the stars within 1 to 5 and the words within the comment limit', () => {
    expect(ratingComment(0, '')).toBe('★☆☆☆☆ 1/5');
    expect(ratingComment(9, '')).toBe('★★★★★ 5/5');
    expect(ratingComment(3, 'x'.repeat(5000)).length).toBeLessThanOrEqual(2000);
    expect(ratingComment(3, 'x'.repeat(5000))).toHaveLength('★★★☆☆ 3/5 · '.length + RATING_WORDS_MAX);
  });
});
