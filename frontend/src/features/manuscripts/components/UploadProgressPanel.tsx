import { Button } from '@/components/Button';
import { formatBytes } from '../format';
import type { AnalysisProgress } from '../types';
import type { SendState } from '../use-upload';

export interface UploadProgressPanelProps {
  sent: SendState | null;
  step: AnalysisProgress | null;
  onCancel?: () => void;
}

function Bar({ label, share, testId }: { label: string; share: number | null; testId: string }) {
  const pct = share === null ? null : Math.round(Math.min(1, Math.max(0, share)) * 100);
  return (
    <span
      className={`ms-progress-bar ${pct === null ? 'ms-progress-busy' : ''}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={pct ?? undefined}
      data-testid={testId}
    >
      <span style={pct === null ? undefined : { width: `${pct}%` }} />
    </span>
  );
}

/**
 * The two halves of an upload: the bytes going out (the request's progress events), then
 * the server's analysis steps (publish_entry/progress). step_index counts from 1.
 */
export function UploadProgressPanel({ sent, step, onCancel }: UploadProgressPanelProps) {
  const total = sent?.total ?? sent?.expected ?? 0;
  const loaded = sent?.done ? total : Math.min(sent?.loaded ?? 0, total);
  const bytesShare = sent?.done ? 1 : total > 0 ? loaded / total : 0;
  const analysing = Boolean(sent?.done);
  const known = step !== null && step.steps_total > 0;
  const index = known ? Math.max(1, Math.min(step.steps_total, step.step_index)) : 0;
  const stepShare = known ? (step.done ? 1 : index / step.steps_total) : null;

  return (
    <section className="ms-progress" aria-label="Upload progress" data-testid="upload-progress">
      <div className="ms-progress-part">
        <div className="row-between">
          <span className="ms-progress-title">{analysing ? 'Files sent' : 'Sending your files'}</span>
          <span className="muted small" data-testid="upload-bytes">
            {formatBytes(loaded)} of {formatBytes(total)} · {Math.round(bytesShare * 100)}%
          </span>
        </div>
        <Bar label="Sending files" share={bytesShare} testId="upload-bytes-bar" />
      </div>
      <div className={`ms-progress-part ${analysing ? '' : 'ms-progress-waiting'}`} aria-live="polite">
        <div className="row-between">
          <span className="ms-progress-title" data-testid="upload-step">
            {!analysing ? 'Analysis starts once the files are sent' : step?.step ? step.step : 'Starting the analysis…'}
          </span>
          {known ? (
            <span className="muted small" data-testid="upload-step-count">
              Step {index} of {step.steps_total}
            </span>
          ) : null}
        </div>
        {analysing ? <Bar label="Analysing" share={stepShare} testId="upload-step-bar" /> : null}
        {analysing && step?.message ? (
          <p className="muted small" data-testid="upload-step-message">
            {step.message}
          </p>
        ) : null}
      </div>
      {onCancel ? (
        <div className="ms-progress-actions">
          <Button variant="ghost" size="sm" onClick={onCancel}>
            Cancel upload
          </Button>
        </div>
      ) : null}
    </section>
  );
}
