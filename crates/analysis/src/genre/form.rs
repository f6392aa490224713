//! The form of a line-based text: is it a play? A play is printed in lines, much of it in
//! verse, but it is not poetry: each speech starts with its speaker's name ("Hor. Haile
//! to your Lordship", or "ROMEO." alone on its line) and stage directions ("Enter the
//! King", "Exeunt.") stand between the speeches. A play's speeches are its dialogue.
//!
//! [`Form::detect`] looks at the passages the classifier reads; [`Form::reading`] gives
//! the lines of a passage the style measures and the word features should see: the
//! speeches without their speakers' names, without stage directions, and how many
//! speeches begin in it.

use std::collections::HashMap;

/// Whether a text is prose and verse as printed, or a play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Form {
    /// Prose or verse: every line is text.
    #[default]
    Plain,
    /// A play: speaker names and stage directions are not text.
    Play,
}

/// A text is a play when at least this share of its lines start a speech...
const MIN_SPEECH_LINES: f32 = 0.08;
/// ... and at least this many speeches start in the passages read ...
const MIN_SPEECHES: usize = 12;
/// ... and its most frequent speakers (this many) give at least half of the speeches:
/// a cast, not a scatter of words that happen to end in a full stop.
const CAST: usize = 12;

/// Words before a full stop at a line's start that are not speakers.
#[rustfmt::skip]
const NOT_SPEAKERS: &[&str] = &[
    "chap", "chapter", "dr", "fig", "ibid", "jr", "messrs", "mme", "mr", "mrs", "ms", "no",
    "nos", "oh", "ok", "p", "sr", "st", "vol", "yes",
];

/// A speech of a play, as it starts on its line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct SpeechStart<'a> {
    /// The speaker's name as printed ("Hor", "SIR TOBY", "Lady Montague").
    speaker: &'a str,
    /// What follows the name on its line (may be empty).
    rest: &'a str,
}

/// What a passage holds for the model once its form is known.
#[derive(Debug, Default)]
pub struct Reading<'a> {
    /// The pieces of text to read, in order: whole lines or the parts after a speaker.
    pub pieces: Vec<&'a str>,
    /// How many speeches start in the passage (0 unless a play).
    pub speeches: u32,
}

impl Form {
    /// The form of a text whose passages the classifier reads.
    pub fn detect<'a>(passages: impl IntoIterator<Item = &'a str>) -> Form {
        let mut lines = 0usize;
        let mut speakers: HashMap<String, usize> = HashMap::new();
        for passage in passages {
            for (line, speech) in lines_of(passage) {
                if line.trim().is_empty() {
                    continue;
                }
                lines += 1;
                if let Some(speech) = speech {
                    *speakers.entry(speech.speaker.to_lowercase()).or_default() += 1;
                }
            }
        }
        let speeches: usize = speakers.values().sum();
        let mut counts: Vec<usize> = speakers.into_values().collect();
        counts.sort_unstable_by(|a, b| b.cmp(a));
        let cast: usize = counts.iter().take(CAST).sum();
        let play = speeches >= MIN_SPEECHES
            && speeches as f32 >= MIN_SPEECH_LINES * lines as f32
            && 2 * cast >= speeches;
        if play { Form::Play } else { Form::Plain }
    }

    /// The parts of `passage` that are text in this form (see the module's doc).
    pub fn reading<'a>(self, passage: &'a str) -> Reading<'a> {
        match self {
            Form::Plain => Reading {
                pieces: vec![passage],
                speeches: 0,
            },
            Form::Play => {
                let mut out = Reading::default();
                for (line, speech) in lines_of(passage) {
                    if is_stage_direction(line) {
                        continue;
                    }
                    match speech {
                        Some(s) => {
                            out.speeches += 1;
                            if !s.rest.trim().is_empty() {
                                out.pieces.push(s.rest);
                            }
                        }
                        None => out.pieces.push(line),
                    }
                }
                out
            }
        }
    }
}

/// The lines of `passage` (with their line ends), each with the speech it starts. A
/// speaker's name alone on its line starts a speech only when the speech follows on the
/// next line ("Go." alone before a blank line is a speech, not a speaker).
fn lines_of(passage: &str) -> impl Iterator<Item = (&str, Option<SpeechStart<'_>>)> {
    let mut lines = passage.split_inclusive('\n').peekable();
    std::iter::from_fn(move || {
        let line = lines.next()?;
        let speech = speech(line).filter(|s| {
            !s.rest.is_empty() || lines.peek().is_some_and(|next| !next.trim().is_empty())
        });
        Some((line, speech))
    })
}

/// The speech a line starts, if it starts one: a speaker's name of one to three words,
/// each capitalised (or "of", "the"), at most 24 characters, then a full stop, then the
/// end of the line or a space and the speech ("Hor. So haue I heard", "SIR TOBY.",
/// "First Citizen.", "Lady Montague.").
fn speech(line: &str) -> Option<SpeechStart<'_>> {
    let text = line.trim_start();
    let stop = text.find('.')?;
    let (name, after) = (&text[..stop], &text[stop + 1..]);
    if name.is_empty() || name.len() > 24 {
        return None;
    }
    let rest = if after.trim().is_empty() {
        ""
    } else if after.starts_with([' ', '\t']) {
        after.trim_start_matches([' ', '\t'])
    } else {
        return None;
    };
    let words: Vec<&str> = name.split(' ').collect();
    if words.len() > 3 || words.iter().any(|w| w.is_empty()) {
        return None;
    }
    let first = words[0];
    if !first.starts_with(|c: char| c.is_uppercase())
        || NOT_SPEAKERS.contains(&first.to_lowercase().as_str())
    {
        return None;
    }
    let name_word = |w: &&str| {
        matches!(*w, "of" | "the" | "de" | "la" | "le")
            || (w.starts_with(|c: char| c.is_uppercase())
                && w.chars().all(|c| c.is_alphabetic() || c == '\''))
    };
    if !words.iter().all(name_word) {
        return None;
    }
    // A lone capitalised word and a stop ("Yes.", "Silence.") with text after it is a
    // sentence; only a name on its own line, or a short one (an abbreviation such as
    // "Hor." or "Bru."), may be followed by the speech on the same line.
    if !rest.is_empty() && words.len() == 1 && first.chars().count() > 5 && !is_caps(first) {
        return None;
    }
    Some(SpeechStart {
        speaker: name,
        rest,
    })
}

fn is_caps(word: &str) -> bool {
    word.chars().all(|c| !c.is_lowercase())
}

/// A stage direction on its own line: "Enter Hamlet.", "Exit.", "Exeunt omnes.",
/// "[Aside.]", "Flourish.", "Re-enter Ghost.", a scene heading ("Scena Secunda.",
/// "SCENE II. A room in the castle.", "ACT III").
fn is_stage_direction(line: &str) -> bool {
    let text = line.trim();
    if text.starts_with('[') && text.ends_with(']') {
        return true;
    }
    let first = text
        .split(|c: char| !c.is_alphabetic() && c != '-')
        .next()
        .unwrap_or_default()
        .to_lowercase();
    matches!(
        first.as_str(),
        "enter"
            | "exit"
            | "exeunt"
            | "re-enter"
            | "reenter"
            | "manet"
            | "manent"
            | "flourish"
            | "alarum"
            | "alarums"
            | "sennet"
            | "scene"
            | "scena"
            | "scoena"
            | "act"
            | "actus"
    ) && text.split_whitespace().count() <= 16
}

#[cfg(test)]
mod tests {
    use super::*;

    const FOLIO: &str = "Enter Barnardo and Francisco two Centinels.\n\n  Barnardo. Who's there?\n  \
        Fran. Nay answer me: Stand & vnfold your selfe\n\n   Bar. Long liue the King\n\n   \
        Fran. Barnardo?\n  Bar. He\n\n   Fran. You come most carefully vpon your houre\n\n   \
        Bar. 'Tis now strook twelue, get thee to bed Francisco\n\n   Fran. For this releefe \
        much thankes: 'Tis bitter cold,\nAnd I am sicke at heart\n\n   Barn. Haue you had \
        quiet Guard?\n  Fran. Not a Mouse stirring\n\n   Barn. Well, goodnight. If you do \
        meet Horatio and\nMarcellus, the Riuals of my Watch, bid them make hast.\n\nEnter \
        Horatio and Marcellus.\n\n  Fran. I thinke I heare them. Stand: who's there?\n  \
        Hor. Friends to this ground\n\n   Mar. And Leige-men to the Dane\n\n   Fran. Giue \
        you good night\n\n   Mar. O farwel honest Soldier, who hath relieu'd you?\n  \
        Fra. Barnardo ha's my place: giue you goodnight.\n\nExit Fran.\n";

    const MODERN: &str = "SCENE I. A street.\n\nSIR TOBY.\nThen hadst thou had an \
        excellent head of hair.\n\nSIR ANDREW.\nWhy, would that have mended my hair?\n\n\
        SIR TOBY.\nPast question; for thou seest it will not curl by nature.\n\nSIR ANDREW.\n\
        But it becomes me well enough, does't not?\n\nSIR TOBY.\nExcellent; it hangs like \
        flax on a distaff.\n\nSIR ANDREW.\nFaith, I'll home to-morrow, Sir Toby.\n\n\
        MARIA.\nGet you gone.\n\nSIR TOBY.\nNot yet.\n\nSIR ANDREW.\nAnd yet.\n\nMARIA.\n\
        Go.\n\nSIR TOBY.\nNow.\n\nSIR ANDREW.\nLater.\n\n[Exeunt.]\n";

    const NOVEL: &str = "Mr. Micawber came in at nine.\nYes. He said so, and sat down by \
        the fire to warm his hands.\nThe night was cold. Somebody knocked.\nNo. 5 was the \
        house; Dr. Chillip lived there.\nSt. Paul's rang the hour.\n";

    #[test]
    fn plays_are_told_from_prose_and_verse() {
        assert_eq!(Form::detect([FOLIO]), Form::Play);
        assert_eq!(Form::detect([MODERN]), Form::Play);
        assert_eq!(Form::detect([NOVEL.repeat(20).as_str()]), Form::Plain);
        let verse = "The heron stands in the shallows\nlike a question no one asked.\n\
                     Grey as the sky. Still as the stone.\n";
        assert_eq!(Form::detect([verse.repeat(20).as_str()]), Form::Plain);
        assert_eq!(Form::detect([""]), Form::Plain);
    }

    #[test]
    fn a_play_reads_as_its_speeches() {
        // 17 speeches; the first, "Barnardo. Who's there?", is taken for a sentence (a
        // long single name followed by text on its line is one, in prose).
        let s = Form::Play.reading(FOLIO);
        assert_eq!(s.speeches, 16);
        let text: String = s.pieces.concat();
        assert!(!text.contains("Enter"), "{text}");
        assert!(!text.contains("Fran."), "{text}");
        assert!(
            text.trim_start()
                .starts_with("Barnardo. Who's there?\nNay answer me"),
            "{text}"
        );
        let s = Form::Play.reading(MODERN);
        assert_eq!(s.speeches, 12);
        let text: String = s.pieces.concat();
        assert!(
            !text.contains("SIR TOBY.") && !text.contains("Exeunt"),
            "{text}"
        );
        let plain = Form::Plain.reading(NOVEL);
        assert_eq!((plain.pieces, plain.speeches), (vec![NOVEL], 0));
    }
}
