// The upload form's rules, apart from the screen: which files are manuscripts, the picked
// list (ordered: the order is the book's order), the multipart body of publish_entry and
// what a failed upload says (spec section 8).
import { ApiError, errorCandidates } from '@/lib/api-client';
import type { Genre } from './types';

export const ACCEPTED_EXTENSIONS = ['.epub', '.pdf', '.txt', '.docx', '.md'] as const;
export const ACCEPT_ATTRIBUTE = ACCEPTED_EXTENSIONS.join(',');

/**
 * Every genre of the taxonomy, in its order. Keyed by the document's Genre enum (which the
 * gateway builds from the platform's taxonomy), so tsc refuses a name that is no genre and
 * a genre left out; tests/manuscripts-genres.test.ts checks the order against openapi.json.
 */
const TAXONOMY: Record<Genre, true> = {
  Mystery: true,
  Thriller: true,
  Romance: true,
  Fantasy: true,
  'Science Fiction': true,
  Horror: true,
  'Literary Fiction': true,
  'Historical Fiction': true,
  Poetry: true,
  Children: true,
  'Young Adult': true,
  Humour: true,
  History: true,
  Politics: true,
  Biography: true,
  Science: true,
  'Self-help': true,
  Cookery: true,
};

/** The genres a writer may choose; none lets the analysis decide. */
export const GENRES: readonly Genre[] = Object.keys(TAXONOMY) as Genre[];

/** Spec section 9: the upload language is always english. */
export const UPLOAD_LANGUAGE = 'english';
export const UPLOAD_FAILED = 'upload failed';

export interface PickedFile {
  /** Stable across reorders (React key, remove and move by id). */
  id: string;
  file: File;
}

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
}

export function isManuscriptFile(file: File): boolean {
  return (ACCEPTED_EXTENSIONS as readonly string[]).includes(extensionOf(file.name));
}

function sameFile(a: File, b: File): boolean {
  return a.name === b.name && a.size === b.size && a.lastModified === b.lastModified;
}

let nextId = 1;

/**
 * Adds files at the end of the list. The same file twice is kept once; files that are no
 * manuscript (wrong kind, or empty) are left out and named in `rejected`.
 */
export function addFiles(list: readonly PickedFile[], incoming: Iterable<File>): { list: PickedFile[]; rejected: string[] } {
  const out = [...list];
  const rejected: string[] = [];
  for (const file of incoming) {
    if (!isManuscriptFile(file)) {
      rejected.push(`${file.name} is not a manuscript file`);
    } else if (file.size === 0) {
      rejected.push(`${file.name} is empty`);
    } else if (!out.some((p) => sameFile(p.file, file))) {
      out.push({ id: `file-${nextId++}`, file });
    }
  }
  return { list: out, rejected };
}

export function removeFile(list: readonly PickedFile[], id: string): PickedFile[] {
  return list.filter((p) => p.id !== id);
}

/** Moves a file up (-1) or down (+1); at either end nothing moves. */
export function moveFile(list: readonly PickedFile[], id: string, delta: -1 | 1): PickedFile[] {
  const from = list.findIndex((p) => p.id === id);
  const to = from + delta;
  if (from < 0 || to < 0 || to >= list.length) return [...list];
  const out = [...list];
  [out[from], out[to]] = [out[to], out[from]];
  return out;
}

/** Why the form cannot be sent yet, or null. */
export function validateUpload(files: readonly PickedFile[], genre: string): string | null {
  if (files.length === 0) return 'Add at least one file';
  if (genre && !(GENRES as readonly string[]).includes(genre)) return `Must be one of: ${GENRES.join(', ')}`;
  return null;
}

/** A fresh upload id (a UUID, v4): randomUUID needs a secure context, so random bytes else. */
export function newUploadId(): string {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  const b = new Uint8Array(16);
  if (c && typeof c.getRandomValues === 'function') c.getRandomValues(b);
  else for (let i = 0; i < b.length; i++) b[i] = Math.floor(Math.random() * 256);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The multipart body of publish_entry(_chapter): every file in order, then the fields. */
export function uploadFormData(files: readonly File[], fields: { uid: string; genre: string; uploadId: string }): FormData {
  const form = new FormData();
  for (const file of files) form.append('files', file, file.name);
  form.append('language', UPLOAD_LANGUAGE);
  form.append('uid', fields.uid);
  form.append('genre', fields.genre);
  form.append('upload_id', fields.uploadId);
  return form;
}

/**
 * What a failed upload says: the server's text (known ones translated by the request
 * layer, so 'Book Existed Already!' reads 'We already have this!'), else 'upload failed'.
 */
export function uploadFailureMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.kind === 'abort') return 'Upload cancelled';
    if (error.kind === 'timeout') return error.message;
    if (error.kind === 'network') return UPLOAD_FAILED;
    return errorCandidates(error.body).length > 0 && error.message ? error.message : UPLOAD_FAILED;
  }
  return error instanceof Error && error.message ? error.message : UPLOAD_FAILED;
}
