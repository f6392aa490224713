import { Badge } from '@/components/Card';
import { aiTone, formatPercent, formatValue, leaningPosition, leaningText, probability } from '../format';
import type { AiCheck } from '../types';
import { Meter } from './Meter';

/**
 * An AI check: the probability that the text was machine-written, the verdict, each signal
 * with where it leans (human to machine) and the advisory notice. Used for the whole
 * manuscript and for a checked passage.
 */
export function AiCheckPanel({ check, testId }: { check: AiCheck; testId?: string }) {
  const tone = aiTone(check.probability);
  return (
    <div className="ms-ai" data-testid={testId}>
      <div className="ms-ai-head">
        <div>
          <p className="ms-ai-figure">
            <strong data-testid="ai-probability">{formatPercent(check.probability)}</strong>
            <span className="muted small"> likely machine-written</span>
          </p>
          <Meter share={probability(check.probability)} label="AI probability" valueText={formatPercent(check.probability)} tone={tone} />
        </div>
        {check.verdict ? (
          <span className={`badge badge-${tone} ms-verdict`} data-testid="ai-verdict">
            {check.verdict}
          </span>
        ) : null}
      </div>
      {check.signals.length > 0 ? (
        <ul className="ms-signals" aria-label="Signals">
          {check.signals.map((s) => (
            <li key={s.key || s.label} className="ms-signal" data-testid="ai-signal">
              <div className="row-between">
                <span className="ms-signal-label">
                  {s.label}
                  <span className="muted small"> · {formatValue(s.value)}</span>
                </span>
                <Badge tone={s.leaning <= -0.2 ? 'success' : s.leaning >= 0.2 ? 'warning' : 'neutral'}>{leaningText(s.leaning)}</Badge>
              </div>
              <span className="ms-lean" role="img" aria-label={`${leaningText(s.leaning)} (${s.leaning.toFixed(2)} from -1 human to +1 machine)`}>
                <span className="ms-lean-mark" style={{ left: `${leaningPosition(s.leaning)}%` }} />
              </span>
              <span className="ms-lean-ends muted small" aria-hidden>
                <span>human</span>
                <span>machine</span>
              </span>
              {s.note ? <p className="muted small">{s.note}</p> : null}
            </li>
          ))}
        </ul>
      ) : null}
      {check.notice ? (
        <div className="notice notice-warning small" role="note" data-testid="ai-notice">
          <p>{check.notice}</p>
        </div>
      ) : null}
    </div>
  );
}
