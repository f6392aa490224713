import { describe, expect, it } from 'vitest';
import { paragraphAt, parseOffset, splitParagraphs, splitTxtBook } from '@/features/reader/txt';
import type { TocEntry } from '@/features/reader/types';

const enc = new TextEncoder();

function tocFor(text: string, headings: string[]): TocEntry[] {
  return headings.map((h, index) => ({
    index,
    title: h,
    trial: true,
    href: `offset=${enc.encode(text.slice(0, text.indexOf(h))).length}`,
    front_matter: false,
    trial_partial: false,
  }));
}

describe('txt chapters by the toc offsets', () => {
  const text =
    'Moby-Dick\nby Herman Melville\n\nCHAPTER 1. Loomings\n\nCall me Ishmael. Some years ago —\nnever mind how long.\n\nThere now is your insular city.\n\nCHAPTER 2. The Carpet-Bag\n\nI stuffed a shirt or two — “naïve”.\n\nLast line.\n';
  const toc = tocFor(text, ['CHAPTER 1. Loomings', 'CHAPTER 2. The Carpet-Bag']);

  it('cuts chapters at the byte offsets, keeping the front matter', () => {
    const book = splitTxtBook(enc.encode(text), toc);
    expect(book.totalBytes).toBe(enc.encode(text).length);
    expect(book.chapters.map((c) => [c.index, c.title])).toEqual([
      [-1, ''],
      [0, 'CHAPTER 1. Loomings'],
      [1, 'CHAPTER 2. The Carpet-Bag'],
    ]);
    expect(book.chapters[0].paragraphs.map((p) => p.text)).toEqual(['Moby-Dick by Herman Melville']);
    expect(book.chapters[1].paragraphs.map((p) => p.text)).toEqual([
      'CHAPTER 1. Loomings',
      'Call me Ishmael. Some years ago — never mind how long.',
      'There now is your insular city.',
    ]);
    expect(book.chapters[2].paragraphs.at(-1)?.text).toBe('Last line.');
  });

  it('gives every paragraph the byte offset of its first character (multi-byte text included)', () => {
    const bytes = enc.encode(text);
    const book = splitTxtBook(bytes, toc);
    const dec = new TextDecoder();
    for (const ch of book.chapters) {
      for (const p of ch.paragraphs) {
        const first = p.text.split(' ')[0];
        expect(dec.decode(bytes.subarray(p.offset, p.offset + enc.encode(first).length))).toBe(first);
      }
    }
    const last = book.chapters[2].paragraphs.at(-1);
    expect(last?.offset).toBe(enc.encode(text.slice(0, text.indexOf('Last line.'))).length);
  });

  it('drops toc entries beyond the file (a sample) and handles a file without a toc', () => {
    const sample = text.slice(0, text.indexOf('CHAPTER 2.'));
    const book = splitTxtBook(enc.encode(sample), toc);
    expect(book.chapters.map((c) => c.index)).toEqual([-1, 0]);
    const plain = splitTxtBook(enc.encode('One.\n\nTwo.'), []);
    expect(plain.chapters).toHaveLength(1);
    expect(plain.chapters[0].paragraphs.map((p) => [p.offset, p.text])).toEqual([
      [0, 'One.'],
      [6, 'Two.'],
    ]);
  });

  it('skips a byte order mark and splits by line when there are no blank lines', () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...enc.encode('First line\nSecond line\n')]);
    const book = splitTxtBook(bom, []);
    expect(book.chapters[0].paragraphs).toEqual([
      { offset: 3, text: 'First line' },
      { offset: 14, text: 'Second line' },
    ]);
  });

  it('splits CRLF paragraphs', () => {
    expect(splitParagraphs('a\r\n\r\nb', 10, false)).toEqual([
      { offset: 10, text: 'a' },
      { offset: 15, text: 'b' },
    ]);
  });

  it('finds the paragraph holding an offset, and reads offset positions', () => {
    const book = splitTxtBook(enc.encode(text), toc);
    const p = book.chapters[1].paragraphs[1];
    expect(paragraphAt(book, p.offset + 3)).toEqual(p);
    expect(paragraphAt(book, 0)?.text).toContain('Moby-Dick');
    expect(parseOffset('offset=42')).toBe(42);
    expect(parseOffset('page=2')).toBeNull();
    expect(parseOffset(null)).toBeNull();
  });
});
