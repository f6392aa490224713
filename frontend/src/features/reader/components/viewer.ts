// What every viewer (epub, pdf, txt) offers the reader view and reports back to it.
import type { ReaderMode, ReaderStyles, TextSize } from '@/stores/reader-settings';
import type { Access, ReadingLocation, TocEntry } from '../types';

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
  styles: ReaderStyles;
  textSize: TextSize;
  mode: ReaderMode;
  onLocation: (loc: ReadingLocation) => void;
  /** The reader reached the last page of the file (for a sample: its end). */
  onEnd: () => void;
  /** Page turns asked for from inside the book frame (epub iframes swallow key events). */
  onKey?: (key: string) => void;
  onError: (message: string) => void;
}

