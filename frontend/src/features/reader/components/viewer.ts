// What every viewer (epub, pdf, txt) offers the reader view and reports back to it.
import type { ReaderMode, ReaderStyles, TextSize } from '@/stores/reader-settings';
import type { Access, ReadingLocation, TocEntry } from '../types';

export type EndReason = 'reached' | 'next';

export interface ViewerHandle {
  next: () => void;
  prev: () => void;
  /** A stored position (bookmark, progress) or a toc href. */
  goTo: (position: string) => void;
}

export interface ViewerProps {
  data: ArrayBuffer;
  toc: TocEntry[];
  access: Access;
  /** Where to open; null: the beginning. */
  startAt: string | null;
  /** The page's colours and type, the theme already applied (see page-style.ts). */
  styles: ReaderStyles;
  /** Dark theme: images that cannot take the colours (pdf pages) are inverted. */
  dark: boolean;
  textSize: TextSize;
  mode: ReaderMode;
  onLocation: (loc: ReadingLocation) => void;
  /**
   * The end of the file (for a sample: its end): 'reached' when the last page shows,
   * 'next' when the reader asks for a page after the last one.
   */
  onEnd: (how: EndReason) => void;
  /** Page turns asked for from inside the book frame (epub iframes swallow key events). */
  onKey?: (key: string) => void;
  onError: (message: string) => void;
}

