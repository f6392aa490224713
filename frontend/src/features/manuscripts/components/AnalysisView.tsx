import type { ReactNode } from 'react';
import { Card, CardHeader, PageHeader } from '@/components/Card';
import { aiTone, formatCount, formatPercent, formatScore } from '../format';
import { overallScore, qaScale } from '../read';
import type { ManuscriptDetail } from '../types';
import { AiCheckPanel } from './AiCheckPanel';
import { ChaptersCard } from './ChaptersCard';
import { AboutCard, GenreCard } from './FoundCards';
import { GenreWhyCard } from './GenreWhyCard';
import { PassageCheck } from './PassageCheck';
import { QualityCard } from './QualityCard';
import { SummarySourcesCard } from './SummarySourcesCard';

export interface AnalysisViewProps {
  detail: ManuscriptDetail;
  /** Links and the publish switch, from the route (the book is the catalog's). */
  actions?: ReactNode;
}

/** Everything the analysis found in a manuscript, with the AI check and a passage checker. */
export function AnalysisView({ detail, actions }: AnalysisViewProps) {
  const a = detail.analyze_dict;
  const qa = detail.qa;
  const overall = formatScore(overallScore(qa), qaScale(qa));
  const words = detail.words || detail.chapters.reduce((sum, c) => sum + c.words, 0);
  const ai = detail.ai_check_dict.probability;
  const byline = [a.authors.length ? `by ${a.authors.join(', ')}` : '', a.genre].filter(Boolean).join(' · ');

  return (
    <div className="page ms-analysis">
      <PageHeader
        eyebrow="Manuscript analysis"
        title={<span data-testid="analysis-title">{detail.title || 'Untitled manuscript'}</span>}
        subtitle={byline || 'What the analysis found in your manuscript.'}
        actions={actions}
      />
      <ul className="ms-stats" aria-label="At a glance">
        <li className="ms-stat">
          <span className="ms-stat-label">Overall score</span>
          <span className="ms-stat-value" data-testid="stat-overall">
            {overall ? (
              <>
                {overall.value}
                <span className="muted small"> / {overall.max}</span>
              </>
            ) : (
              '—'
            )}
          </span>
        </li>
        <li className="ms-stat">
          <span className="ms-stat-label">AI probability</span>
          <span className={`ms-stat-value ms-tone-${aiTone(ai)}`} data-testid="stat-ai">
            {formatPercent(ai)}
          </span>
        </li>
        <li className="ms-stat">
          <span className="ms-stat-label">Chapters</span>
          <span className="ms-stat-value" data-testid="stat-chapters">
            {detail.chapters.length}
          </span>
        </li>
        <li className="ms-stat">
          <span className="ms-stat-label">Words</span>
          <span className="ms-stat-value" data-testid="stat-words">
            {formatCount(words)}
          </span>
        </li>
      </ul>
      <div className="grid-2">
        <AboutCard analysis={a} />
        <GenreCard analysis={a} />
      </div>
      <div className="grid-2">
        <SummarySourcesCard sources={a.summary_sources} chapters={detail.chapters} />
        <GenreWhyCard analysis={a} chapters={detail.chapters} />
      </div>
      <QualityCard qa={qa} />
      <Card>
        <CardHeader title="AI check" subtitle="How likely the text is machine-written, and the clues behind it." />
        <AiCheckPanel check={detail.ai_check_dict} testId="analysis-ai" />
      </Card>
      <ChaptersCard chapters={detail.chapters} checked={detail.ai_check_dict.chapters} />
      <PassageCheck />
    </div>
  );
}
