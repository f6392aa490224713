// Display settings of the book viewer (spec section 2, "Reader settings"), persisted
// across visits: theme (the reader's frame), textSize, mode (paginated or scrolled),
// appearance (one of the three presets), visible (which side panels are open) and styles
// (what the page itself gets: background, colour, font size and weight).
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

export type Appearance = 'original' | 'calmBold' | 'calmLarger';
export type ReaderTheme = 'light' | 'dark';
export type ReaderMode = 'paginated' | 'scrolled';
export type TextSize = 100 | 120 | 150;
export type ReaderPanel = 'chat' | 'comments' | 'settings' | 'explore' | 'bookmarks';

export interface ReaderStyles {
  background: string;
  color: string;
  fontSize: string;
  fontWeight: 'normal' | 'bold';
}

/** Spec: original (white, 100%, normal); calm bold (amber-100, 120%, bold); calm larger (amber-100, 150%, bold). */
export const APPEARANCE_PRESETS: Record<Appearance, { label: string; textSize: TextSize; styles: ReaderStyles }> = {
  original: {
    label: 'Original',
    textSize: 100,
    styles: { background: '#ffffff', color: '#1f2937', fontSize: '100%', fontWeight: 'normal' },
  },
  calmBold: {
    label: 'Calm bold',
    textSize: 120,
    styles: { background: '#fef3c7', color: '#1f2937', fontSize: '120%', fontWeight: 'bold' },
  },
  calmLarger: {
    label: 'Calm larger',
    textSize: 150,
    styles: { background: '#fef3c7', color: '#1f2937', fontSize: '150%', fontWeight: 'bold' },
  },
};

export type PanelVisibility = Record<ReaderPanel, boolean>;

interface ReaderSettingsState {
  theme: ReaderTheme;
  textSize: TextSize;
  mode: ReaderMode;
  appearance: Appearance;
  visible: PanelVisibility;
  styles: ReaderStyles;
  setTheme: (theme: ReaderTheme) => void;
  setMode: (mode: ReaderMode) => void;
  setTextSize: (size: TextSize) => void;
  setAppearance: (appearance: Appearance) => void;
  togglePanel: (panel: ReaderPanel, open?: boolean) => void;
  /** Opens one panel and closes the others (a second call on an open panel closes it). */
  showPanel: (panel: ReaderPanel) => void;
  closePanels: () => void;
  reset: () => void;
}

const CLOSED: PanelVisibility = { chat: false, comments: false, settings: false, explore: false, bookmarks: false };

const initial = {
  theme: 'light' as ReaderTheme,
  textSize: 100 as TextSize,
  mode: 'paginated' as ReaderMode,
  appearance: 'original' as Appearance,
  visible: { ...CLOSED },
  styles: APPEARANCE_PRESETS.original.styles,
};

/** The left part of the book view shows whenever any side panel is open (spec section 2). */
export function isLeftPartVisible(visible: PanelVisibility): boolean {
  return Object.values(visible).some(Boolean);
}

export const READER_SETTINGS_KEY = 'readerSettings';

export const useReaderSettings = create<ReaderSettingsState>()(
  persist(
    (set) => ({
      ...initial,
      setTheme: (theme) => set({ theme }),
      setMode: (mode) => set({ mode }),
      setTextSize: (textSize) => set((s) => ({ textSize, styles: { ...s.styles, fontSize: `${textSize}%` } })),
      setAppearance: (appearance) => {
        const preset = APPEARANCE_PRESETS[appearance];
        set({ appearance, textSize: preset.textSize, styles: { ...preset.styles } });
      },
      togglePanel: (panel, open) =>
        set((s) => ({ visible: { ...s.visible, [panel]: open ?? !s.visible[panel] } })),
      showPanel: (panel) =>
        set((s) => ({ visible: { ...CLOSED, [panel]: !s.visible[panel] } })),
      closePanels: () => set({ visible: { ...CLOSED } }),
      reset: () => set({ ...initial, visible: { ...initial.visible }, styles: { ...initial.styles } }),
    }),
    {
      name: READER_SETTINGS_KEY,
      storage: createJSONStorage(() => localStorage),
      // A stored copy from an older version may miss keys: fill them from the defaults.
      merge: (persisted, current) => {
        const p = (persisted ?? {}) as Partial<ReaderSettingsState>;
        return {
          ...current,
          ...p,
          visible: { ...current.visible, ...(p.visible ?? {}) },
          styles: { ...current.styles, ...(p.styles ?? {}) },
        };
      },
      partialize: (s) => ({
        theme: s.theme,
        textSize: s.textSize,
        mode: s.mode,
        appearance: s.appearance,
        visible: s.visible,
        styles: s.styles,
      }),
    },
  ),
);
