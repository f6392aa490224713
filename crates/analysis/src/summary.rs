//! Summaries of a book and of its chapters.
//!
//! Chapter summaries are extracts: the chapter's own sentences, chosen by TextRank (see
//! [`rank`]) and read back in their original order. Book summaries are blurbs (see
//! [`book`]): a sentence composed from what the analysis knows (the lead and the other
//! main characters, the place the book returns to, its subjects, its genre when it is
//! sure of it), then the book's own sentences ranked by what the whole book is about,
//! each of its kind (see [`kind`]): a story's premise and arc, a play's situation, the
//! poems' own lines, a non-fiction book's argument.
//!
//! Only sentences that read well out of context are candidates (see [`shape`]). Sentences
//! naming a main character are boosted and the short summaries keep the leading character
//! in when any candidate names them; a chapter already quoted counts against its other
//! sentences, so long summaries cover the book.

mod book;
mod compose;
mod facts;
mod kind;
pub(crate) mod rank;
mod shape;
mod speech;

pub(crate) use book::{About, book_summaries};

use crate::doc::Doc;
use shape::{context_weight, is_candidate, prose, readable_length};

/// Words a short book summary aims at.
pub const SHORT_WORDS: usize = 60;
/// Words a long book summary aims at.
pub const LONG_WORDS: usize = 300;
/// Words a chapter summary aims at.
pub const CHAPTER_WORDS: usize = 40;

/// Sentence ranks and what each sentence offers a summary.
pub(crate) struct Summariser<'d, 'a> {
    doc: &'d Doc<'a>,
    content: Vec<Vec<u32>>,
    /// Ranking score per sentence; 0 for sentences that are not candidates.
    score: Vec<f32>,
    /// Whether the sentence names the leading character.
    lead: Vec<bool>,
}

impl<'d, 'a> Summariser<'d, 'a> {
    /// Ranks the sentences of `doc`; `character_words` are the word ids of the main
    /// characters' names, `lead_words` those of the leading character.
    pub fn new(
        doc: &'d Doc<'a>,
        stems: &[u32],
        character_words: &[u32],
        lead_words: &[u32],
    ) -> Self {
        let content = rank::content_words(doc, stems);
        let ranks = rank::text_rank(&content);
        let n = doc.sentences.len().max(1) as f32;
        let mut lead = Vec::with_capacity(doc.sentences.len());
        let score = doc
            .sentences
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let tokens = doc.sentence_tokens(s);
                let named = tokens
                    .iter()
                    .filter(|t| character_words.contains(&t.word))
                    .count()
                    .min(3);
                lead.push(tokens.iter().any(|t| lead_words.contains(&t.word)));
                if !is_candidate(doc.sentence_text(s), tokens.len()) {
                    return 0.0;
                }
                // A lead bias: openings introduce the people and the setting.
                let position = 1.0 + 0.5 * (1.0 - i as f32 / n);
                let text = doc.sentence_text(s);
                let context = context_weight(text);
                ranks[i]
                    * (1.0 + 0.3 * named.min(2) as f32)
                    * position
                    * context
                    * readable_length(tokens.len())
            })
            .collect();
        Summariser {
            doc,
            content,
            score,
            lead,
        }
    }

    /// A summary of about `target` words from the sentences in `range` (indices into the
    /// document's sentences).
    pub fn summary(&self, range: std::ops::Range<usize>, target: usize) -> String {
        self.summary_with_sources(range, target).0
    }

    /// A summary as [`Self::summary`] gives it, and the sentences it is made of (indices
    /// into the document's sentences, in reading order).
    pub fn summary_with_sources(
        &self,
        range: std::ops::Range<usize>,
        target: usize,
    ) -> (String, Vec<usize>) {
        let chosen = self.choose(range, target, &self.score);
        let text = chosen
            .iter()
            .map(|&i| prose(self.doc.sentence_text(&self.doc.sentences[i])))
            .collect::<Vec<_>>()
            .join(" ");
        (text, chosen)
    }

    fn words(&self, i: usize) -> usize {
        self.doc.sentences[i].tokens.len()
    }

    /// The sentences of `range` a summary of about `target` words is made of, by
    /// `weight` (0 for sentences that may not be used), in reading order.
    fn choose(&self, range: std::ops::Range<usize>, target: usize, weight: &[f32]) -> Vec<usize> {
        let range = range.start.min(weight.len())..range.end.min(weight.len());
        let mut order: Vec<usize> = range.filter(|&i| weight[i] > 0.0).collect();
        order.sort_by(|&a, &b| weight[b].total_cmp(&weight[a]).then(a.cmp(&b)));
        let ceiling = target + target / 4;
        let mut chosen: Vec<usize> = Vec::new();
        let mut total = 0;
        let mut per_chapter: Vec<u32> = vec![0; self.doc.chapters.len()];
        let adjusted = |i: usize, per_chapter: &[u32]| {
            let seen = per_chapter[self.doc.sentences[i].chapter];
            weight[i] * 0.6f32.powi(seen as i32)
        };
        // Greedy by score, with chapters already quoted weighing against their sentences.
        let mut pool = order.clone();
        while total < target * 4 / 5 && !pool.is_empty() {
            let best = pool
                .iter()
                .enumerate()
                .filter(|&(_, &i)| total + self.words(i) <= ceiling)
                .filter(|&(_, &i)| !chosen.iter().any(|&c| self.overlap(c, i) > 0.5))
                .max_by(|&(_, &a), &(_, &b)| {
                    adjusted(a, &per_chapter)
                        .total_cmp(&adjusted(b, &per_chapter))
                        .then(b.cmp(&a))
                })
                .map(|(at, &i)| (at, i));
            let Some((at, i)) = best else { break };
            pool.remove(at);
            total += self.words(i);
            per_chapter[self.doc.sentences[i].chapter] += 1;
            chosen.push(i);
            // Only the head of the ranking is worth scanning again.
            pool.truncate(400);
        }
        if chosen.is_empty() && target > 0 {
            // Every candidate is longer than the budget: the shortest of the best few.
            if let Some(&i) = order.iter().take(10).min_by_key(|&&i| self.words(i)) {
                chosen.push(i);
            }
        }
        self.keep_lead_character(&order, &mut chosen, ceiling, weight);
        chosen.sort_unstable();
        chosen
    }

    /// If no chosen sentence names the leading character, swap the weakest for the best
    /// one that does and fits.
    fn keep_lead_character(
        &self,
        order: &[usize],
        chosen: &mut [usize],
        ceiling: usize,
        weight: &[f32],
    ) {
        if chosen.iter().any(|&i| self.lead[i]) {
            return;
        }
        let Some(weakest) = chosen
            .iter()
            .enumerate()
            .min_by(|a, b| weight[*a.1].total_cmp(&weight[*b.1]))
            .map(|(at, _)| at)
        else {
            return;
        };
        let rest: usize =
            chosen.iter().map(|&i| self.words(i)).sum::<usize>() - self.words(chosen[weakest]);
        if let Some(&named) = order
            .iter()
            .find(|&&i| self.lead[i] && rest + self.words(i) <= ceiling)
        {
            chosen[weakest] = named;
        }
    }

    /// Share of the smaller sentence's content words found in the other.
    fn overlap(&self, a: usize, b: usize) -> f32 {
        let (x, y) = (&self.content[a], &self.content[b]);
        let smaller = x.len().min(y.len());
        if smaller == 0 {
            return 0.0;
        }
        let shared = x.iter().filter(|w| y.binary_search(w).is_ok()).count();
        shared as f32 / smaller as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc_of(text: &str) -> Doc<'_> {
        Doc::single(text)
    }

    #[test]
    fn summary_keeps_order_budget_and_the_named_character() {
        let text = "Mara kept the lighthouse on the northern cape for twenty years. \
            The storm broke the lamp of the lighthouse in the night. \
            Fishermen from the village feared the dark water without the light. \
            \"We need the lamp,\" they said. \
            Mara climbed the tower and mended the lamp before the boats came home. \
            The village thanked Mara with bread and salt at the harbour. \
            Seagulls circled over the empty market square all afternoon.";
        let doc = doc_of(text);
        let stems = doc.vocab.stem_groups();
        let mara = doc.vocab.id("mara").unwrap();
        let s = Summariser::new(&doc, &stems, &[mara], &[mara]);
        let short = s.summary(0..doc.sentences.len(), 25);
        assert!(short.contains("Mara"), "{short}");
        assert!(!short.contains('"'));
        let words = short.split_whitespace().count();
        assert!((10..=31).contains(&words), "{words}: {short}");
        let positions: Vec<usize> = short
            .split(". ")
            .map(|part| text.find(part.trim_end_matches('.')).unwrap())
            .collect();
        assert!(positions.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn nothing_to_summarise_gives_an_empty_summary() {
        let doc = doc_of("\"Hi!\" \"Bye!\"");
        let s = Summariser::new(&doc, &doc.vocab.stem_groups(), &[], &[]);
        assert_eq!(s.summary(0..doc.sentences.len(), 60), "");
        assert_eq!(s.summary(5..9, 60), "");
    }
}
