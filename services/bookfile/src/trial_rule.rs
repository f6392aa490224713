//! The trial rule: how much of a book anyone may read for free. One place, so the TOC marks
//! and the trial files agree.

use crate::Chapter;

/// Percent clamped to the admin setting's range (1..=100).
pub(crate) fn clamp_percent(percent: u8) -> u64 {
    u64::from(percent.clamp(1, 100))
}

/// pdf: ceil(pages * p / 100), at least 1, never all pages when there is more than one.
pub(crate) fn pdf_trial_pages(pages: u64, percent: u8) -> u64 {
    let p = clamp_percent(percent);
    if p == 100 {
        return pages;
    }
    let wanted = (pages * p).div_ceil(100).max(1);
    if pages > 1 {
        wanted.min(pages - 1)
    } else {
        wanted
    }
}

/// txt and epub: the characters the trial may hold (floor, so below the total unless 100%).
pub(crate) fn char_limit(total_chars: u64, percent: u8) -> u64 {
    total_chars * clamp_percent(percent) / 100
}

/// What an epub trial holds: the first `full` chapters whole, then, when those hold no
/// text (the first text-bearing chapter alone is over the limit; covers and title pages
/// weigh nothing), chapter `full` cut after `cut_chars` characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct EpubPlan {
    pub(crate) full: usize,
    pub(crate) cut_chars: Option<u64>,
}

impl EpubPlan {
    /// Chapters the trial shows, whole or cut.
    pub(crate) fn shown(&self) -> usize {
        self.full + usize::from(self.cut_chars.is_some())
    }
}

pub(crate) fn epub_plan(weights: &[u64], percent: u8) -> EpubPlan {
    let n = weights.len();
    if clamp_percent(percent) == 100 || n == 0 {
        return EpubPlan {
            full: n,
            cut_chars: None,
        };
    }
    let total: u64 = weights.iter().sum();
    let limit = char_limit(total, percent);
    let mut used = 0u64;
    let mut full = 0usize;
    for w in weights {
        if used + w > limit {
            break;
        }
        used += w;
        full += 1;
    }
    // Only books without any text fit whole; they still must not be given away whole.
    if full >= n {
        return EpubPlan {
            full: n - 1,
            cut_chars: None,
        };
    }
    if used == 0 && total > 0 {
        return EpubPlan {
            full,
            cut_chars: Some(limit),
        };
    }
    EpubPlan {
        full,
        cut_chars: None,
    }
}

/// How many chapters (from the first) the trial shows, whole or in part.
pub(crate) fn trial_chapters(chapters: &[Chapter], percent: u8) -> u32 {
    let n = chapters.len();
    if n == 0 {
        return 0;
    }
    let shown = if clamp_percent(percent) == 100 {
        n
    } else if chapters.iter().all(|c| c.href.starts_with("page=")) {
        let pages: u64 = chapters.iter().map(|c| c.weight).sum();
        let trial_pages = pdf_trial_pages(pages, percent);
        let mut start = 1u64;
        let mut shown = 0;
        for c in chapters {
            let first = page_of(&c.href).unwrap_or(start);
            if first > trial_pages {
                break;
            }
            shown += 1;
            start = first + c.weight;
        }
        shown
    } else if chapters.iter().all(|c| c.href.starts_with("offset=")) {
        let total: u64 = chapters.iter().map(|c| c.weight).sum();
        let limit = char_limit(total, percent);
        let mut start = 0u64;
        let mut shown = 0;
        for c in chapters {
            if start >= limit && shown > 0 {
                break;
            }
            shown += 1;
            start += c.weight;
        }
        shown
    } else {
        let weights: Vec<u64> = chapters.iter().map(|c| c.weight).collect();
        epub_plan(&weights, percent).shown()
    };
    u32::try_from(shown.max(1)).unwrap_or(u32::MAX)
}

fn page_of(href: &str) -> Option<u64> {
    href.strip_prefix("page=")?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chapter(index: u32, href: String, weight: u64) -> Chapter {
        Chapter {
            index,
            title: format!("Chapter {}", index + 1),
            href,
            weight,
        }
    }

    #[test]
    fn pdf_pages_follow_the_rule() {
        assert_eq!(pdf_trial_pages(12, 10), 2);
        assert_eq!(pdf_trial_pages(1, 10), 1);
        assert_eq!(pdf_trial_pages(2, 90), 1);
        assert_eq!(pdf_trial_pages(100, 10), 10);
        assert_eq!(pdf_trial_pages(12, 100), 12);
        assert_eq!(pdf_trial_pages(12, 0), 1);
    }

    #[test]
    fn epub_plan_keeps_whole_chapters_or_cuts_the_first() {
        assert_eq!(
            epub_plan(&[100; 5], 30),
            EpubPlan {
                full: 1,
                cut_chars: None
            }
        );
        assert_eq!(
            epub_plan(&[100; 5], 40),
            EpubPlan {
                full: 2,
                cut_chars: None
            }
        );
        assert_eq!(
            epub_plan(&[1000, 10, 10], 10),
            EpubPlan {
                full: 0,
                cut_chars: Some(102)
            }
        );
        assert_eq!(
            epub_plan(&[500], 10),
            EpubPlan {
                full: 0,
                cut_chars: Some(50)
            }
        );
        assert_eq!(
            epub_plan(&[0, 0, 0], 10),
            EpubPlan {
                full: 2,
                cut_chars: None
            }
        );
        assert_eq!(
            epub_plan(&[100; 5], 100),
            EpubPlan {
                full: 5,
                cut_chars: None
            }
        );
    }

    #[test]
    fn trial_chapters_per_format() {
        let epub: Vec<Chapter> = (0..5)
            .map(|i| chapter(i, format!("c{i}.xhtml"), 100))
            .collect();
        assert_eq!(trial_chapters(&epub, 30), 1);
        assert_eq!(trial_chapters(&epub, 10), 1);
        assert_eq!(trial_chapters(&epub, 100), 5);
        let pdf: Vec<Chapter> = (0..3)
            .map(|i| chapter(i, format!("page={}", i * 4 + 1), 4))
            .collect();
        assert_eq!(trial_chapters(&pdf, 10), 1);
        assert_eq!(trial_chapters(&pdf, 50), 2);
        let txt: Vec<Chapter> = (0..4)
            .map(|i| chapter(i, format!("offset={}", i * 100), 100))
            .collect();
        assert_eq!(trial_chapters(&txt, 10), 1);
        assert_eq!(trial_chapters(&txt, 30), 2);
        assert_eq!(trial_chapters(&[], 30), 0);
    }
}
