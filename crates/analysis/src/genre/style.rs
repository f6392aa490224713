//! Stylistic measurements that words alone miss: how much dialogue, whether the lines are
//! verse, quantities with units (recipes), "you" (advice), "I" (memoir, teen narrators),
//! "he" and "she" (narrative), past or present tense, dates, exclamations, sentence and
//! word length.
//!
//! Each measurement is binned into a few named levels; the model learns how often each
//! genre shows each level, like a word. The bin edges were set from the distributions of
//! the training passages (never the test passages) and are listed in the README.

/// One stylistic measurement and its bins.
pub struct StyleFeature {
    /// Short name used in explanations.
    pub name: &'static str,
    /// The unit of the measured number: a rate, or a share (shown as a percentage).
    pub unit: &'static str,
    /// Whether the value is a share of 1 (shown as a percentage).
    pub share: bool,
    /// Bin edges, ascending: a value below `cuts[0]` is level 0, and so on.
    cuts: &'static [f32],
    /// One name per level (`cuts.len() + 1` of them).
    pub levels: &'static [&'static str],
}

impl StyleFeature {
    /// How a measured value reads in an explanation: "quantities with units: many (7.7
    /// per 100 words)".
    pub fn describe(&self, value: f32) -> String {
        let level = self.levels[self.level(value)];
        if self.share {
            format!(
                "{}: {level} ({:.0}% {})",
                self.name,
                100.0 * value,
                self.unit
            )
        } else {
            format!("{}: {level} ({value:.1} {})", self.name, self.unit)
        }
    }

    /// The level a value falls into.
    pub fn level(&self, value: f32) -> usize {
        self.cuts.iter().take_while(|&&cut| value >= cut).count()
    }
}

/// The measurements, in a fixed order.
pub const FEATURES: [StyleFeature; 11] = [
    StyleFeature {
        name: "dialogue",
        unit: "quotation marks per 100 words",
        share: false,
        cuts: &[0.5, 3.0],
        levels: &["none", "some", "much"],
    },
    StyleFeature {
        name: "verse lines",
        unit: "of lines short and open-ended",
        share: true,
        cuts: &[0.25, 0.6],
        levels: &["prose", "mixed", "verse"],
    },
    StyleFeature {
        name: "quantities with units (\"200 g\", \"2 tbsp\")",
        unit: "per 100 words",
        share: false,
        cuts: &[0.3, 2.0],
        levels: &["none", "few", "many"],
    },
    StyleFeature {
        name: "second person (\"you\", \"your\")",
        unit: "per 100 words",
        share: false,
        cuts: &[1.0, 3.0],
        levels: &["rare", "some", "frequent"],
    },
    StyleFeature {
        name: "first person (\"I\", \"me\", \"my\")",
        unit: "per 100 words",
        share: false,
        cuts: &[1.0, 4.0],
        levels: &["rare", "some", "frequent"],
    },
    StyleFeature {
        name: "third person (\"he\", \"she\", \"his\", \"her\")",
        unit: "per 100 words",
        share: false,
        cuts: &[1.0, 5.0],
        levels: &["rare", "some", "frequent"],
    },
    StyleFeature {
        name: "tense (\"was\", \"had\" against \"is\", \"has\")",
        unit: "of auxiliaries in the past",
        share: true,
        cuts: &[0.35, 0.8],
        levels: &["present", "mixed", "past"],
    },
    StyleFeature {
        name: "dates (years, centuries)",
        unit: "per 100 words",
        share: false,
        cuts: &[0.2, 1.2],
        levels: &["none", "few", "many"],
    },
    StyleFeature {
        name: "exclamations",
        unit: "of sentences end in \"!\"",
        share: true,
        cuts: &[0.05, 0.2],
        levels: &["rare", "some", "frequent"],
    },
    StyleFeature {
        name: "sentence length",
        unit: "words per sentence",
        share: false,
        cuts: &[11.0, 16.0, 22.0],
        levels: &["short", "medium", "long", "very long"],
    },
    StyleFeature {
        name: "word length",
        unit: "letters per word",
        share: false,
        cuts: &[4.2, 4.6],
        levels: &["short", "medium", "long"],
    },
];

/// Below this many words the rates are noise, and no style level is given.
const MIN_WORDS: u32 = 20;

/// A text of fewer lines than this is not told for verse.
const MIN_VERSE_LINES: u32 = 4;

/// A line of verse has at most this many words.
const VERSE_LINE_WORDS: usize = 10;

/// Tense is only judged on texts with at least this many auxiliaries.
const MIN_AUXILIARIES: u32 = 3;

/// Units that follow a number in a recipe (lowercase).
#[rustfmt::skip]
const UNITS: &[&str] = &[
    "c", "cl", "cm", "cup", "cups", "dessertspoonful", "dessertspoonfuls", "dl", "f", "g",
    "gill", "gills", "gram", "grams", "hour", "hours", "inch", "inches", "kg", "l", "lb",
    "lbs", "liter", "liters", "litre", "litres", "min", "mins", "minute", "minutes", "ml",
    "mm", "ounce", "ounces", "oz", "pint", "pints", "pound", "pounds", "quart", "quarts",
    "seconds", "tablespoon", "tablespoonful", "tablespoonfuls", "tablespoons", "tbsp",
    "teacupful", "teacupfuls", "teaspoon", "teaspoonful", "teaspoonfuls", "teaspoons", "tsp",
];

/// What one word adds to the tally. It depends only on the spelling, so a caller may
/// work it out once per distinct spelling and reuse it.
#[derive(Debug, Clone, Copy, Default)]
pub struct WordKind {
    number: bool,
    unit: bool,
    date: bool,
    letters: u32,
    person: Option<Person>,
    tense: Option<Tense>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Person {
    First,
    Second,
    Third,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tense {
    Past,
    Present,
}

impl WordKind {
    /// The kind of a word: `raw` as written, `lower` its normalised form.
    pub fn of(raw: &str, lower: &str) -> Self {
        let number = raw.starts_with(|c: char| c.is_ascii_digit())
            && raw
                .chars()
                .all(|c| c.is_ascii_digit() || c == '.' || c == ',');
        if number {
            let year = raw.len() == 4
                && raw.bytes().all(|b| b.is_ascii_digit())
                && (b"1000".as_slice()..=b"2099".as_slice()).contains(&raw.as_bytes());
            return WordKind {
                number,
                date: year,
                ..WordKind::default()
            };
        }
        let person = match lower {
            "you" | "your" | "yours" | "yourself" | "yourselves" | "you're" | "you've"
            | "you'll" | "you'd" => Some(Person::Second),
            "i" | "me" | "my" | "mine" | "myself" | "i'm" | "i've" | "i'll" | "i'd" => {
                Some(Person::First)
            }
            "he" | "she" | "him" | "her" | "his" | "hers" | "himself" | "herself" | "he's"
            | "she's" | "he'd" | "she'd" | "he'll" | "she'll" => Some(Person::Third),
            _ => None,
        };
        let tense = match lower {
            "was" | "were" | "had" | "did" | "wasn't" | "weren't" | "hadn't" | "didn't" => {
                Some(Tense::Past)
            }
            "is" | "are" | "am" | "has" | "does" | "isn't" | "aren't" | "hasn't" | "doesn't"
            | "i'm" | "it's" | "you're" | "they're" | "we're" => Some(Tense::Present),
            _ => None,
        };
        WordKind {
            number,
            unit: UNITS.binary_search(&lower).is_ok(),
            date: matches!(lower, "century" | "centuries" | "bc" | "bce"),
            letters: lower.chars().filter(|c| c.is_alphabetic()).count() as u32,
            person,
            tense,
        }
    }
}

/// Counts gathered word by word, by the same pass that gathers the word features.
#[derive(Debug, Default, Clone)]
pub struct WordTally {
    words: u32,
    letters: u64,
    second_person: u32,
    first_person: u32,
    third_person: u32,
    past: u32,
    present: u32,
    dates: u32,
    quantities: u32,
    previous_is_number: bool,
}

impl WordTally {
    /// Counts one word, in reading order.
    pub fn add(&mut self, kind: WordKind) {
        self.words += 1;
        self.letters += u64::from(kind.letters);
        self.dates += u32::from(kind.date);
        self.quantities += u32::from(self.previous_is_number && kind.unit);
        match kind.person {
            Some(Person::First) => self.first_person += 1,
            Some(Person::Second) => self.second_person += 1,
            Some(Person::Third) => self.third_person += 1,
            None => {}
        }
        match kind.tense {
            Some(Tense::Past) => self.past += 1,
            Some(Tense::Present) => self.present += 1,
            None => {}
        }
        self.previous_is_number = kind.number;
    }
}

/// The measured values of a text, one per feature of [`FEATURES`]; `None` where the text
/// is too short (or has too few lines) to tell.
#[derive(Debug, Clone, PartialEq)]
pub struct Style {
    pub values: [Option<f32>; FEATURES.len()],
}

impl Style {
    /// Measures `text`, given the tally of its words.
    pub fn measure(text: &str, tally: &WordTally) -> Self {
        Self::measure_pieces(&[text], None, tally)
    }

    /// Measures a text read in pieces (a play's speeches without their speakers' names),
    /// given the tally of their words. `speeches` is `Some` for a play: how many speeches
    /// start in the pieces. A play's speeches are its dialogue (each counts as a quoted
    /// speech); its lines are neither verse nor prose, and it has no narrator, so the
    /// measures of the narration (verse lines, person, tense) are not taken: a play's
    /// "I" is a character's, not a memoir's.
    pub fn measure_pieces(pieces: &[&str], speeches: Option<u32>, tally: &WordTally) -> Self {
        let mut values = [None; FEATURES.len()];
        if tally.words < MIN_WORDS {
            return Style { values };
        }
        let marks = Marks::count(pieces);
        let words = tally.words as f32;
        let per_100 = |n: u32| 100.0 * n as f32 / words;
        let sentences = marks.sentences.max(1) as f32;
        let auxiliaries = tally.past + tally.present;
        values[0] = Some(per_100(match speeches {
            Some(speeches) => 2 * speeches,
            None => marks.quotes,
        }));
        values[1] = (marks.lines > 0 && speeches.is_none())
            .then(|| marks.verse_lines as f32 / marks.lines as f32);
        values[2] = Some(per_100(tally.quantities));
        let narrated = speeches.is_none();
        values[3] = narrated.then(|| per_100(tally.second_person));
        values[4] = narrated.then(|| per_100(tally.first_person));
        values[5] = narrated.then(|| per_100(tally.third_person));
        values[6] = (narrated && auxiliaries >= MIN_AUXILIARIES)
            .then(|| tally.past as f32 / auxiliaries as f32);
        values[7] = Some(per_100(tally.dates));
        values[8] = Some(marks.exclamations as f32 / sentences);
        values[9] = Some(words / sentences);
        values[10] = Some(tally.letters as f32 / words);
        Style { values }
    }

    /// The level of each feature (see [`StyleFeature::level`]).
    pub fn levels(&self) -> impl Iterator<Item = (usize, Option<usize>)> + '_ {
        self.values
            .iter()
            .zip(&FEATURES)
            .enumerate()
            .map(|(i, (value, feature))| (i, value.map(|v| feature.level(v))))
    }
}

/// Whether `text` is verse as the "verse lines" measurement reads it: enough of its lines
/// short and open-ended to reach that measurement's last level ("verse"), over at least
/// [`MIN_VERSE_LINES`] lines and [`MIN_WORDS`] words. The quality scores use it to judge
/// verse as verse (quire-analysis reads a text's kind once, here).
pub(crate) fn is_verse(text: &str) -> bool {
    const VERSE: usize = 1;
    let marks = Marks::count(&[text]);
    marks.lines >= MIN_VERSE_LINES
        && text
            .split_whitespace()
            .nth(MIN_WORDS as usize - 1)
            .is_some()
        && FEATURES[VERSE].level(marks.verse_lines as f32 / marks.lines as f32)
            == FEATURES[VERSE].levels.len() - 1
}

/// Punctuation and line counts of a text.
#[derive(Debug, Default)]
struct Marks {
    quotes: u32,
    sentences: u32,
    exclamations: u32,
    lines: u32,
    verse_lines: u32,
}

impl Marks {
    fn count(pieces: &[&str]) -> Self {
        let mut marks = Marks::default();
        // A run of terminators ("?!", "...") ends one sentence; it is an exclamation when
        // it holds a "!".
        let mut in_run = false;
        let mut run_has_bang = false;
        for c in pieces.iter().flat_map(|p| p.chars()) {
            if matches!(c, '"' | '\u{201C}' | '\u{201D}' | '\u{AB}' | '\u{BB}') {
                marks.quotes += 1;
            }
            if matches!(c, '.' | '!' | '?' | '\u{2026}') {
                if !in_run {
                    marks.sentences += 1;
                }
                in_run = true;
                run_has_bang |= c == '!';
            } else if in_run {
                marks.exclamations += u32::from(run_has_bang);
                in_run = false;
                run_has_bang = false;
            }
        }
        marks.exclamations += u32::from(run_has_bang);
        for line in pieces.iter().flat_map(|p| p.lines()) {
            let line = line.trim();
            if line.is_empty() || is_heading(line) {
                continue;
            }
            marks.lines += 1;
            let short = line.split_whitespace().count() <= VERSE_LINE_WORDS;
            let ends_sentence = line
                .trim_end_matches(['"', '\'', '\u{201D}', '\u{2019}', ')', '*', '_'])
                .ends_with(['.', '!', '?', '\u{2026}']);
            if short && !ends_sentence {
                marks.verse_lines += 1;
            }
        }
        marks
    }
}

/// A chapter heading ("# The Search", "Chapter 3", "PART TWO"): neither verse nor prose.
fn is_heading(line: &str) -> bool {
    let lower = line.to_lowercase();
    line.starts_with('#')
        || lower.starts_with("chapter ")
        || (line.chars().any(char::is_alphabetic) && !line.chars().any(char::is_lowercase))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn style(text: &str) -> Style {
        let mut tally = WordTally::default();
        for w in crate::text::words(text) {
            tally.add(WordKind::of(w, &crate::text::normalise(w)));
        }
        Style::measure(text, &tally)
    }

    fn level(text: &str, feature: usize) -> Option<&'static str> {
        let s = style(text);
        s.values[feature].map(|v| FEATURES[feature].levels[FEATURES[feature].level(v)])
    }

    #[test]
    fn units_are_sorted_for_binary_search() {
        assert!(UNITS.windows(2).all(|w| w[0] < w[1]));
        for f in &FEATURES {
            assert_eq!(f.levels.len(), f.cuts.len() + 1, "{}", f.name);
            assert!(f.cuts.windows(2).all(|w| w[0] < w[1]), "{}", f.name);
        }
    }

    #[test]
    fn recipes_have_quantities_and_advice_has_you() {
        let recipe = "Heat 2 tablespoons of oil. Add 200 g of flour and 300 ml of milk, \
                      then bake at 180 C for 25 minutes until golden and risen.";
        assert_eq!(level(recipe, 2), Some("many"));
        let advice = "You do not need more time. You need a plan that fits your week, \
                      and you need to forgive yourself when your plan slips a little.";
        assert_eq!(level(advice, 3), Some("frequent"));
        assert_eq!(level(advice, 2), Some("none"));
    }

    #[test]
    fn verse_is_told_from_prose_and_dialogue() {
        let verse = "The heron stands in the shallows\nlike a question no one asked,\n\
                     grey as the sky behind it\nstill as the stone beneath\n\n\
                     and the river moves around it\nand the reeds move";
        assert_eq!(level(verse, 1), Some("verse"));
        let dialogue = "\"Run,\" he said.\n\"Where?\" she asked.\n\"Anywhere but here.\"\n\
                        She ran, and the dogs ran after her into the dark wet woods.";
        assert_eq!(level(dialogue, 1), Some("prose"));
        assert_eq!(level(dialogue, 0), Some("much"));
        let chapters = "# The Search\n\nHe looked everywhere for the key, under the mat and in the \
                        pockets of every coat.\n\nCHAPTER TWO\n\nShe found it in the end, of course, in \
                        the last place anyone would look.\n\nChapter 3\n\nThey never lost it again, \
                        or so they told their grandchildren.";
        assert_eq!(level(chapters, 1), Some("prose"));
        let one_paragraph = "word ".repeat(40);
        assert_eq!(level(&one_paragraph, 1), Some("prose"));
    }

    #[test]
    fn narrative_person_and_tense() {
        let story = "She had waited all night. He was late, and his car was gone, \
                     and she had no idea where he was or whether he had ever meant to come.";
        assert_eq!(level(story, 5), Some("frequent"));
        assert_eq!(level(story, 6), Some("past"));
        let advice = "Your plan is simple. It is a list, and it has three items. \
                      Habits are built slowly, and a habit that is small is one you keep.";
        assert_eq!(level(advice, 6), Some("present"));
        assert_eq!(level(advice, 5), Some("rare"));
        assert_eq!(level("word ".repeat(30).as_str(), 6), None);
    }

    #[test]
    fn dates_exclamations_and_lengths() {
        let history = "The war began in 1914 and ended in 1918, after four years in which \
                       the old empires of the nineteenth century fell apart one by one.";
        assert_eq!(level(history, 7), Some("many"));
        assert_eq!(level(history, 5), Some("rare"));
        let excited = "Look! A dog! It is big and brown. It runs! It jumps! \
                       Up it goes, and down it comes. What a dog it is! Hooray!";
        assert_eq!(level(excited, 8), Some("frequent"));
        assert_eq!(level(excited, 9), Some("short"));
        assert_eq!(level(excited, 10), Some("short"));
    }

    #[test]
    fn a_play_has_dialogue_and_no_narration() {
        let speeches = "I will not go, my lord; the night is cold,\nAnd I am weary of \
                        this cold, dark road.\nThen stay, and I will go alone to her.\n";
        let mut tally = WordTally::default();
        for w in crate::text::words(speeches) {
            tally.add(WordKind::of(w, &crate::text::normalise(w)));
        }
        let play = Style::measure_pieces(&[speeches], Some(3), &tally);
        let plain = Style::measure_pieces(&[speeches], None, &tally);
        assert_eq!(plain, Style::measure(speeches, &tally));
        let level =
            |s: &Style, i: usize| s.values[i].map(|v| FEATURES[i].levels[FEATURES[i].level(v)]);
        assert_eq!(level(&play, 0), Some("much"));
        assert_eq!(level(&plain, 0), Some("none"));
        for i in [1, 3, 4, 5, 6] {
            assert_eq!(play.values[i], None, "{}", FEATURES[i].name);
        }
        assert!(plain.values[4].is_some());
        assert_eq!(play.values[9], plain.values[9]);
    }

    #[test]
    fn short_or_empty_text_has_no_style() {
        assert!(style("").values.iter().all(Option::is_none));
        assert!(
            style("Only a few words here.")
                .values
                .iter()
                .all(Option::is_none)
        );
    }
}
