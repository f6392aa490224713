// Chapters from the toc; those beyond the sample are shown locked.
import type { Access, TocEntry } from '../types';

const LOCK = (
  <svg width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden focusable="false">
    <rect x="4" y="11" width="16" height="10" rx="2" />
    <path d="M8 11V7a4 4 0 0 1 8 0v4" />
  </svg>
);

export function isLocked(entry: TocEntry, access: Access): boolean {
  return access === 'trial' && !entry.trial;
}

export function TocMenu({
  toc,
  access,
  current,
  onPick,
  onLocked,
}: {
  toc: TocEntry[];
  access: Access;
  current?: string;
  onPick: (entry: TocEntry) => void;
  onLocked: (entry: TocEntry) => void;
}) {
  if (toc.length === 0) return <p className="muted small toc-empty">This book has no table of contents.</p>;
  return (
    <nav aria-label="Chapters">
      <ol className="toc-list">
        {toc.map((entry) => {
          const locked = isLocked(entry, access);
          return (
            <li key={entry.index}>
              <button
                type="button"
                className={`toc-item ${locked ? 'toc-locked' : ''} ${current === entry.title ? 'toc-current' : ''}`}
                onClick={() => (locked ? onLocked(entry) : onPick(entry))}
                aria-label={locked ? `${entry.title} (locked)` : entry.title}
              >
                <span className="toc-title">{entry.title || `Chapter ${entry.index + 1}`}</span>
                {locked ? (
                  <span className="toc-lock" title="Buy the book to read this chapter">
                    {LOCK}
                  </span>
                ) : null}
              </button>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
