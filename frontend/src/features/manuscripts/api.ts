// The manuscripts' calls and query keys. Every call goes through the api client (timeout,
// bearer header, envelope, toasts, 401/403). The upload is multipart and reports its bytes
// (XMLHttpRequest under the client) and shows its failure in place (notify: false); the
// progress poll is quiet; the AI check takes JSON. The book a manuscript became (its
// fields, update_book, publish_book_status) is the catalog's: routes compose the two.
import { api, type UploadProgress } from '@/lib/api-client';
import { readAiCheck, readDetail, readPage, readProgress } from './read';
import type { AiCheck, AnalysisProgress, ManuscriptDetail, ManuscriptPage, UploadInput } from './types';
import { uploadFormData } from './upload';

export const DEFAULT_PAGE_SIZE = 10;
/**
 * An upload is read, analysed and made a book before its answer, which the gateway allows
 * 300 s (longer than the 100 s of every other call); the bytes get a little on top.
 */
export const UPLOAD_TIMEOUT_MS = 320_000;

// The cache is cleared on login and logout, so keys need not name the user.
export const manuscriptKeys = {
  all: ['manuscripts'] as const,
  lists: () => [...manuscriptKeys.all, 'list'] as const,
  list: (page: number, pageSize: number) => [...manuscriptKeys.lists(), page, pageSize] as const,
  detail: (id: string) => [...manuscriptKeys.all, 'detail', id] as const,
  progress: (uploadId: string) => [...manuscriptKeys.all, 'progress', uploadId] as const,
};

export interface UploadCallOptions {
  uploadId: string;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

/** POST publish_entry (or publish_entry_chapter: one chapter per file). */
export async function uploadManuscript(input: UploadInput, opts: UploadCallOptions): Promise<ManuscriptDetail> {
  const path = input.perChapter ? '/publish_entry_chapter' : '/publish_entry';
  const multipart = uploadFormData(input.files, { uid: input.uid, genre: input.genre, uploadId: opts.uploadId });
  const data = await api.post(path, {
    multipart,
    notify: false,
    signal: opts.signal,
    timeoutMs: UPLOAD_TIMEOUT_MS,
    onUploadProgress: opts.onProgress ?? (() => {}),
  });
  return readDetail(data);
}

/** Where the analysis of an upload is; quiet (the server may not know the id yet). */
export async function getUploadProgress(uploadId: string, signal?: AbortSignal): Promise<AnalysisProgress> {
  return readProgress(await api.get('/publish_entry/progress', { params: { upload_id: uploadId }, ignoreErrors: true, signal }));
}

export async function listManuscripts(page = 1, pageSize = DEFAULT_PAGE_SIZE): Promise<ManuscriptPage> {
  return readPage(await api.get('/manuscripts', { params: { page, page_size: pageSize } }), page, pageSize);
}

/** One manuscript; its screens say a failure in place (notify: false). */
export async function getManuscript(id: string): Promise<ManuscriptDetail> {
  return readDetail(await api.get(`/manuscripts/${encodeURIComponent(id)}`, { notify: false }));
}

/** POST v1/ai_checker: the AI check of a passage. */
export async function checkPassage(text: string): Promise<AiCheck> {
  return readAiCheck(await api.post('/v1/ai_checker', { json: { text } }));
}
