// The manuscripts' shapes: the replies of the manuscript routes, derived from the types
// generated from the gateway's OpenAPI document (src/lib/api-types.ts); nothing about them
// is written by hand. What the screens send (the upload, the edit) is written here, in the
// screens' own terms (files, lists). The book a manuscript becomes is the catalog's Book.
import type { components } from '@/lib/api-schema';
import type { AiCheck, Manuscript, ManuscriptRow } from '@/lib/api-types';

export type { AiCheck, AnalysisProgress, Book, ManuscriptPage } from '@/lib/api-types';

/** A genre of the platform's taxonomy (the document's Genre enum, built from quire-genres). */
export type Genre = components['schemas']['Genre'];

/** The reply of publish_entry, publish_entry_chapter and GET manuscripts/{id}. */
export type ManuscriptDetail = Manuscript;
/** What the analysis found in the text (`analyze_dict`). */
export type Analysis = Manuscript['analyze_dict'];
/** One genre the classifier weighed, with its probability (0-1). */
export type GenreScore = Analysis['genre_scores'][number];
/** Why the genre is what it is: the writer's genre kept or overruled, the deciding passages and words. */
export type GenreEvidence = Analysis['genre_evidence'];
/** A passage the genre rests on; `chapter` is a chapter's `index`, `probability` 0-1. */
export type GenrePassage = GenreEvidence['passages'][number];
/** A word, a pair of words or a style trait ("style: ..."), and its weight (nats). */
export type GenreFeature = GenreEvidence['features'][number];
/** A passage of the book a summary is made of; `in_short`: the short summary uses it. */
export type SummarySource = Analysis['summary_sources'][number];
/** The quality block: `scores` has overall_score (or 'Overall Score') and one per part. */
export type Qa = Manuscript['qa'];
export type QaPart = Qa['parts'][number];
/** One clue of the AI check; leaning runs from -1 (reads human) to +1 (reads machine). */
export type AiSignal = AiCheck['signals'][number];
export type AiChapter = AiCheck['chapters'][number];
export type Chapter = Manuscript['chapters'][number];
/** A row of GET /api/manuscripts. */
export type ManuscriptSummary = ManuscriptRow;
export type ManuscriptState = ManuscriptRow['state'];

/** An upload as the form gives it. */
export interface UploadInput {
  files: File[];
  /** Empty: let the analysis decide. */
  genre: string;
  /** Each file is one chapter (publish_entry_chapter). */
  perChapter: boolean;
  /** The writer's user_id. */
  uid: string;
}

/**
 * Fields of update_book/ the manuscript screens change (a subset of the catalog's
 * BookUpdate, which the route hands the save to); only the ones present are sent.
 */
export interface ManuscriptUpdate {
  title?: string;
  short_summary?: string;
  long_summary?: string;
  authors?: string[];
  tags?: string[];
  genre?: string;
  /** 0-100. */
  assessment_score?: number;
}
