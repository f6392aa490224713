// Reading the manuscript replies into whole shapes. The analysis is produced by a service
// that grows new measures over time, so a missing or odd field becomes an empty value the
// screens can show ("—", an empty list) instead of a crash on a half-filled reply.
import { scaleOf, type Scale } from './format';
import type {
  AiChapter,
  AiCheck,
  AiSignal,
  Analysis,
  AnalysisProgress,
  Chapter,
  GenreEvidence,
  GenreFeature,
  GenrePassage,
  GenreScore,
  ManuscriptDetail,
  ManuscriptPage,
  ManuscriptSummary,
  Qa,
  QaPart,
  SummarySource,
} from './types';

type Loose = Record<string, unknown>;

function isRecord(v: unknown): v is Loose {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function rec(v: unknown): Loose {
  return isRecord(v) ? v : {};
}

function str(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return '';
}

function num(v: unknown): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : 0;
}

function list<T>(v: unknown, item: (x: unknown, i: number) => T | null): T[] {
  if (!Array.isArray(v)) return [];
  return v.map(item).filter((x): x is T => x !== null);
}

/** A list of words: an array, or a comma-joined string as update_book stores them. */
function words(v: unknown): string[] {
  const raw = Array.isArray(v) ? v.map(str) : typeof v === 'string' ? v.split(',') : [];
  return raw.map((s) => s.trim()).filter(Boolean);
}

/** A chapter's number: its own index, else its place in the list (from 1). */
function position(v: Loose, i: number): number {
  return 'index' in v ? num(v.index) : i + 1;
}

/** A character's name (a name, or an object with one). */
function character(v: unknown): string | null {
  const name = (isRecord(v) ? str(v.name) : str(v)).trim();
  return name || null;
}

/** Why the genre: a reply from before the evidence was kept reads as no evidence. */
export function readEvidence(v: unknown): GenreEvidence {
  const e = rec(v);
  return {
    hint: str(e.hint) || null,
    hint_overruled: e.hint_overruled === true,
    reason: str(e.reason),
    passages_read: num(e.passages_read),
    play: e.play === true,
    passages: list<GenrePassage>(e.passages, (p) =>
      isRecord(p) && str(p.excerpt)
        ? { chapter: num(p.chapter), offset: num(p.offset), excerpt: str(p.excerpt), probability: num(p.probability) }
        : null,
    ),
    features: list<GenreFeature>(e.features, (f) =>
      isRecord(f) && str(f.feature) ? { feature: str(f.feature), weight: num(f.weight) } : null,
    ),
  };
}

function source(v: unknown): SummarySource | null {
  if (!isRecord(v) || !str(v.excerpt)) return null;
  return { chapter: num(v.chapter), offset: num(v.offset), excerpt: str(v.excerpt), in_short: v.in_short === true };
}

export function readAnalysis(v: unknown): Analysis {
  const a = rec(v);
  return {
    short_summary: str(a.short_summary),
    long_summary: str(a.long_summary),
    authors: words(a.authors),
    tags: words(a.tags),
    genre: str(a.genre),
    genre_scores: list<GenreScore>(a.genre_scores, (g) =>
      isRecord(g) && str(g.genre) ? { genre: str(g.genre), probability: num(g.probability) } : null,
    ),
    genre_evidence: readEvidence(a.genre_evidence),
    summary_sources: list(a.summary_sources, source),
    characters: list(a.characters, character),
  };
}

export function readQa(v: unknown): Qa {
  const q = rec(v);
  const scores: Record<string, number> = {};
  for (const [k, s] of Object.entries(rec(q.scores))) {
    if (typeof s === 'number' || typeof s === 'string') scores[k] = num(s);
  }
  const parts = list<QaPart>(q.parts, (p) =>
    isRecord(p)
      ? {
          key: str(p.key),
          label: str(p.label) || str(p.key),
          score: num(p.score),
          measure: str(p.measure),
          advice: str(p.advice),
        }
      : null,
  );
  return { scores, parts, kind: str(q.kind), notes: list(q.notes, (n) => str(n).trim() || null) };
}

export function readAiCheck(v: unknown): AiCheck {
  const c = rec(v);
  return {
    probability: num(c.probability),
    verdict: str(c.verdict),
    signals: list<AiSignal>(c.signals, (s) =>
      isRecord(s)
        ? {
            key: str(s.key),
            label: str(s.label) || str(s.key),
            value: num(s.value),
            leaning: Math.max(-1, Math.min(1, num(s.leaning))),
            note: str(s.note),
          }
        : null,
    ),
    chapters: list<AiChapter>(c.chapters, (ch, i) =>
      isRecord(ch) ? { index: position(ch, i), title: str(ch.title), probability: num(ch.probability) } : null,
    ),
    notice: str(c.notice),
  };
}

function chapter(v: unknown, i: number): Chapter | null {
  if (!isRecord(v)) return null;
  return {
    index: position(v, i),
    title: str(v.title),
    words: num(v.words),
    summary: str(v.summary),
    ai_probability: num(v.ai_probability),
  };
}

export function readDetail(v: unknown): ManuscriptDetail {
  const d = rec(v);
  return {
    manuscript_id: str(d.manuscript_id),
    book_id: str(d.book_id),
    title: str(d.title),
    analyze_dict: readAnalysis(d.analyze_dict),
    qa: readQa(d.qa),
    ai_check_dict: readAiCheck(d.ai_check_dict),
    chapters: list(d.chapters, chapter),
    words: num(d.words),
    created_at: str(d.created_at),
  };
}

function summary(v: unknown): ManuscriptSummary | null {
  if (!isRecord(v) || !str(v.manuscript_id)) return null;
  return {
    manuscript_id: str(v.manuscript_id),
    book_id: str(v.book_id),
    title: str(v.title),
    genre: str(v.genre),
    state: v.state === 'published' ? 'published' : 'analysed',
    overall_score: num(v.overall_score),
    ai_probability: num(v.ai_probability),
    words: num(v.words),
    chapters: num(v.chapters),
    created_at: str(v.created_at),
  };
}

/** The list reply: `items` per the contract (`result`, the gateway's usual name, also read). */
export function readPage(v: unknown, page: number, pageSize: number): ManuscriptPage {
  const d = rec(v);
  const items = list(Array.isArray(d.items) ? d.items : Array.isArray(d.result) ? d.result : v, summary);
  return {
    items,
    total: typeof d.total === 'number' ? d.total : items.length,
    page: typeof d.page === 'number' ? d.page : page,
    page_size: typeof d.page_size === 'number' ? d.page_size : pageSize,
  };
}

export function readProgress(v: unknown): AnalysisProgress {
  const p = rec(v);
  return {
    upload_id: str(p.upload_id),
    step: str(p.step),
    step_index: num(p.step_index),
    steps_total: num(p.steps_total),
    done: p.done === true,
    failed: p.failed === true,
    message: str(p.message),
  };
}

/** The overall score of a QA block: overall_score, or the key 'Overall Score' (spec section 3). */
export function overallScore(qa: Qa): number | null {
  for (const key of ['overall_score', 'Overall Score']) {
    if (key in qa.scores) return qa.scores[key];
  }
  return null;
}

/** The scale of a QA block's scores (all of its scores are on one). */
export function qaScale(qa: Qa): Scale {
  return scaleOf([...Object.values(qa.scores), ...qa.parts.map((p) => p.score)]);
}
