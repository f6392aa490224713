//! The sample rule: how much of a book anyone may read for free. One rule for every
//! format, computed from the chapter list alone, so the trial files (`trial`) and the
//! table of contents' marks (`sample_marks`) always agree.
//!
//! The front matter (`front_matter`) is in the sample but does not count. Of the rest the
//! sample holds the trial percentage in whole chapters, and never less than the first
//! chapter, or its first few pages when it is long; a chapter is cut only when not even
//! the first one fits. Unless the percentage is 100, never the whole book: what the first
//! chapter adds is bounded by half of the book.

use crate::book::front_matter;

use crate::book::model::{Chapter, Format};

/// A few pages of story: the least a sample holds when the first chapter is longer
/// (epub and txt count characters, about three printed pages; pdf counts pages).
const STORY_CHARS: u64 = 6_000;
const STORY_PAGES: u64 = 3;

/// Where a chapter stands in the free sample.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InSample {
    /// Title page, licence, contents and the like: in the sample, not counted as a chapter.
    FrontMatter,
    /// In the sample from start to end.
    Whole,
    /// Only its opening is in the sample.
    Opening,
    /// Not in the sample.
    Out,
}

/// What the sample holds, in the chapters' order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Plan {
    /// Chapters `..front` are front matter.
    pub(crate) front: usize,
    /// Chapters `..whole` are in the sample whole (`whole >= front`).
    pub(crate) whole: usize,
    /// Chapter `whole` is in the sample for its first this many units (characters, or
    /// pages for a pdf).
    pub(crate) opening: Option<u64>,
}

impl Plan {
    /// Chapters the sample shows, whole or in part.
    pub(crate) fn shown(&self) -> usize {
        self.whole + usize::from(self.opening.is_some())
    }
}

/// Percent clamped to the admin setting's range (1..=100).
pub(crate) fn clamp_percent(percent: u8) -> u64 {
    u64::from(percent.clamp(1, 100))
}

fn story_units(format: Format) -> u64 {
    match format {
        Format::Pdf => STORY_PAGES,
        Format::Epub | Format::Txt => STORY_CHARS,
    }
}

pub(crate) fn plan(format: Format, chapters: &[Chapter], percent: u8) -> Plan {
    let n = chapters.len();
    let front = front_matter::count(format, chapters, story_units(format));
    if clamp_percent(percent) == 100 || n == 0 {
        return Plan {
            front,
            whole: n,
            opening: None,
        };
    }
    let body = &chapters[front..];
    let body_total: u64 = body.iter().map(|c| c.weight).sum();
    if body_total == 0 {
        // Nothing to measure (an epub of images only): all but the last part.
        return Plan {
            front,
            whole: n - 1,
            opening: None,
        };
    }
    let by_percent = body_total * clamp_percent(percent) / 100;
    let least = body[0].weight.min(story_units(format)).min(body_total / 2);
    let budget = by_percent.max(least);
    let mut used = 0u64;
    let mut whole = front;
    for c in body {
        if used + c.weight > budget {
            break;
        }
        used += c.weight;
        whole += 1;
    }
    // Text after the last chapter that fits is never all there is (budget < body_total),
    // but trailing parts without text would fit: keep the last part out all the same.
    whole = whole.min(n - 1);
    let left = budget - used;
    let opening = if whole == front {
        (budget > 0).then_some(budget)
    } else if used < story_units(format) && left >= (story_units(format) / 4).max(1) {
        // A short first chapter (an etymology, a prologue of one page) is not a sample
        // of the story: the budget it leaves goes to the next chapter's opening.
        Some(left)
    } else {
        None
    };
    Plan {
        front,
        whole,
        opening,
    }
}

/// Each chapter's place in the sample.
pub(crate) fn marks(format: Format, chapters: &[Chapter], percent: u8) -> Vec<InSample> {
    let plan = plan(format, chapters, percent);
    (0..chapters.len())
        .map(|i| {
            if i < plan.front {
                InSample::FrontMatter
            } else if i < plan.whole {
                InSample::Whole
            } else if i == plan.whole && plan.opening.is_some() {
                InSample::Opening
            } else {
                InSample::Out
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::front_matter::tests::chapters as book;

    fn p(front: usize, whole: usize, opening: Option<u64>) -> Plan {
        Plan {
            front,
            whole,
            opening,
        }
    }

    #[test]
    fn a_short_book_gives_its_first_chapter_whatever_the_percentage() {
        // The demo shop's short books: a title block, then four chapters of ~1,100 chars.
        let txt = book(&[
            ("Opening", 120),
            ("A", 1100),
            ("B", 1200),
            ("C", 1150),
            ("D", 1000),
        ]);
        assert_eq!(plan(Format::Txt, &txt, 10), p(1, 2, None));
        assert_eq!(plan(Format::Txt, &txt, 50), p(1, 2, None));
        assert_eq!(plan(Format::Txt, &txt, 60), p(1, 3, None));
        let pdf = book(&[("Page 1", 1), ("A", 1), ("B", 1), ("C", 2), ("D", 1)]);
        assert_eq!(plan(Format::Pdf, &pdf, 10), p(1, 2, None));
    }

    #[test]
    fn a_long_first_chapter_gives_a_few_pages_of_it() {
        let epub = book(&[("Cover", 0), ("One", 40_000), ("Two", 40_000)]);
        assert_eq!(plan(Format::Epub, &epub, 10), p(1, 1, Some(8_000)));
        assert_eq!(plan(Format::Epub, &epub, 1), p(1, 1, Some(STORY_CHARS)));
        let pdf = book(&[("Pages 1-10", 10), ("Pages 11-20", 10), ("Pages 21-22", 2)]);
        assert_eq!(plan(Format::Pdf, &pdf, 10), p(0, 0, Some(STORY_PAGES)));
    }

    #[test]
    fn a_one_page_first_chapter_is_followed_by_the_next_ones_opening() {
        // Moby-Dick at 1%: a one-page Etymology, then long chapters. The sample once held
        // the Etymology alone, and one "Next" reached 100% of it.
        let many: Vec<(&str, u64)> = [("Etymology", 1_400), ("Extracts", 20_000)]
            .into_iter()
            .chain(std::iter::repeat_n(("Chapter", 12_000), 100))
            .collect();
        let txt = book(&many);
        let budget = (1_400 + 20_000 + 100 * 12_000) / 100;
        let plan = plan(Format::Txt, &txt, 1);
        assert_eq!(plan, p(plan.front, plan.front + 1, Some(budget - 1_400)));
        assert!(budget - 1_400 >= STORY_CHARS, "a few pages of story");
    }

    #[test]
    fn the_percentage_counts_whole_chapters_after_the_front_matter() {
        let many: Vec<(&str, u64)> = std::iter::once(("Contents", 3_000))
            .chain(std::iter::repeat_n(("Chapter", 10_000), 20))
            .collect();
        let epub = book(&many);
        assert_eq!(plan(Format::Epub, &epub, 10), p(1, 3, None));
        assert_eq!(plan(Format::Epub, &epub, 100), p(1, 21, None));
    }

    #[test]
    fn never_the_whole_book() {
        let one = book(&[("Only", 500)]);
        assert_eq!(plan(Format::Epub, &one, 99), p(0, 0, Some(495)));
        assert_eq!(plan(Format::Epub, &one, 1), p(0, 0, Some(250)));
        let two = book(&[("Long", 5_000), ("Short", 1_000)]);
        assert_eq!(plan(Format::Txt, &two, 10), p(0, 0, Some(3_000)));
        let pdf = book(&[("Page 1", 1)]);
        assert_eq!(plan(Format::Pdf, &pdf, 10), p(0, 0, None));
        let images = book(&[("Cover", 0), ("Plate", 0), ("Plate", 0)]);
        assert_eq!(plan(Format::Epub, &images, 10), p(0, 2, None));
    }

    #[test]
    fn marks_follow_the_plan() {
        let epub = book(&[("Cover", 0), ("One", 40_000), ("Two", 40_000)]);
        assert_eq!(
            marks(Format::Epub, &epub, 10),
            vec![InSample::FrontMatter, InSample::Opening, InSample::Out]
        );
        let txt = book(&[("Opening", 120), ("A", 1100), ("B", 1200)]);
        assert_eq!(
            marks(Format::Txt, &txt, 10),
            vec![InSample::FrontMatter, InSample::Whole, InSample::Out]
        );
    }
}
