// Under the book: page turns, how far the reader is, and the full-screen toggle.
import { Button } from '@/components/Button';
import type { Access } from '../types';
import { FullscreenIcon } from './FullscreenIcon';

export interface ReaderFooterProps {
  /** 0..=100, whole. */
  percent: number;
  access: Access;
  label?: string;
  onPrev: () => void;
  onNext: () => void;
  fullscreen: boolean;
  onFullscreen: () => void;
}

export function ReaderFooter({ percent, access, label, onPrev, onNext, fullscreen, onFullscreen }: ReaderFooterProps) {
  return (
    <footer className="reader-footer">
      <Button variant="secondary" size="sm" onClick={onPrev} aria-label="Previous page">
        ‹ Prev
      </Button>
      <div className="reader-progress" aria-live="polite">
        <div className="progress-bar" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} aria-label="Reading progress">
          <span style={{ width: `${percent}%` }} />
        </div>
        <span className="small muted" data-testid="reader-percent">
          {percent}%{access === 'trial' ? ' of the sample' : ''}
          {label ? ` · ${label}` : ''}
        </span>
      </div>
      <Button variant="secondary" size="sm" onClick={onNext} aria-label="Next page">
        Next ›
      </Button>
      <button
        type="button"
        className={`reader-tool ${fullscreen ? 'reader-tool-active' : ''}`}
        aria-pressed={fullscreen}
        onClick={onFullscreen}
        title={fullscreen ? 'Leave full screen' : 'Full screen'}
        aria-label="Full screen"
        data-testid="reader-fullscreen"
      >
        <FullscreenIcon on={fullscreen} />
      </button>
    </footer>
  );
}
