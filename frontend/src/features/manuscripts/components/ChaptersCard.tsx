import { Card, CardHeader, EmptyState } from '@/components/Card';
import { aiTone, formatCount, formatPercent } from '../format';
import type { AiChapter, Chapter } from '../types';

/** A chapter's AI probability: its own, else the AI check's for the same chapter. */
function aiOf(chapter: Chapter, checked: AiChapter[]): number {
  if (chapter.ai_probability) return chapter.ai_probability;
  return checked.find((c) => c.index === chapter.index)?.probability ?? 0;
}

/** Chapter by chapter: title, length, summary and AI probability. */
export function ChaptersCard({ chapters, checked }: { chapters: Chapter[]; checked: AiChapter[] }) {
  return (
    <Card data-testid="analysis-chapters">
      <CardHeader title="Chapters" subtitle={`${chapters.length} ${chapters.length === 1 ? 'chapter' : 'chapters'}, in reading order.`} />
      {chapters.length === 0 ? (
        <EmptyState icon="file" title="No chapters were found" />
      ) : (
        <ol className="ms-chapters">
          {chapters.map((c) => {
            const ai = aiOf(c, checked);
            return (
              <li key={`${c.index}-${c.title}`} className="ms-chapter" data-testid="analysis-chapter">
                <span className="ms-chapter-n">{c.index}</span>
                <div className="ms-chapter-body">
                  <div className="ms-chapter-head">
                    <h3 className="ms-chapter-title">{c.title || `Chapter ${c.index}`}</h3>
                    <span className="muted small">{formatCount(c.words)} words</span>
                    <span className={`badge badge-${aiTone(ai)}`} title="Probability that this chapter was machine-written">
                      AI {formatPercent(ai)}
                    </span>
                  </div>
                  {c.summary ? <p className="ms-chapter-summary">{c.summary}</p> : null}
                </div>
              </li>
            );
          })}
        </ol>
      )}
    </Card>
  );
}
