import { Card, CardHeader, EmptyState } from '@/components/Card';
import { formatScore, scoreShare } from '../format';
import { overallScore, qaScale } from '../read';
import type { Qa } from '../types';
import { Meter } from './Meter';

/** The quality scores as bars, each with what it measures and the advice it gives. */
export function QualityCard({ qa }: { qa: Qa }) {
  const overall = overallScore(qa);
  const scale = qaScale(qa);
  const overallText = formatScore(overall, scale);
  const kind = qa.kind;
  return (
    <Card className="ms-quality" data-testid="analysis-quality">
      <CardHeader
        title="Quality"
        subtitle="How the text reads on each measure, and what would lift it."
        actions={
          overallText ? (
            <span className="ms-overall" data-testid="analysis-overall">
              <strong>{overallText.value}</strong>
              <span className="muted"> / {overallText.max} overall</span>
            </span>
          ) : null
        }
      />
      {kind ? (
        <p className="ms-kind small" data-testid="quality-kind">
          Judged as <strong>{kind}</strong>, and measured against published {kind === 'play' ? 'plays' : kind}.
        </p>
      ) : null}
      {qa.parts.length === 0 ? (
        <EmptyState icon="chart" title="No quality measures for this manuscript" />
      ) : (
        <ul className="ms-parts">
          {qa.parts.map((p) => {
            const text = formatScore(p.score, scale);
            const valueText = text ? `${text.value} / ${text.max}` : '—';
            return (
              <li key={p.key || p.label} className="ms-part" data-testid="quality-part">
                <div className="row-between">
                  <span className="ms-part-label">{p.label}</span>
                  <span className="ms-part-score">{valueText}</span>
                </div>
                <Meter share={scoreShare(p.score, scale)} label={p.label} valueText={valueText} />
                {p.measure ? <p className="muted small">{p.measure}</p> : null}
                {p.advice ? (
                  <p className="ms-advice small">
                    <span className="ms-advice-label">Advice</span> {p.advice}
                  </p>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      {qa.notes.length > 0 ? (
        <section className="ms-notes" aria-labelledby="quality-notes">
          <h3 className="ms-label" id="quality-notes">
            {kind ? `Not measured for ${kind === 'play' ? 'a play' : kind}` : 'Not measured'}
          </h3>
          <ul className="ms-note-list">
            {qa.notes.map((n) => (
              <li key={n} className="muted small" data-testid="quality-note">
                {n}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </Card>
  );
}
