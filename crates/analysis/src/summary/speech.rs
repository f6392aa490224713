//! Which sentences are spoken: a sentence that starts inside a quotation is a character's
//! words even when it holds no quotation mark itself ("I was going to say, as you have
//! that sort of appearance, ..." in the middle of a speech), and a summary must not tell
//! it as the narrator's.
//!
//! Quotation marks are followed through the text: `"` and `“`/`”` in double-quoted books,
//! and in single-quoted ones a `'` or `‘`/`’` that opens after a space or closes after
//! punctuation (an apostrophe inside or after a word, "don't", "the Cratchits'", is
//! neither). A blank line ends any quotation: a speech of several paragraphs opens each
//! again.

use crate::doc::Doc;

/// Per sentence of `doc`, whether it starts inside a quotation.
pub(super) fn starts_inside_quotes(doc: &Doc) -> Vec<bool> {
    let mut inside = false;
    let mut previous_end = 0;
    doc.sentences
        .iter()
        .map(|s| {
            let gap = doc.text.get(previous_end..s.span.start).unwrap_or("");
            if gap.contains("\n\n") || gap.contains("\n\r\n") {
                inside = false;
            }
            let starts_inside = inside;
            inside = after(inside, doc.text.get(s.span.clone()).unwrap_or(""));
            previous_end = s.span.end;
            starts_inside
        })
        .collect()
}

/// Whether a quotation is open after `text`, given whether it was before.
fn after(mut inside: bool, text: &str) -> bool {
    let mut before: Option<char> = None;
    for c in text.chars() {
        match c {
            '"' => inside = !inside,
            '\u{201C}' => inside = true,
            '\u{201D}' => inside = false,
            '\'' | '\u{2018}' | '\u{2019}' => {
                let opens = before.is_none_or(char::is_whitespace);
                let closes = before.is_some_and(|b| ".,;:!?-\u{2014}".contains(b));
                if opens && c != '\u{2019}' {
                    inside = true;
                } else if closes {
                    inside = false;
                }
            }
            _ => {}
        }
        before = Some(c);
    }
    inside
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_in_the_middle_of_a_speech_are_spoken() {
        let text = "Mara looked up. \"The lamp is broken. We must mend it tonight.\" \
            Oren nodded. 'The boats are out. They cannot see the cape,' he said. \
            Nobody's boat was lost.\n\n\"The storm is over. It was the worst\n\n\
            Then the sun came up.";
        let doc = Doc::single(text);
        let spoken = starts_inside_quotes(&doc);
        let said: Vec<(&str, bool)> = doc
            .sentences
            .iter()
            .zip(&spoken)
            .map(|(s, &inside)| (doc.sentence_text(s), inside))
            .collect();
        let inside = |start: &str| {
            said.iter()
                .find(|(s, _)| s.starts_with(start))
                .map(|(_, i)| *i)
        };
        assert_eq!(inside("Mara looked"), Some(false), "{said:?}");
        assert_eq!(inside("We must"), Some(true), "{said:?}");
        assert_eq!(inside("Oren nodded"), Some(false), "{said:?}");
        assert_eq!(inside("They cannot"), Some(true), "{said:?}");
        assert_eq!(inside("Nobody's boat"), Some(false), "{said:?}");
        assert_eq!(inside("It was"), Some(true), "{said:?}");
        assert_eq!(inside("Then the sun"), Some(false), "{said:?}");
    }
}
