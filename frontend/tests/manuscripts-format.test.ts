// How the analysis' numbers read, and how half-filled replies are read into whole shapes.
import { describe, expect, it } from 'vitest';
import {
  aiTone,
  formatPercent,
  formatScore,
  formatValue,
  leaningPosition,
  leaningText,
  probability,
  scaleOf,
  scoreOutOf100,
  scoreShare,
} from '@/features/manuscripts/format';
import { overallScore, qaScale, readDetail, readPage, readProgress } from '@/features/manuscripts/read';
import { withTags } from '@/features/manuscripts/components/TagEditor';
import { changesOf, splitAuthors } from '@/features/manuscripts/components/ManuscriptEditForm';
import { bookReply, detailReply } from './support/manuscripts';

describe('numbers', () => {
  it('reads probabilities as 0-1 whichever way they came', () => {
    expect(probability(0.42)).toBe(0.42);
    expect(probability(42)).toBe(0.42);
    expect(probability(-3)).toBe(0);
    expect(probability(Number.NaN)).toBe(0);
    expect(formatPercent(0.186)).toBe('19%');
    expect(aiTone(0.2)).toBe('success');
    expect(aiTone(0.5)).toBe('warning');
    expect(aiTone(80)).toBe('danger');
  });

  it('tells a block of scores its scale and writes scores on it', () => {
    expect(scaleOf([0.4, 0.9])).toBe(1);
    expect(scaleOf([7.5, 4])).toBe(10);
    expect(scaleOf([72, 9])).toBe(100);
    expect(formatScore(0.72, 1)).toEqual({ value: '72', max: 100 });
    expect(formatScore(7.46, 10)).toEqual({ value: '7.5', max: 10 });
    expect(formatScore(null, 100)).toBeNull();
    expect(scoreShare(150, 100)).toBe(1);
    expect(scoreOutOf100(7.5, 10)).toBe(75);
    expect(formatValue(0.7349)).toBe('0.73');
    expect(formatValue(3)).toBe('3');
  });

  it('places a leaning between human and machine', () => {
    expect(leaningText(-0.6)).toBe('Leans human');
    expect(leaningText(0.1)).toBe('Neutral');
    expect(leaningText(0.2)).toBe('Leans machine');
    expect(leaningPosition(-1)).toBe(0);
    expect(leaningPosition(0)).toBe(50);
    expect(leaningPosition(3)).toBe(100);
  });
});

describe('replies', () => {
  it('reads a reply with missing and odd fields into a whole manuscript', () => {
    const d = readDetail({
      manuscript_id: 'm',
      analyze_dict: { authors: 'Ann Lee, Bo Chen', tags: ['a', 7, ''], characters: ['', { name: ' Tom ' }, { role: 'x' }], genre_scores: [{ genre: 'Poetry', probability: '0.5' }, {}] },
      qa: { scores: { 'Overall Score': '8', junk: {} }, parts: [{ key: 'k', score: 'x' }] },
      ai_check_dict: { signals: [{ label: 'S', leaning: 4 }], chapters: [{ title: 'One' }] },
      chapters: [{ title: 'One', words: '120' }, null],
    });
    expect(d.analyze_dict.authors).toEqual(['Ann Lee', 'Bo Chen']);
    expect(d.analyze_dict.tags).toEqual(['a', '7']);
    expect(d.analyze_dict.characters).toEqual(['Tom']);
    expect(d.analyze_dict.genre_scores).toEqual([{ genre: 'Poetry', probability: 0.5 }]);
    expect(d.qa.scores).toEqual({ 'Overall Score': 8 });
    expect(d.qa.parts).toEqual([{ key: 'k', label: 'k', score: 0, measure: '', advice: '' }]);
    expect(overallScore(d.qa)).toBe(8);
    expect(qaScale(d.qa)).toBe(10);
    expect(d.ai_check_dict.signals[0]).toMatchObject({ label: 'S', leaning: 1, value: 0 });
    expect(d.ai_check_dict.chapters).toEqual([{ index: 1, title: 'One', probability: 0 }]);
    expect(d.chapters).toEqual([{ index: 1, title: 'One', words: 120, summary: '', ai_probability: 0 }]);
    expect(readDetail('nonsense').book_id).toBe('');
  });

  it('reads the list under items (or result) and keeps only rows with an id', () => {
    expect(readPage({ items: [{ manuscript_id: 'a', state: 'published' }, { title: 'no id' }], total: 9 }, 2, 5)).toMatchObject({
      items: [{ manuscript_id: 'a', state: 'published' }],
      total: 9,
      page: 2,
      page_size: 5,
    });
    expect(readPage({ result: [{ manuscript_id: 'b', state: 'weird' }] }, 1, 10).items[0].state).toBe('analysed');
    expect(readProgress({ step: 'x', step_index: '2', done: 'yes' })).toMatchObject({ step: 'x', step_index: 2, done: false });
  });
});

describe('form rules', () => {
  it('adds tags once, trimmed, within the limits', () => {
    expect(withTags(['Sea'], ' sea , harbour  town,,')).toEqual({ tags: ['Sea', 'harbour town'], error: null });
    expect(withTags([], 'x'.repeat(51)).error).toBe('Must be at most 50 characters');
    const many = Array.from({ length: 30 }, (_, i) => `tag-number-${i}-xxxxxxxxxxxxxxxxxx`);
    expect(withTags(many.slice(0, 29), many[29]).error).toBeNull();
    expect(withTags(many, 'one-more-tag-that-does-not-fit').error).toBe('Must be at most 1000 characters');
  });

  it('saves only what differs from the book, the analysis filling what the book lacks', () => {
    const detail = readDetail(detailReply());
    expect(splitAuthors(' Ann ,, Bo ')).toEqual(['Ann', 'Bo']);
    const book = { ...bookReply({ genre: '', assessment_score: 0 }) } as never;
    const values = { title: 'The Lighthouse Keeper', authors: 'Wren Hale', short_summary: 'A keeper finds a letter in a bottle.', long_summary: bookReply().long_summary, genre: 'Literary' };
    expect(changesOf(book, detail, values)).toEqual({ genre: 'Literary', assessment_score: 72 });
    expect(changesOf(null, detail, values)).toMatchObject({ title: 'The Lighthouse Keeper', authors: ['Wren Hale'], genre: 'Literary' });
  });
});
