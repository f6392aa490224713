//! A book is read as passages about as long as the training passages: the text is cut
//! into consecutive passages of about [`Settings::passage_words`] words, ending at the end
//! of a line where it can (after a sentence where a line runs on), and at most
//! [`Settings::max_passages`] of them, spread evenly from the start to the end of the
//! book, are read. A text of up to one and a half passages is one passage. The cut
//! depends on the text alone, so the same text is always read the same way.
//!
//! [`Settings::passage_words`]: super::Settings::passage_words
//! [`Settings::max_passages`]: super::Settings::max_passages

use std::ops::Range;

/// The byte ranges of the passages of `text` to read, in reading order.
pub fn sample(text: &str, passage_words: usize, max_passages: usize) -> Vec<Range<usize>> {
    let all = cut(text, passage_words.max(1));
    let keep = max_passages.max(1);
    if all.len() <= keep {
        return all;
    }
    // The middle passage of each of `keep` equal stretches of the book.
    (0..keep)
        .map(|i| all[(2 * i + 1) * all.len() / (2 * keep)].clone())
        .collect()
}

/// All passages of `text`, consecutive, covering every word.
fn cut(text: &str, target: usize) -> Vec<Range<usize>> {
    let mut passages = Vec::new();
    let first_words = whitespace_words(text).take(target + target / 2 + 1).count();
    if 2 * first_words <= 3 * target {
        // Up to one and a half passages: one.
        let mut words = whitespace_words(text);
        if let Some((at, first)) = words.next() {
            let (last_at, last) = words.last().unwrap_or((at, first));
            passages.push(at..last_at + last.len());
        }
        return passages;
    }
    let mut start: Option<usize> = None;
    let mut words = 0usize;
    // Where the previous word ended, and whether a line break or a sentence end came
    // after it.
    let mut last_end = 0usize;
    let mut line_before = false;
    let mut sentence_before = false;
    for (at, word) in whitespace_words(text) {
        let cut_here = words >= target
            && (line_before
                || (words >= target + target / 2 && sentence_before)
                || words >= 2 * target);
        if cut_here && let Some(s) = start.take() {
            passages.push(s..last_end);
            words = 0;
        }
        start.get_or_insert(at);
        words += 1;
        last_end = at + word.len();
        let gap = &text[last_end..];
        let next = gap.find(|c: char| !c.is_whitespace()).unwrap_or(gap.len());
        line_before = gap[..next].contains('\n');
        sentence_before = word
            .trim_end_matches(['"', '\'', '\u{201D}', '\u{2019}', ')', '_', '*'])
            .ends_with(['.', '!', '?', '\u{2026}']);
    }
    if let Some(s) = start {
        // A short tail belongs to the passage before it.
        match passages.last_mut() {
            Some(last) if 2 * words < target => last.end = last_end,
            _ => passages.push(s..last_end),
        }
    }
    passages
}

/// The whitespace-separated words of `text` with their byte offsets.
fn whitespace_words(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split_whitespace()
        .map(move |w| (w.as_ptr() as usize - text.as_ptr() as usize, w))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str, r: &Range<usize>) -> usize {
        text[r.clone()].split_whitespace().count()
    }

    #[test]
    fn short_texts_are_one_passage() {
        assert!(sample("", 200, 64).is_empty());
        assert!(sample("  \n ", 200, 64).is_empty());
        let text = "  One two three.\n";
        assert_eq!(sample(text, 200, 64), vec![2..16]);
        let longer = "word ".repeat(280);
        assert_eq!(sample(&longer, 200, 64).len(), 1);
    }

    #[test]
    fn passages_end_at_line_ends_and_cover_the_text() {
        let line = "ten words of prose that end a sentence right here.\n";
        let text = line.repeat(100);
        let all = cut(&text, 200);
        assert_eq!(all.len(), 5);
        for (i, p) in all.iter().enumerate() {
            assert_eq!(words(&text, p), 200, "{i}");
            assert!(text[p.clone()].ends_with("here."));
        }
        assert_eq!(all[0].start, 0);
        assert_eq!(all.last().unwrap().end, text.trim_end().len());
        // A text without line breaks is cut after sentences, or anywhere at last.
        let prose = "Seven words make up this one sentence. ".repeat(200);
        let all = cut(&prose, 200);
        assert!(all.iter().all(|p| text_ends_sentence(&prose[p.clone()])));
        let run_on = "word ".repeat(1000);
        assert_eq!(cut(&run_on, 200).len(), 3);
    }

    fn text_ends_sentence(s: &str) -> bool {
        s.ends_with('.')
    }

    #[test]
    fn long_books_are_sampled_evenly() {
        let text = "ten words of prose that end a sentence right here.\n".repeat(2000);
        let all = cut(&text, 200);
        assert_eq!(all.len(), 100);
        let some = sample(&text, 200, 10);
        assert_eq!(some.len(), 10);
        assert_eq!(some[0], all[5]);
        assert_eq!(some[9], all[95]);
        assert_eq!(sample(&text, 200, 10), some);
        assert_eq!(sample(&text, 200, 1000), all);
    }
}
