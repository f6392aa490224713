// What the book's pages get: the appearance preset (size, weight, paper colour), with the
// paper and ink swapped for dark ones when the reader's theme is dark, so the Dark theme
// darkens the page itself and not only the reader's frame. Every viewer paints from this.
import type { Appearance, ReaderStyles, ReaderTheme } from '@/stores/reader-settings';

/** Dark paper per preset: the calm presets keep a warm tint. */
const DARK_PAGE: Record<Appearance, Pick<ReaderStyles, 'background' | 'color'>> = {
  original: { background: '#16181d', color: '#e5e7eb' },
  calmBold: { background: '#221d14', color: '#f3e6c8' },
  calmLarger: { background: '#221d14', color: '#f3e6c8' },
};

export function pageStyles(styles: ReaderStyles, theme: ReaderTheme, appearance: Appearance): ReaderStyles {
  if (theme !== 'dark') return styles;
  return { ...styles, ...(DARK_PAGE[appearance] ?? DARK_PAGE.original) };
}
