// Plain-text books: chapters start at the byte offsets of the table of contents
// ("offset=N"), paragraphs are separated by blank lines (or by line breaks when the file
// has no blank lines at all). Every paragraph keeps its byte offset, which is the
// position stored in progress and bookmarks, so the server's offsets and ours agree.
import type { TocEntry } from './types';

export interface TxtParagraph {
  /** Byte offset of the paragraph's first character in the file. */
  offset: number;
  text: string;
}

export interface TxtChapter {
  /** The toc index; -1 for the text before the first chapter. */
  index: number;
  title: string;
  offset: number;
  paragraphs: TxtParagraph[];
}

export interface TxtBook {
  chapters: TxtChapter[];
  totalBytes: number;
}

const OFFSET_RE = /^offset=(\d+)$/;

/** "offset=123" -> 123; anything else -> null. */
export function parseOffset(position: string | null | undefined): number | null {
  const m = OFFSET_RE.exec((position ?? '').trim());
  return m ? Number(m[1]) : null;
}

function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++; // the low surrogate belongs to the same code point
    } else n += 3;
  }
  return n;
}

/** Splits one chapter's text into paragraphs with their byte offsets. */
export function splitParagraphs(text: string, baseOffset: number, byLine: boolean): TxtParagraph[] {
  const sep = byLine ? /\r?\n/g : /\r?\n[ \t]*\r?\n(?:[ \t]*\r?\n)*/g;
  const out: TxtParagraph[] = [];
  let bytes = baseOffset;
  let last = 0;
  const push = (end: number) => {
    const raw = text.slice(last, end);
    const lead = raw.length - raw.trimStart().length;
    const body = raw.trim();
    if (body) out.push({ offset: bytes + utf8Length(raw.slice(0, lead)), text: body.replace(/\s*\r?\n\s*/g, ' ') });
    bytes += utf8Length(raw);
  };
  for (const m of text.matchAll(sep)) {
    const at = m.index ?? 0;
    push(at);
    bytes += utf8Length(m[0]);
    last = at + m[0].length;
  }
  push(text.length);
  return out;
}

/** Builds the chapters of a txt file from its bytes and the toc's byte offsets. */
export function splitTxtBook(data: ArrayBuffer | Uint8Array, toc: TocEntry[]): TxtBook {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const whole = decoder.decode(bytes.subarray(bom));
  const byLine = !/\r?\n[ \t]*\r?\n/.test(whole);

  const starts = toc
    .map((t) => ({ index: t.index, title: t.title, offset: parseOffset(t.href) }))
    .filter((t): t is { index: number; title: string; offset: number } => t.offset !== null && t.offset < bytes.length)
    .sort((a, b) => a.offset - b.offset);

  const bounds: { index: number; title: string; offset: number }[] = [];
  const first = starts[0]?.offset ?? bytes.length;
  if (first > bom) bounds.push({ index: -1, title: '', offset: bom });
  for (const s of starts) bounds.push({ ...s, offset: Math.max(s.offset, bom) });
  if (bounds.length === 0) bounds.push({ index: -1, title: '', offset: bom });

  const chapters: TxtChapter[] = [];
  for (let i = 0; i < bounds.length; i++) {
    const start = bounds[i].offset;
    const end = i + 1 < bounds.length ? bounds[i + 1].offset : bytes.length;
    if (end < start) continue;
    const text = decoder.decode(bytes.subarray(start, end));
    const paragraphs = splitParagraphs(text, start, byLine);
    if (paragraphs.length === 0 && bounds[i].index === -1) continue;
    chapters.push({ index: bounds[i].index, title: bounds[i].title, offset: start, paragraphs });
  }
  return { chapters, totalBytes: bytes.length };
}

/** The paragraph that holds a byte offset (the last one starting at or before it). */
export function paragraphAt(book: TxtBook, offset: number): TxtParagraph | null {
  let found: TxtParagraph | null = null;
  for (const ch of book.chapters) {
    for (const p of ch.paragraphs) {
      if (p.offset <= offset) found = p;
      else return found ?? p;
    }
  }
  return found;
}
