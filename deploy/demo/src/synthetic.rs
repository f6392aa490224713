//! Synthetic book records for the search benchmark: many plausible books from word lists,
//! the same ones for the same seed (a splitmix64 generator, stable across versions).

use serde::Serialize;

use crate::DemoError;

/// One made-up book, in the shape of the catalog's book fields.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SyntheticBook {
    pub title: String,
    pub authors: Vec<String>,
    pub short_summary: String,
    pub long_summary: String,
    pub tags: Vec<String>,
    pub genre: String,
    pub price_cents: i64,
    pub publish_date: String,
    pub assessment_score: f64,
    pub language: String,
}

/// A small seeded generator (splitmix64): the same numbers for the same seed on every
/// machine and version, which is what reproducible benchmark data needs.
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const GENRES: [&str; 12] = [
    "Fantasy",
    "Science Fiction",
    "Mystery",
    "Romance",
    "Thriller",
    "History",
    "Poetry",
    "Children",
    "Classics",
    "Politics",
    "Humour",
    "Biography",
];
const ADJECTIVES: [&str; 32] = [
    "Silent",
    "Hidden",
    "Last",
    "Golden",
    "Broken",
    "Distant",
    "Burning",
    "Forgotten",
    "Secret",
    "Crimson",
    "Winter",
    "Lost",
    "Endless",
    "Quiet",
    "Wild",
    "Hollow",
    "Shining",
    "Bitter",
    "Northern",
    "Drowned",
    "Paper",
    "Glass",
    "Iron",
    "Velvet",
    "Midnight",
    "Summer",
    "Stolen",
    "Sleeping",
    "Falling",
    "Painted",
    "Savage",
    "Gentle",
];
const NOUNS: [&str; 40] = [
    "Garden",
    "River",
    "Empire",
    "Lighthouse",
    "Orchard",
    "Kingdom",
    "Harbour",
    "Library",
    "Mountain",
    "Island",
    "Clockmaker",
    "Cartographer",
    "Station",
    "Letter",
    "Crown",
    "Mirror",
    "Forest",
    "Bridge",
    "Comet",
    "Archive",
    "Voyage",
    "Sparrow",
    "Engine",
    "Tide",
    "Lantern",
    "Daughter",
    "Witness",
    "Carousel",
    "Observatory",
    "Frontier",
    "Violin",
    "Harvest",
    "Citadel",
    "Whale",
    "Compass",
    "Meadow",
    "Storm",
    "Desert",
    "Cathedral",
    "Signal",
];
const FIRST_NAMES: [&str; 30] = [
    "Ada", "Ben", "Clara", "Dmitri", "Elena", "Farid", "Grace", "Hiro", "Ines", "Jonas", "Kofi",
    "Lena", "Marco", "Nadia", "Oscar", "Priya", "Quentin", "Rosa", "Samir", "Tara", "Ulla",
    "Victor", "Wen", "Ximena", "Yusuf", "Zoe", "Amara", "Bruno", "Celine", "Dara",
];
const LAST_NAMES: [&str; 30] = [
    "Abbott",
    "Brennan",
    "Castillo",
    "Dimitrov",
    "Eriksen",
    "Fontaine",
    "Gallagher",
    "Hayashi",
    "Ibrahim",
    "Jensen",
    "Kowalski",
    "Lindqvist",
    "Moreau",
    "Nakamura",
    "Okafor",
    "Petrova",
    "Quinn",
    "Rossi",
    "Sato",
    "Thornton",
    "Umarov",
    "Vasquez",
    "Whitfield",
    "Xu",
    "Yilmaz",
    "Zimmer",
    "Achebe",
    "Blackwood",
    "Carver",
    "Delacroix",
];
const HEROES: [&str; 16] = [
    "a young apprentice",
    "a retired detective",
    "two estranged sisters",
    "a ship's doctor",
    "an exiled princess",
    "a village schoolteacher",
    "a stubborn engineer",
    "an old sailor",
    "a runaway orphan",
    "a famous violinist",
    "a night-shift nurse",
    "a disgraced knight",
    "a botanist",
    "a radio operator",
    "a small-town mayor",
    "a travelling bookseller",
];
const PLOTS: [&str; 16] = [
    "uncovers a secret buried for a hundred years",
    "must cross a frozen sea before the spring thaw",
    "searches for a brother who vanished without a word",
    "is caught between two families at war",
    "finds a map that should not exist",
    "tries to save a failing theatre",
    "investigates a theft that nobody reported",
    "falls in love with the wrong person at the worst moment",
    "builds a machine that can hear the past",
    "leads a rebellion against a gentle tyrant",
    "inherits a house with one locked room",
    "follows a comet to the edge of the known world",
    "keeps a promise made to a dying stranger",
    "learns the language of the forest",
    "races a rival across three continents",
    "answers a letter forty years too late",
];
const TAGS: [&str; 24] = [
    "adventure",
    "family",
    "friendship",
    "magic",
    "war",
    "love",
    "betrayal",
    "sea",
    "space",
    "detective",
    "coming of age",
    "history",
    "politics",
    "humour",
    "nature",
    "music",
    "travel",
    "dragons",
    "time travel",
    "small town",
    "court intrigue",
    "revenge",
    "survival",
    "art",
];

/// Book `index` of the stream for `seed`: the same arguments always give the same book.
pub fn book(seed: u64, index: u64) -> SyntheticBook {
    let mut rng = SplitMix64(seed ^ index.wrapping_mul(0xa076_1d64_78bd_642f));
    rng.next_u64();
    let title = match rng.below(4) {
        0 => format!("The {} {}", rng.pick(&ADJECTIVES), rng.pick(&NOUNS)),
        1 => format!(
            "The {} of the {} {}",
            rng.pick(&NOUNS),
            rng.pick(&ADJECTIVES),
            rng.pick(&NOUNS)
        ),
        2 => format!("{} {}", rng.pick(&ADJECTIVES), rng.pick(&NOUNS)),
        _ => format!("A {} for the {}", rng.pick(&NOUNS), rng.pick(&NOUNS)),
    };
    let author = format!("{} {}", rng.pick(&FIRST_NAMES), rng.pick(&LAST_NAMES));
    let mut authors = vec![author];
    if rng.below(10) == 0 {
        authors.push(format!(
            "{} {}",
            rng.pick(&FIRST_NAMES),
            rng.pick(&LAST_NAMES)
        ));
    }
    let genre = rng.pick(&GENRES).to_string();
    let hero = rng.pick(&HEROES);
    let plot = rng.pick(&PLOTS);
    let second = rng.pick(&PLOTS);
    let place = rng.pick(&NOUNS).to_lowercase();
    let mut tags: Vec<String> = Vec::new();
    for _ in 0..2 + rng.below(3) {
        let tag = rng.pick(&TAGS).to_string();
        if !tags.contains(&tag) {
            tags.push(tag);
        }
    }
    let short_summary = format!("In this {} novel, {hero} {plot}.", genre.to_lowercase());
    let long_summary = format!(
        "{} {plot}. What begins near the old {place} soon becomes a journey in which {hero} \
         {second}. A {} story of {} and {}, by {}.",
        capitalise(hero),
        genre.to_lowercase(),
        tags[0],
        tags.get(1).map_or("hope", String::as_str),
        authors.join(" and "),
    );
    let price_cents = if rng.below(12) == 0 {
        0
    } else {
        99 + 100 * rng.below(15) as i64
    };
    let year = 1800 + rng.below(226);
    let publish_date = format!("{year}-{:02}-{:02}", 1 + rng.below(12), 1 + rng.below(28));
    let assessment_score = (50 + rng.below(51)) as f64 / 10.0;
    SyntheticBook {
        title,
        authors,
        short_summary,
        long_summary,
        tags,
        genre,
        price_cents,
        publish_date,
        assessment_score,
        language: "en".to_owned(),
    }
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// Writes `n` books as JSON lines.
pub fn write_jsonl(seed: u64, n: u64, out: &mut impl std::io::Write) -> Result<(), DemoError> {
    for i in 0..n {
        serde_json::to_writer(&mut *out, &book(seed, i))?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_books_other_seed_other_books() {
        assert_eq!(book(7, 42), book(7, 42));
        assert_ne!(book(7, 42), book(8, 42));
        let mut out = Vec::new();
        write_jsonl(1, 100, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.lines().count(), 100);
        let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        assert!(first["title"].as_str().is_some_and(|t| !t.is_empty()));
    }

    #[test]
    fn prices_are_in_the_shop_range() {
        for i in 0..1000 {
            let b = book(3, i);
            assert!((0..=1499).contains(&b.price_cents));
            assert!(!b.tags.is_empty());
        }
    }
}
