// The full-screen toggle's glyph: corners pointing out (enter) or in (leave). Drawn like
// the shared icons (24-unit box, stroke in the current colour).
export function FullscreenIcon({ on, size = 18 }: { on: boolean; size?: number }) {
  const d = on ? 'M8 3v5H3M21 8h-5V3M3 16h5v5M16 21v-5h5' : 'M3 8V3h5M16 3h5v5M21 16v5h-5M8 21H3v-5';
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden>
      <path d={d} />
    </svg>
  );
}
