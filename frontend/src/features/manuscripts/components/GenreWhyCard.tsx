import { Card, CardHeader, EmptyState } from '@/components/Card';
import { chapterName, formatPercent, formatWeight, probability } from '../format';
import type { Analysis, Chapter, GenreEvidence, GenreFeature } from '../types';
import { Meter } from './Meter';

const STYLE = 'style: ';

/** What became of the writer's own genre, in a badge and a sentence. */
function HintLine({ evidence, genre, likeliest }: { evidence: GenreEvidence; genre: string; likeliest: string }) {
  const hint = evidence.hint;
  if (!hint) {
    return (
      <p className="ms-why-hint" data-testid="genre-hint">
        <span className="badge">Chosen by the analysis</span> You gave no genre, so the likeliest one was taken.
      </p>
    );
  }
  if (evidence.hint_overruled) {
    return (
      <p className="ms-why-hint" data-testid="genre-hint">
        <span className="badge badge-warning">Your genre was overruled</span> You chose {hint}, but the text reads clearly as {genre || 'another genre'}: at
        least three times as likely, even with your choice weighed in.
      </p>
    );
  }
  return (
    <p className="ms-why-hint" data-testid="genre-hint">
      <span className="badge badge-success">Your genre was kept</span>{' '}
      {likeliest && likeliest !== hint
        ? `You chose ${hint}; the text leans to ${likeliest}, but not clearly enough to overrule you.`
        : `You chose ${hint}, and the text reads as it too.`}
    </p>
  );
}

function Feature({ feature, top }: { feature: GenreFeature; top: number }) {
  const style = feature.feature.startsWith(STYLE);
  const name = style ? feature.feature.slice(STYLE.length) : feature.feature;
  const weight = formatWeight(feature.weight);
  return (
    <li className="ms-feature" data-testid="genre-feature">
      <span className="ms-feature-name">
        {style ? <span className="badge">style</span> : null} {name}
      </span>
      <Meter share={top > 0 ? Math.abs(feature.weight) / top : 0} label={name} valueText={`${weight} nats`} />
      <span className="muted small ms-feature-weight">{weight}</span>
    </li>
  );
}

/** Why the genre is what it is: the reason, the writer's genre, the passages and words that decided it. */
export function GenreWhyCard({ analysis, chapters }: { analysis: Analysis; chapters: Chapter[] }) {
  const evidence = analysis.genre_evidence;
  const genre = analysis.genre;
  const top = Math.max(0, ...evidence.features.map((f) => Math.abs(f.weight)));
  const likeliest = [...analysis.genre_scores].sort((a, b) => b.probability - a.probability)[0]?.genre ?? '';
  const known = evidence.reason || evidence.passages.length > 0 || evidence.features.length > 0;
  return (
    <Card className="ms-why" data-testid="analysis-why-genre">
      <CardHeader title="Why this genre" subtitle="What the classifier read, and what became of your own choice." />
      {!known ? (
        <EmptyState icon="compass" title="No reasons were kept for this manuscript">
          It was analysed before the analysis gave its reasons; upload it again to see them.
        </EmptyState>
      ) : (
        <div className="stack">
          {evidence.reason ? (
            <p className="ms-why-reason" data-testid="genre-reason">
              {evidence.reason}
            </p>
          ) : null}
          <HintLine evidence={evidence} genre={genre} likeliest={likeliest} />
          {evidence.passages_read > 0 ? (
            <p className="muted small" data-testid="genre-read">
              {evidence.passages_read === 1 ? 'Read as one passage' : `${evidence.passages_read} passages read, spread over the whole text`}
              {evidence.play ? ', as a play: the speakers’ names and stage directions set aside.' : '.'}
            </p>
          ) : null}
          {evidence.passages.length > 0 ? (
            <section aria-labelledby="why-genre-passages">
              <h3 className="ms-label" id="why-genre-passages">
                The passages that decided it
              </h3>
              <ol className="ms-passages">
                {evidence.passages.map((p) => (
                  <li key={`${p.chapter}-${p.offset}`} className="ms-passage" data-testid="genre-passage">
                    <blockquote className="ms-quote">{p.excerpt}</blockquote>
                    <div className="ms-passage-meta">
                      <span className="muted small" data-testid="genre-passage-chapter">
                        {chapterName(chapters, p.chapter)}
                      </span>
                      <Meter share={probability(p.probability)} label={`${genre} in this passage`} valueText={formatPercent(p.probability)} />
                      <span className="small ms-passage-pct" data-testid="genre-passage-probability">
                        {formatPercent(p.probability)} {genre}
                      </span>
                    </div>
                  </li>
                ))}
              </ol>
            </section>
          ) : null}
          {evidence.features.length > 0 ? (
            <details className="ms-disclosure" data-testid="genre-features">
              <summary>
                The words and traits that weighed most <span className="muted">({evidence.features.length})</span>
              </summary>
              <p className="muted small">How far each pushed the text towards {genre || 'its genre'}, in nats, averaged over the passages read.</p>
              <ul className="ms-features" aria-label="Words and traits">
                {evidence.features.map((f) => (
                  <Feature key={f.feature} feature={f} top={top} />
                ))}
              </ul>
            </details>
          ) : null}
        </div>
      )}
    </Card>
  );
}
