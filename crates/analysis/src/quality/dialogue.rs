//! The dialogue share: in prose, the words inside quotation marks, double or single; in
//! a play, the words of the speeches.

use super::reading::Reading;
use super::{Kind, Measured, Raw};
use crate::doc::Doc;

/// Below this share of words in dialogue a text has none to judge (non-fiction, a tale
/// its narrator tells alone).
const NO_DIALOGUE: f64 = 0.01;

/// Dialogue share: in prose, the share of words inside quotation marks; in a play, the
/// share of words in the speeches (the rest are speakers' names and stage directions).
pub(crate) fn dialogue(doc: &Doc, reading: &Reading, kind: Kind) -> Measured {
    if reading.tokens.is_empty() {
        return Measured::Nothing;
    }
    if kind == Kind::Play {
        let share = reading.tokens.len() as f64 / reading.all_words.max(1) as f64;
        return Raw::measured(
            share,
            format!(
                "{:.0}% of words in the speeches, the rest speakers' names and stage directions",
                share * 100.0
            ),
        );
    }
    let share = dialogue_share(doc);
    let shown = format!("{:.0}% of words in dialogue", share * 100.0);
    if share < NO_DIALOGUE {
        return Measured::Neutral {
            shown,
            advice: "No dialogue: usual in non-fiction and in a tale its narrator tells alone; \
                     in a novel, scenes come alive when people speak.",
        };
    }
    Raw::measured(share, shown)
}

/// The share of words of `doc` inside quotation marks: double ("..." or \u{201C}...\u{201D})
/// or single (\u{2018}...\u{2019} or '...', closed after a punctuation mark, so that
/// apostrophes are not taken for quotes), whichever the text uses more. An unclosed
/// quotation ends with its paragraph and is not counted.
pub(crate) fn dialogue_share(doc: &Doc) -> f64 {
    if doc.tokens.is_empty() {
        return 0.0;
    }
    let double = share_inside(doc, &quoted(doc.text, false));
    let single = share_inside(doc, &quoted(doc.text, true));
    double.max(single)
}

/// The byte spans of `text` between opening and closing quotation marks, double or
/// `single`.
fn quoted(text: &str, single: bool) -> Vec<(usize, usize)> {
    let mut spans: Vec<(usize, usize)> = Vec::new();
    let mut open: Option<usize> = None;
    let mut previous = '\n';
    let mut last_printed = '\n';
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let next = chars.peek().map_or(' ', |&(_, n)| n);
        if single {
            let opens = (c == '\u{2018}' || c == '\'')
                && (previous.is_whitespace() || matches!(previous, '(' | '\u{2014}' | '-' | '"'))
                && next.is_alphabetic();
            let closes = (c == '\u{2019}' || c == '\'')
                && matches!(
                    previous,
                    '.' | ',' | '!' | '?' | ';' | ':' | '-' | '\u{2014}' | '\u{2013}' | '\u{2026}'
                )
                && !next.is_alphanumeric();
            if closes && let Some(start) = open.take() {
                spans.push((start, at));
            } else if opens && open.is_none() {
                open = Some(at);
            }
        } else {
            match c {
                '\u{201C}' => open = Some(at),
                '\u{201D}' => {
                    if let Some(start) = open.take() {
                        spans.push((start, at));
                    }
                }
                '"' => match open.take() {
                    Some(start) => spans.push((start, at)),
                    None => open = Some(at),
                },
                _ => {}
            }
        }
        if c == '\n' && last_printed == '\n' {
            open = None;
        }
        if c != '\r' && c != ' ' {
            last_printed = c;
        }
        previous = c;
    }
    spans
}

/// The share of the words of `doc` that start inside one of `spans` (in order).
fn share_inside(doc: &Doc, spans: &[(usize, usize)]) -> f64 {
    let mut inside = 0usize;
    let mut q = 0;
    for token in &doc.tokens {
        while q < spans.len() && spans[q].1 < token.start() {
            q += 1;
        }
        if q < spans.len() && spans[q].0 < token.start() {
            inside += 1;
        }
    }
    inside as f64 / doc.tokens.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn measured(text: &str, kind: Kind) -> Measured {
        let doc = Doc::single(text);
        let reading = Reading::of(&doc, kind);
        dialogue(&doc, &reading, kind)
    }

    #[test]
    fn dialogue_is_measured_between_quotes() {
        let doc = Doc::single("\u{201C}Come here,\u{201D} she said. \"Now,\" he said. They went.");
        let share = dialogue_share(&doc);
        assert!((share - 3.0 / 9.0).abs() < 1e-9, "{share}");
        let unclosed = Doc::single("\"Never closed\n\nNarration goes on here.");
        assert!(dialogue_share(&unclosed) < 0.5);
    }

    #[test]
    fn single_quotes_are_dialogue_and_apostrophes_are_not() {
        let doc = Doc::single(
            "\u{2018}Bah,\u{2019} said Scrooge. \u{2018}Humbug!\u{2019} The clerk\u{2019}s fire              was small.\n\n'Don't be cross, uncle,' said the nephew. 'Tis the season's best.",
        );
        // "Bah", "Humbug", "Don't be cross uncle": 6 of 20 words ("'Tis" is never closed).
        let share = dialogue_share(&doc);
        assert!((share - 6.0 / 20.0).abs() < 1e-9, "{share}");
    }

    #[test]
    fn no_dialogue_is_neutral_and_a_play_speaks_its_speeches() {
        let narration = "He walked home. The night was cold and the road was long.";
        assert!(matches!(
            measured(narration, Kind::Prose),
            Measured::Neutral { .. }
        ));
        let play = "Enter Barnardo.\n\n  Bar. Who's there?\n  Fran. Nay answer me\n";
        // 5 words spoken of 9 (Enter Barnardo Bar Fran are not).
        let share = Measured::value(measured(play, Kind::Play));
        assert!((share - 5.0 / 9.0).abs() < 1e-9, "{share}");
    }
}
