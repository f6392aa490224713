//! What the manuscript tests share: novel-like texts that no other text of the test
//! resembles (a seeded generator, so two seeds never look like copies), the same text as a
//! txt, docx, markdown, epub or pdf file, uploads through the real multipart routes, and a
//! look at the manuscript service's own tables and stored files.

use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use quire_fixtures::build::{BookFormat, BookMeta, ChapterText};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::Value;
use std::io::Write;

use crate::catalog_support::Multipart;
use crate::support::TestApp;

const NAMES: &[&str] = &[
    "Mara", "Tobias", "Elin", "Corwin", "Ada", "Silas", "Wren", "Ottilie", "Jasper", "Linnea",
    "Hale", "Rosalind", "Fenwick", "Isolde", "Bram", "Delphine",
];
const VERBS: &[&str] = &[
    "carried",
    "watched",
    "mended",
    "buried",
    "followed",
    "painted",
    "counted",
    "answered",
    "opened",
    "forgot",
    "weighed",
    "folded",
    "lit",
    "shouldered",
    "traded",
    "hid",
    "sketched",
    "guarded",
    "measured",
    "returned",
];
const ADJECTIVES: &[&str] = &[
    "copper",
    "silent",
    "broken",
    "salt-stained",
    "heavy",
    "borrowed",
    "crooked",
    "faded",
    "bright",
    "narrow",
    "ancient",
    "trembling",
    "patient",
    "hollow",
    "stubborn",
    "gilded",
    "weathered",
    "secret",
    "frozen",
    "gentle",
];
const NOUNS: &[&str] = &[
    "lantern", "ledger", "compass", "letter", "rope", "orchard", "bell", "map", "kettle", "violin",
    "anchor", "window", "ribbon", "harbour", "tower", "garden", "bridge", "coat", "clock", "key",
];
const PLACES: &[&str] = &[
    "the mill",
    "the lighthouse",
    "the market",
    "the chapel",
    "the quay",
    "the library",
    "the ferry",
    "the hillside",
    "the forge",
    "the inn",
    "the border post",
    "the old school",
];
const TIMES: &[&str] = &[
    "before dawn",
    "at noon",
    "after the storm",
    "in the evening",
    "while the tide turned",
    "long after supper",
    "as the snow began",
    "when the bells rang",
];

fn pick<'a>(rng: &mut StdRng, words: &[&'a str]) -> &'a str {
    words.choose(rng).copied().unwrap_or_default()
}

fn sentence(rng: &mut StdRng) -> String {
    let (a, b) = (pick(rng, NAMES), pick(rng, NAMES));
    match rng.gen_range(0..5) {
        0 => format!(
            "{a} {} the {} {} at {} {}.",
            pick(rng, VERBS),
            pick(rng, ADJECTIVES),
            pick(rng, NOUNS),
            pick(rng, PLACES),
            pick(rng, TIMES)
        ),
        1 => format!(
            "\"Why the {} {}?\" {b} asked, and {a} only {} the {} in reply.",
            pick(rng, ADJECTIVES),
            pick(rng, NOUNS),
            pick(rng, VERBS),
            pick(rng, NOUNS)
        ),
        2 => format!(
            "{} {}, {a} and {b} {} a {} {} near {}.",
            capital(pick(rng, TIMES)),
            pick(rng, TIMES),
            pick(rng, VERBS),
            pick(rng, ADJECTIVES),
            pick(rng, NOUNS),
            pick(rng, PLACES)
        ),
        3 => format!(
            "Nobody at {} remembered who had {} the {} {}, though {b} suspected {a}.",
            pick(rng, PLACES),
            pick(rng, VERBS),
            pick(rng, ADJECTIVES),
            pick(rng, NOUNS)
        ),
        _ => format!(
            "{a} {} the {} {} and {} the {} {}.",
            pick(rng, VERBS),
            pick(rng, ADJECTIVES),
            pick(rng, NOUNS),
            pick(rng, VERBS),
            pick(rng, ADJECTIVES),
            pick(rng, NOUNS)
        ),
    }
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// A novel-like text of `chapters` chapters of `paragraphs` paragraphs; the same seed
/// gives the same text, two seeds texts that share almost no five-word run.
pub fn novel(seed: u64, chapters: usize, paragraphs: usize) -> Vec<ChapterText> {
    let mut rng = StdRng::seed_from_u64(seed);
    (1..=chapters)
        .map(|c| {
            let title = format!(
                "The {} {}",
                capital(pick(&mut rng, ADJECTIVES)),
                capital(pick(&mut rng, NOUNS))
            );
            let body = (0..paragraphs)
                .map(|_| {
                    (0..rng.gen_range(4..8))
                        .map(|_| sentence(&mut rng))
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect();
            ChapterText::new(format!("{title} {c}"), body)
        })
        .collect()
}

/// `chapters` as a txt with a "Title:" line (its metadata title) when `title` is given.
pub fn txt(title: Option<&str>, chapters: &[ChapterText]) -> Vec<u8> {
    let mut out = String::new();
    if let Some(t) = title {
        out.push_str(&format!("Title: {t}\nAuthor: Ada Writer\n\n"));
    }
    for (i, c) in chapters.iter().enumerate() {
        out.push_str(&format!("\n\nCHAPTER {}. {}\n\n", i + 1, c.title));
        for p in &c.paragraphs {
            out.push_str(p);
            out.push_str("\n\n");
        }
    }
    out.into_bytes()
}

/// `chapters` as an epub or a pdf titled `title` (quire-demo's builders).
pub fn book(format: BookFormat, title: &str, chapters: &[ChapterText]) -> Vec<u8> {
    quire_fixtures::build::file(format, &BookMeta::new(title, &["Ada Writer"]), chapters).unwrap()
}

/// `chapters` as markdown: front matter naming the title, a `#` heading per chapter.
pub fn markdown(title: &str, chapters: &[ChapterText]) -> Vec<u8> {
    let mut out = format!("---\ntitle: {title}\nauthor: Ada Writer\n---\n\n");
    for c in chapters {
        out.push_str(&format!("# {}\n\n", c.title));
        for p in &c.paragraphs {
            out.push_str(p);
            out.push_str("\n\n");
        }
    }
    out.into_bytes()
}

fn xml(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// `chapters` as a Word document: the title in its core properties, a Heading 1
/// paragraph per chapter.
pub fn docx(title: &str, chapters: &[ChapterText]) -> Vec<u8> {
    let mut body = String::new();
    for c in chapters {
        body.push_str(&format!(
            "<w:p><w:pPr><w:pStyle w:val=\"Heading1\"/></w:pPr><w:r><w:t>{}</w:t></w:r></w:p>",
            xml(&c.title)
        ));
        for p in &c.paragraphs {
            body.push_str(&format!(
                "<w:p><w:r><w:t xml:space=\"preserve\">{}</w:t></w:r></w:p>",
                xml(p)
            ));
        }
    }
    let w = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
    let files: Vec<(&str, String)> = vec![
        (
            "[Content_Types].xml",
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">\
             <Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/>\
             <Default Extension=\"xml\" ContentType=\"application/xml\"/>\
             <Override PartName=\"/word/document.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml\"/>\
             <Override PartName=\"/docProps/core.xml\" ContentType=\"application/vnd.openxmlformats-package.core-properties+xml\"/></Types>"
                .to_owned(),
        ),
        (
            "_rels/.rels",
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">\
             <Relationship Id=\"rId1\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument\" Target=\"word/document.xml\"/>\
             <Relationship Id=\"rId2\" Type=\"http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties\" Target=\"docProps/core.xml\"/></Relationships>"
                .to_owned(),
        ),
        (
            "word/styles.xml",
            format!(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?><w:styles xmlns:w=\"{w}\">\
                 <w:style w:type=\"paragraph\" w:default=\"1\" w:styleId=\"Normal\"><w:name w:val=\"Normal\"/></w:style>\
                 <w:style w:type=\"paragraph\" w:styleId=\"Heading1\"><w:name w:val=\"heading 1\"/></w:style></w:styles>"
            ),
        ),
        (
            "word/document.xml",
            format!(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?><w:document xmlns:w=\"{w}\"><w:body>{body}</w:body></w:document>"
            ),
        ),
        (
            "docProps/core.xml",
            format!(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?><cp:coreProperties \
                 xmlns:cp=\"http://schemas.openxmlformats.org/package/2006/metadata/core-properties\" \
                 xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><dc:title>{}</dc:title>\
                 <dc:creator>Ada Writer</dc:creator></cp:coreProperties>",
                xml(title)
            ),
        ),
    ];
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, content) in files {
        zip.start_file(name, zip::write::SimpleFileOptions::default())
            .unwrap();
        zip.write_all(content.as_bytes()).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

/// `pdf` saved again encrypted with a user password (RC4, 128 bits): unreadable to us.
pub fn encrypted(pdf: &[u8]) -> Vec<u8> {
    use lopdf::{Document, EncryptionState, EncryptionVersion, Object, Permissions};
    let mut doc = Document::load_mem(pdf).unwrap();
    doc.trailer.set(
        "ID",
        Object::Array(vec![
            Object::string_literal(b"quire-test-id-01".to_vec()),
            Object::string_literal(b"quire-test-id-01".to_vec()),
        ]),
    );
    let state = EncryptionState::try_from(EncryptionVersion::V2 {
        document: &doc,
        owner_password: "owner",
        user_password: "secret",
        key_length: 128,
        permissions: Permissions::all(),
    })
    .unwrap();
    doc.encrypt(&state).unwrap();
    let mut out = Vec::new();
    doc.save_to(&mut out).unwrap();
    out
}

/// A form field of an upload.
pub enum Part<'a> {
    File(&'a str, Vec<u8>),
    Text(&'a str, String),
}

impl TestApp {
    /// Posts `parts` to `path` (`/api/publish_entry` or `/api/publish_entry_chapter`), each
    /// file as a `files` part, in order.
    pub async fn upload(&self, path: &str, token: &str, parts: Vec<Part<'_>>) -> (u16, Value) {
        let mut form = Multipart::new();
        for part in parts {
            form = match part {
                Part::File(name, data) => {
                    form.file("files", name, "application/octet-stream", &data)
                }
                Part::Text(name, value) => form.text(name, &value),
            };
        }
        form.post(self, path, Some(token)).await
    }

    /// `files` as one manuscript of the writer whose token this is, in english.
    pub async fn publish(&self, token: &str, files: Vec<(&str, Vec<u8>)>) -> (u16, Value) {
        let mut parts: Vec<Part<'_>> = files.into_iter().map(|(n, d)| Part::File(n, d)).collect();
        parts.push(Part::Text("language", "english".into()));
        self.upload("/api/publish_entry", token, parts).await
    }

    /// The manuscript service's schema of this test.
    pub fn manuscript_schema(&self) -> String {
        self.schema.replacen("auth_t_", "manuscript_t_", 1)
    }

    /// A connection to the manuscript service's schema.
    pub async fn manuscript_db(&self) -> AsyncPgConnection {
        let url =
            quire_kit::db::url_with_schema(&self.database_url, &self.manuscript_schema()).unwrap();
        AsyncPgConnection::establish(&url).await.unwrap()
    }

    /// Rows of `table` in the manuscript service's schema.
    pub async fn manuscript_rows(&self, table: &str) -> i64 {
        #[derive(diesel::QueryableByName)]
        struct Count {
            #[diesel(sql_type = diesel::sql_types::BigInt)]
            n: i64,
        }
        let mut conn = self.manuscript_db().await;
        diesel::sql_query(format!("SELECT count(*) AS n FROM {table}"))
            .get_result::<Count>(&mut conn)
            .await
            .unwrap()
            .n
    }

    /// Files the manuscript service keeps (its object store folder of this test).
    pub fn stored_manuscript_files(&self) -> usize {
        let id = self.schema.trim_start_matches("auth_t_");
        let dir = std::env::temp_dir().join(format!("quire-gw-manuscripts-{id}"));
        fn count(dir: &std::path::Path) -> usize {
            std::fs::read_dir(dir)
                .map(|entries| {
                    entries
                        .flatten()
                        .map(|e| {
                            let path = e.path();
                            if path.is_dir() { count(&path) } else { 1 }
                        })
                        .sum()
                })
                .unwrap_or(0)
        }
        count(&dir)
    }

    /// The books of `writer` as catalog shows them to that writer (unlisted ones too).
    pub async fn books_of(&self, token: &str, writer_id: &str) -> Vec<Value> {
        let (s, body) = self
            .get(
                &format!("/api/get_books?upload_writer_id={writer_id}"),
                Some(token),
            )
            .await;
        assert_eq!(s, 200, "{body}");
        body["data"].as_array().cloned().unwrap_or_default()
    }
}

/// Asserts that a manuscript reply carries a sane analysis.
pub fn assert_sane_analysis(data: &Value) {
    let a = &data["analyze_dict"];
    assert!(
        !a["short_summary"].as_str().unwrap_or_default().is_empty(),
        "{data}"
    );
    assert!(
        !a["long_summary"].as_str().unwrap_or_default().is_empty(),
        "{data}"
    );
    let tags = a["tags"].as_array().unwrap();
    assert!((5..=12).contains(&tags.len()), "tags: {tags:?}");
    assert!(!a["genre"].as_str().unwrap_or_default().is_empty(), "{a}");
    assert!(
        a["genre_scores"].as_array().is_some_and(|g| !g.is_empty()),
        "{a}"
    );
    let overall = data["qa"]["scores"]["overall_score"].as_f64().unwrap();
    assert!((0.0..=100.0).contains(&overall), "{overall}");
    for part in data["qa"]["parts"].as_array().unwrap() {
        let key = part["key"].as_str().unwrap();
        assert_eq!(data["qa"]["scores"][key], part["score"], "{part}");
    }
    let ai = data["ai_check_dict"]["probability"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&ai), "{ai}");
    assert!(
        !data["ai_check_dict"]["verdict"]
            .as_str()
            .unwrap_or_default()
            .is_empty()
    );
    let chapters = data["chapters"].as_array().unwrap();
    assert!(!chapters.is_empty(), "{data}");
    for c in chapters {
        assert!(c["words"].as_u64().unwrap() > 0, "{c}");
        let p = c["ai_probability"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&p), "{c}");
    }
    assert!(uuid::Uuid::parse_str(data["manuscript_id"].as_str().unwrap()).is_ok());
    assert!(uuid::Uuid::parse_str(data["book_id"].as_str().unwrap()).is_ok());
}

/// Asserts that a manuscript reply says why: the genre's evidence (its reason, the
/// passages and words it rests on, what became of the writer's `hint`), the passages the
/// summaries come from (each the uploaded `text`'s own), and the kind the quality was
/// judged as.
pub fn assert_why(data: &Value, hint: Option<&str>, text: &str) {
    // What a quotation keeps of its source whatever became of its spacing and quotes.
    let letters = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let book = letters(text);
    let chapters = data["chapters"].as_array().unwrap().len() as u64;
    let a = &data["analyze_dict"];
    let e = &a["genre_evidence"];
    assert!(!e["reason"].as_str().unwrap().is_empty(), "{e}");
    assert!(e["passages_read"].as_u64().unwrap() >= 1, "{e}");
    assert_eq!(e["hint"].as_str(), hint, "{e}");
    assert!(
        e["hint_overruled"].is_boolean() && e["play"].is_boolean(),
        "{e}"
    );
    let passages = e["passages"].as_array().unwrap();
    assert!((1..=3).contains(&passages.len()), "{e}");
    for p in passages {
        assert!(p["chapter"].as_u64().unwrap() < chapters, "{p}");
        let excerpt = letters(p["excerpt"].as_str().unwrap());
        assert!(!excerpt.is_empty() && book.contains(&excerpt), "{p}");
        assert!(
            (0.0..=1.0).contains(&p["probability"].as_f64().unwrap()),
            "{p}"
        );
    }
    let features = e["features"].as_array().unwrap();
    assert!(!features.is_empty(), "{e}");
    for f in features {
        assert!(!f["feature"].as_str().unwrap().is_empty(), "{f}");
        assert!(f["weight"].as_f64().unwrap().is_finite(), "{f}");
    }
    let sources = a["summary_sources"].as_array().unwrap();
    assert!(!sources.is_empty(), "{a}");
    assert!(sources.iter().any(|s| s["in_short"] == true), "{a}");
    for s in sources {
        assert!(s["chapter"].as_u64().unwrap() < chapters, "{s}");
        assert!(s["offset"].is_u64(), "{s}");
        let excerpt = letters(s["excerpt"].as_str().unwrap());
        assert!(
            !excerpt.is_empty() && book.contains(&excerpt),
            "the book's own: {s}"
        );
    }
    let qa = &data["qa"];
    assert!(
        ["prose", "verse", "play"].contains(&qa["kind"].as_str().unwrap()),
        "{qa}"
    );
    assert!(qa["notes"].is_array(), "{qa}");
}
