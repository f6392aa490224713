import { useState } from 'react';
import { Card, CardHeader, EmptyState } from '@/components/Card';
import { formatPercent, probability } from '../format';
import type { Analysis } from '../types';
import { Meter } from './Meter';

const LONG_SUMMARY_PREVIEW = 600;
/** The classifier weighs every genre; the likeliest few say enough until asked for all. */
const GENRE_PREVIEW = 5;

function Words({ items, label, testId }: { items: string[]; label: string; testId: string }) {
  if (items.length === 0) return <p className="muted small">None found</p>;
  return (
    <ul className="ms-chips" aria-label={label} data-testid={testId}>
      {items.map((t) => (
        <li key={t} className="ms-chip">
          {t}
        </li>
      ))}
    </ul>
  );
}

/** What the book is about: summaries, authors, tags and characters. */
export function AboutCard({ analysis }: { analysis: Analysis }) {
  const [open, setOpen] = useState(false);
  const long = analysis.long_summary;
  const cut = long.length > LONG_SUMMARY_PREVIEW && !open;
  return (
    <Card data-testid="analysis-about">
      <CardHeader title="About the book" subtitle="Drawn from the text; edit anything that is off." />
      <div className="stack">
        <section>
          <h3 className="ms-label">Short summary</h3>
          <p data-testid="analysis-short-summary">{analysis.short_summary || <span className="muted">None found</span>}</p>
        </section>
        <section>
          <h3 className="ms-label">Long summary</h3>
          {long ? (
            <>
              <p className="ms-long" data-testid="analysis-long-summary">
                {cut ? `${long.slice(0, LONG_SUMMARY_PREVIEW).trimEnd()}…` : long}
              </p>
              {long.length > LONG_SUMMARY_PREVIEW ? (
                <button type="button" className="link-button small" onClick={() => setOpen(!open)} aria-expanded={open}>
                  {open ? 'Show less' : 'Read all of it'}
                </button>
              ) : null}
            </>
          ) : (
            <p className="muted">None found</p>
          )}
        </section>
        <section>
          <h3 className="ms-label">Authors</h3>
          <Words items={analysis.authors} label="Authors" testId="analysis-authors" />
        </section>
        <section>
          <h3 className="ms-label">Characters</h3>
          <Words items={analysis.characters} label="Characters" testId="analysis-characters" />
        </section>
        <section>
          <h3 className="ms-label">Tags</h3>
          <Words items={analysis.tags} label="Tags" testId="analysis-tags" />
        </section>
      </div>
    </Card>
  );
}

/** The genre found, and how sure the classifier was of each one it weighed. */
export function GenreCard({ analysis }: { analysis: Analysis }) {
  const [all, setAll] = useState(false);
  const scores = [...analysis.genre_scores].sort((a, b) => b.probability - a.probability);
  const shown = all ? scores : scores.slice(0, GENRE_PREVIEW);
  return (
    <Card data-testid="analysis-genre">
      <CardHeader
        title="Genre"
        subtitle="The classifier's reading of the text."
        actions={analysis.genre ? <span className="badge badge-primary ms-genre" data-testid="analysis-genre-name">{analysis.genre}</span> : null}
      />
      {scores.length === 0 ? (
        <EmptyState icon="compass" title={analysis.genre ? `Read as ${analysis.genre}` : 'No genre was found'} />
      ) : (
        <ul className="ms-genres">
          {shown.map((g) => (
            <li key={g.genre} className="ms-genre-row" data-testid="genre-score">
              <span className="ms-genre-name">{g.genre}</span>
              <Meter share={probability(g.probability)} label={g.genre} valueText={formatPercent(g.probability)} />
              <span className="muted small ms-genre-pct">{formatPercent(g.probability)}</span>
            </li>
          ))}
          {scores.length > GENRE_PREVIEW ? (
            <li>
              <button type="button" className="link-button small" onClick={() => setAll(!all)} aria-expanded={all}>
                {all ? 'Show the likeliest only' : `Show all ${scores.length} genres`}
              </button>
            </li>
          ) : null}
        </ul>
      )}
    </Card>
  );
}
