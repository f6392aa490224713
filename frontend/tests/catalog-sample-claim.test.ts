import { describe, expect, it } from 'vitest';
import { sampleBadge, sampleClaim } from '@/features/catalog/sample-claim';

const entry = (title: string, trial: boolean, marks: { front?: boolean; partial?: boolean } = {}) => ({
  title,
  trial,
  front_matter: marks.front ?? false,
  trial_partial: marks.partial ?? false,
});

describe('the free sample claim', () => {
  it('counts the chapters of the story, not the title page and licence before them', () => {
    const toc = [
      entry('Where the Rivers Sing', true, { front: true }),
      entry('The Silent Fiddle', true),
      entry('Upstream', false),
      entry('The Tune', false),
    ];
    expect(sampleClaim(toc)).toBe('The free sample covers 1 of 3 chapters.');
    expect(toc.map(sampleBadge)).toEqual(['Free sample', 'Free sample', 'Full book', 'Full book']);
  });

  it('says when only the opening pages of a long first chapter are in it', () => {
    const toc = [entry('Cover', true, { front: true }), entry('Address of 1862', true, { partial: true }), entry('Address of 1863', false)];
    expect(sampleClaim(toc)).toBe('The free sample covers the opening pages of \u201cAddress of 1862\u201d, the first of 2 chapters.');
    expect(sampleBadge(toc[1])).toBe('Opening free');
    expect(sampleClaim([entry('Only', true, { partial: true })])).toBe("The free sample covers the opening pages of the book's only chapter.");
  });

  it('reads replies without the marks as chapters', () => {
    expect(sampleClaim([{ title: 'Landfall', trial: true }, { title: 'The Keeper', trial: false }])).toBe(
      'The free sample covers 1 of 2 chapters.',
    );
    expect(sampleClaim([{ title: 'One page', trial: false }])).toBe('The free sample holds none of the chapters.');
  });
});
