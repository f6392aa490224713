//! Lines of pdf pages joined into paragraphs: a paragraph ends at a wide vertical gap, a
//! line moving up (a new column), a heading, or a short line ending a sentence; a word
//! hyphenated at a line end is joined again. Page numbers at a page's top or bottom go.

use crate::common::txt_headings::is_heading_line;
use crate::manuscript::pdf::text_layer::PageLine;

/// A gap this many times the page's usual line spacing separates paragraphs.
const PARAGRAPH_GAP: f32 = 1.5;
/// A line ending a sentence at less than this share of the page's longest line ends its
/// paragraph.
const SHORT_LINE: f32 = 0.8;
/// Text this many times the page's usual size is a heading.
const HEADING_SIZE: f32 = 1.2;
const SENTENCE_ENDS: &[char] = &['.', '!', '?', ':', '"', '\u{201d}', '\u{2019}', '\u{bb}'];

/// Joins the lines of consecutive pages; a paragraph may run on to the next page.
#[derive(Default)]
pub(crate) struct ParagraphJoiner {
    open: String,
    /// The open paragraph is a heading: the next line starts a new one.
    open_is_heading: bool,
}

impl ParagraphJoiner {
    /// The paragraphs a page completes (the last one may stay open for the next page).
    pub(crate) fn add_page(&mut self, lines: Vec<PageLine>) -> Vec<String> {
        let lines = without_page_numbers(lines);
        let mut done = Vec::new();
        if lines.is_empty() {
            return done;
        }
        let gap = usual_gap(&lines);
        let size = usual_size(&lines);
        let longest = lines
            .iter()
            .map(|l| l.text.chars().count())
            .max()
            .unwrap_or(0);
        let is_heading = |l: &PageLine| {
            is_heading_line(&l.text) || (size > 0.0 && l.size >= HEADING_SIZE * size)
        };
        let mut prev: Option<&PageLine> = None;
        for line in &lines {
            let starts_paragraph = match prev {
                None => {
                    self.open_is_heading || is_heading(line) || self.open.ends_with(SENTENCE_ENDS)
                }
                Some(p) => {
                    let drop = p.y - line.y;
                    let short = (p.text.chars().count() as f32) < SHORT_LINE * longest as f32;
                    drop <= 0.0
                        || (gap > 0.0 && drop > PARAGRAPH_GAP * gap)
                        || is_heading(p)
                        || is_heading(line)
                        || (short && p.text.ends_with(SENTENCE_ENDS))
                }
            };
            if starts_paragraph && let Some(p) = self.finish() {
                done.push(p);
            }
            self.push_line(&line.text);
            self.open_is_heading = is_heading(line);
            prev = Some(line);
        }
        done
    }

    /// The paragraph still open, if any (at the end, or before a new chapter).
    pub(crate) fn finish(&mut self) -> Option<String> {
        let p = std::mem::take(&mut self.open);
        (!p.is_empty()).then_some(p)
    }

    fn push_line(&mut self, line: &str) {
        let hyphenated = self.open.ends_with('-')
            && self
                .open
                .chars()
                .rev()
                .nth(1)
                .is_some_and(char::is_alphabetic)
            && line.chars().next().is_some_and(char::is_lowercase);
        if hyphenated {
            self.open.pop();
        } else if !self.open.is_empty() {
            self.open.push(' ');
        }
        self.open.push_str(line);
    }
}

fn without_page_numbers(lines: Vec<PageLine>) -> Vec<PageLine> {
    let mut lines: Vec<PageLine> = lines
        .into_iter()
        .map(|l| PageLine {
            text: l.text.split_whitespace().collect::<Vec<_>>().join(" "),
            ..l
        })
        .filter(|l| !l.text.is_empty())
        .collect();
    if lines.last().is_some_and(|l| is_page_number(&l.text)) {
        lines.pop();
    }
    if lines.first().is_some_and(|l| is_page_number(&l.text)) {
        lines.remove(0);
    }
    lines
}

/// "12", "- 12 -", "xiv".
fn is_page_number(text: &str) -> bool {
    let bare = text.trim_matches(|c: char| c == '-' || c.is_whitespace());
    let digits = !bare.is_empty() && bare.len() <= 4 && bare.chars().all(|c| c.is_ascii_digit());
    let roman = !bare.is_empty() && bare.len() <= 6 && bare.chars().all(|c| "ivxlc".contains(c));
    digits || roman
}

/// The line spacing inside paragraphs: the lower quartile of the downward steps between
/// consecutive lines (paragraph and heading gaps are the larger ones); 0 without any.
fn usual_gap(lines: &[PageLine]) -> f32 {
    let mut gaps: Vec<f32> = lines
        .windows(2)
        .map(|w| w[0].y - w[1].y)
        .filter(|g| *g > 0.0)
        .collect();
    quantile(&mut gaps, 4)
}

fn usual_size(lines: &[PageLine]) -> f32 {
    let mut sizes: Vec<f32> = lines.iter().map(|l| l.size).collect();
    quantile(&mut sizes, 2)
}

/// The value at 1/`part` of the sorted values (2: the median, 4: the lower quartile).
fn quantile(values: &mut [f32], part: usize) -> f32 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f32::total_cmp);
    values[values.len() / part]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str, y: f32) -> PageLine {
        PageLine {
            text: text.to_owned(),
            y,
            size: 10.0,
        }
    }

    #[test]
    fn lines_join_into_paragraphs() {
        let mut j = ParagraphJoiner::default();
        let done = j.add_page(vec![
            line("iv", 800.0),
            line("CHAPTER ONE", 700.0),
            line(
                "The rain had not stopped for three days, and the river",
                680.0,
            ),
            line(
                "was rising fast; the boatmen could not find the land-",
                668.0,
            ),
            line("ing in the dark.", 656.0),
            line("She kept the lamp lit by the window so the boatmen", 644.0),
            line("could find the landing, all night long", 632.0),
            line("12", 40.0),
        ]);
        assert_eq!(
            done,
            [
                "CHAPTER ONE",
                "The rain had not stopped for three days, and the river was rising fast; the \
                 boatmen could not find the landing in the dark."
            ]
        );
        // The last paragraph ends without a sentence end: it runs on to the next page.
        let done = j.add_page(vec![line("until the morning came", 700.0)]);
        assert!(done.is_empty());
        // A heading at the top of a page starts a paragraph, and so does the line after a
        // heading at the bottom of one.
        let done = j.add_page(vec![line("CHAPTER TWO", 700.0)]);
        assert_eq!(
            done,
            [
                "She kept the lamp lit by the window so the boatmen could find the landing, all \
              night long until the morning came"
            ]
        );
        let done = j.add_page(vec![line("it was dark", 700.0)]);
        assert_eq!(done, ["CHAPTER TWO"]);
        assert_eq!(j.finish().as_deref(), Some("it was dark"));
        assert_eq!(j.finish(), None);
    }

    #[test]
    fn wide_gaps_and_larger_type_separate() {
        let mut j = ParagraphJoiner::default();
        let mut big = line("A Title in Large Type", 760.0);
        big.size = 20.0;
        let done = j.add_page(vec![
            big,
            line("first paragraph line one goes on", 700.0),
            line("and ends here", 688.0),
            line("second paragraph after a gap", 660.0),
        ]);
        assert_eq!(
            done,
            [
                "A Title in Large Type",
                "first paragraph line one goes on and ends here"
            ]
        );
        assert!(is_page_number("- 7 -") && is_page_number("xii") && !is_page_number("I am"));
    }
}
