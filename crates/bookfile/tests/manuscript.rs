//! Manuscript extraction on real files of every format, built here, good and broken.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::time::Duration;

use common::manuscripts::{
    deeply_nested_pdf, docx, docx_with, encrypt_pdf, image_only_pdf, typeset_pdf, with_lzw_stream,
    with_outline_loop,
};
use common::{EpubSpec, chapters, epub, lie_about_size, pdf, txt_book, zip_files};
use quire_bookfile::{
    BookFileError, Manuscript, ManuscriptFormat, ManuscriptLimits, PDF_MAX_NESTING,
    extract_manuscript,
};

fn extract(name: &str, data: &[u8]) -> Result<Manuscript, BookFileError> {
    extract_manuscript(name, data, &ManuscriptLimits::default())
}

fn unreadable(result: Result<Manuscript, BookFileError>) -> String {
    match result {
        Err(BookFileError::Unreadable(m)) => m,
        other => panic!("expected Unreadable, got {other:?}"),
    }
}

fn unsupported(result: Result<Manuscript, BookFileError>) -> String {
    match result {
        Err(BookFileError::Unsupported(m)) => m,
        other => panic!("expected Unsupported, got {other:?}"),
    }
}

fn too_large(result: Result<Manuscript, BookFileError>) -> String {
    match result {
        Err(BookFileError::TooLarge(m)) => m,
        other => panic!("expected TooLarge, got {other:?}"),
    }
}

fn titles(m: &Manuscript) -> Vec<&str> {
    m.chapters.iter().map(|c| c.title.as_str()).collect()
}

fn all_text(m: &Manuscript) -> String {
    m.chapters
        .iter()
        .map(|c| c.text.as_str())
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// `count` paragraphs of about `words` words, each with a marker "P{n}".
fn plain_paragraphs(count: usize, words: usize) -> Vec<String> {
    (1..=count)
        .map(|n| {
            let filler: Vec<&str> = common::SENTENCES
                .iter()
                .flat_map(|s| s.split_whitespace())
                .cycle()
                .take(words - 1)
                .collect();
            format!("P{n} {}", filler.join(" "))
        })
        .collect()
}

// ---- txt ----

#[test]
fn txt_chapters_metadata_and_paragraphs() {
    let m = extract("river.txt", txt_book(3, 4).as_bytes()).unwrap();
    assert_eq!(m.format, ManuscriptFormat::Txt);
    assert_eq!(m.title.as_deref(), Some("The River Book"));
    assert_eq!(m.authors, ["Ada Lovelace"]);
    assert!(!m.truncated);
    assert_eq!(
        titles(&m),
        [
            "Opening",
            "CHAPTER I: The First Day",
            "CHAPTER II: The Second Day",
            "CHAPTER III: The Third Day"
        ]
    );
    let first = &m.chapters[1].text;
    // The heading lines are the title, not text; paragraphs are separated by a blank line.
    assert!(first.starts_with(common::SENTENCES[2]), "{first}");
    assert_eq!(first.split("\n\n").count(), 4);
    assert!(first.contains("TMARK-c1-p4") && !first.contains("TMARK-c2"));
    assert!(!first.contains("\n\n\n"));
}

#[test]
fn txt_in_windows_1252_and_utf16() {
    let mut cp1252 =
        b"CHAPTER 1\r\n\r\nCaf\xe9 cr\xe8me, \x93quoted\x94 na\xefve fa\xe7ade. ".to_vec();
    cp1252.extend(b"Na\xefve words go on and on. ".repeat(30));
    let m = extract("latin.txt", &cp1252).unwrap();
    let text = all_text(&m);
    assert!(
        text.starts_with("Café crème, \u{201c}quoted\u{201d} naïve façade."),
        "{text}"
    );
    assert!(!text.contains('\r'));

    let book = txt_book(2, 3).replace("The River", "Ünïcödé River");
    for (bom, bytes) in [
        (
            vec![0xFF, 0xFE],
            book.encode_utf16()
                .flat_map(u16::to_le_bytes)
                .collect::<Vec<u8>>(),
        ),
        (
            vec![0xFE, 0xFF],
            book.encode_utf16().flat_map(u16::to_be_bytes).collect(),
        ),
    ] {
        let data = [bom, bytes].concat();
        let m = extract("wide.txt", &data).unwrap();
        assert_eq!(m.title.as_deref(), Some("Ünïcödé River Book"));
        assert_eq!(m.chapters.len(), 3);
        assert!(all_text(&m).contains("TMARK-c2-p3"));
    }
    // A UTF-8 BOM is not text.
    let m = extract(
        "bom.txt",
        "\u{feff}Title: Bommed\n\nSome text here.".as_bytes(),
    )
    .unwrap();
    assert_eq!(m.title.as_deref(), Some("Bommed"));
}

#[test]
fn binary_named_txt_is_refused() {
    let png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x10\x08\x02";
    let message = unsupported(extract("cover.txt", png));
    assert!(message.contains("does not hold text"), "{message}");
    let noise: Vec<u8> = (0..20_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8 | 1)
        .collect();
    unsupported(extract("noise.txt", &noise));
    // A pdf or a docx named .txt: the content decides, the name must agree.
    let message = unsupported(extract("book.txt", &pdf(1, None)));
    assert!(message.contains("content is a pdf"), "{message}");
    let message = unsupported(extract("book.md", &docx(&[(None, "Hi".into())], None)));
    assert!(message.contains("content is a docx"), "{message}");
}

#[test]
fn empty_and_textless_files_are_refused() {
    for name in ["a.txt", "a.md", "a.pdf", "a.epub", "a.docx"] {
        let message = unreadable(extract(name, b""));
        assert!(message.contains("is empty"), "{message}");
    }
    let message = unreadable(extract("blank.txt", b" \n\r\n\t\n"));
    assert_eq!(message, "The txt has no text");
    let message = unreadable(extract(
        "blank.md",
        b"---\ntitle: Only a title\n---\n\n![img](a.png)\n",
    ));
    assert_eq!(message, "The markdown has no text");
    let message = unreadable(extract("blank.docx", &docx(&[(None, "  ".into())], None)));
    assert_eq!(message, "The docx has no text");
}

#[test]
fn oversized_files_are_too_large() {
    let limits = ManuscriptLimits {
        max_file_bytes: 100,
        ..ManuscriptLimits::default()
    };
    let data = "word ".repeat(100);
    let message = too_large(extract_manuscript("big.txt", data.as_bytes(), &limits));
    assert!(message.contains("too large"), "{message}");
    too_large(extract_manuscript("big.pdf", &pdf(2, None), &limits));
}

#[test]
fn unknown_names_and_old_word_files_are_unsupported() {
    let message = unsupported(extract("novel.rtf", b"{\\rtf1 hello}"));
    assert!(message.contains(".docx"), "{message}");
    unsupported(extract("novel", b"text"));
    let ole = b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1\x00\x00\x00\x00";
    let message = unsupported(extract("novel.docx", ole));
    assert!(message.contains("save it as .docx"), "{message}");
    let message = unsupported(extract("novel.epub", b"just words"));
    assert!(message.contains("not an epub"), "{message}");
}

#[test]
fn chapters_from_even_sections_without_headings() {
    let paragraphs = plain_paragraphs(130, 100);
    let text = paragraphs.join("\n\n");
    let m = extract("plain.txt", text.as_bytes()).unwrap();
    assert_eq!(titles(&m), ["Part 1", "Part 2", "Part 3"]);
    for chapter in &m.chapters {
        let words = chapter.text.split_whitespace().count();
        assert!((3_000..=5_000).contains(&words), "{words}");
        // Cut at paragraph boundaries: every paragraph is a whole one of the file.
        for p in chapter.text.split("\n\n") {
            assert!(paragraphs.iter().any(|q| q == p), "{p}");
        }
    }
    assert_eq!(all_text(&m), text);
    // A short text is one part.
    let m = extract("short.txt", plain_paragraphs(5, 50).join("\n\n").as_bytes()).unwrap();
    assert_eq!(titles(&m), ["Part 1"]);
}

#[test]
fn chapters_from_numbered_and_named_headings() {
    let body = plain_paragraphs(8, 80).join("\n\n");
    let text = format!("1.\n\n{body}\n\n2.\n\n{body}\n\n3. The Last One\n\n{body}\n");
    let m = extract("numbered.txt", text.as_bytes()).unwrap();
    assert_eq!(titles(&m), ["1.", "2.", "3. The Last One"]);
    assert!(m.chapters[2].text.starts_with("P1 "));

    let text = format!("PART ONE\n\n{body}\n\nPart Two\n\n{body}\n\nChapter 7\n\n{body}\n");
    let m = extract("parts.txt", text.as_bytes()).unwrap();
    assert_eq!(titles(&m), ["PART ONE", "Part Two", "Chapter 7"]);
}

#[test]
fn a_manuscript_of_one_paragraph_per_line() {
    let lines = plain_paragraphs(60, 30).join("\n");
    let m = extract("lines.txt", lines.as_bytes()).unwrap();
    assert_eq!(all_text(&m).split("\n\n").count(), 60);
}

#[test]
fn text_past_the_limit_is_left_out() {
    let limits = ManuscriptLimits {
        max_text_chars: 1_000,
        ..ManuscriptLimits::default()
    };
    let m = extract_manuscript("river.txt", txt_book(5, 10).as_bytes(), &limits).unwrap();
    assert!(m.truncated);
    let kept: usize = m.chapters.iter().map(|c| c.text.chars().count()).sum();
    assert!(kept <= 1_000 && kept > 500, "{kept}");
    let m = extract_manuscript(
        "river.epub",
        &epub(&EpubSpec::new(chapters(6, 20))),
        &limits,
    )
    .unwrap();
    assert!(m.truncated);
    assert!(!all_text(&m).contains("MARK-c6"));
}

#[test]
fn a_file_taking_too_long_is_stopped() {
    let limits = ManuscriptLimits {
        max_duration: Duration::from_nanos(1),
        ..ManuscriptLimits::default()
    };
    for (name, data) in [
        ("slow.txt", txt_book(3, 50).into_bytes()),
        ("slow.epub", epub(&EpubSpec::new(chapters(3, 50)))),
        ("slow.pdf", pdf(5, None)),
        ("slow.docx", docx(&[(None, "Words. ".repeat(5000))], None)),
        ("slow.md", "Words. ".repeat(5000).into_bytes()),
    ] {
        let message = unreadable(extract_manuscript(name, &data, &limits));
        assert!(message.contains("took too long"), "{name}: {message}");
    }
}

// ---- epub ----

#[test]
fn epub_metadata_and_contents_chapters() {
    let m = extract("river.epub", &epub(&EpubSpec::new(chapters(3, 4)))).unwrap();
    assert_eq!(m.format, ManuscriptFormat::Epub);
    assert_eq!(m.title.as_deref(), Some("The River & the Rain"));
    assert_eq!(m.authors, ["Ada Lovelace", "Mary Shelley"]);
    assert_eq!(m.language.as_deref(), Some("en"));
    assert_eq!(
        titles(&m),
        [
            "The First Chapter",
            "The Second Chapter",
            "The Third Chapter"
        ]
    );
    let first = &m.chapters[0].text;
    // The h1 repeating the title is not text; the nav document is no chapter.
    assert!(first.starts_with(common::SENTENCES[2]), "{first}");
    assert_eq!(first.split("\n\n").count(), 4);
    assert!(!all_text(&m).contains("Contents"));
}

#[test]
fn epub_documents_missing_from_the_contents_join_the_chapter_before() {
    let mut spec = EpubSpec::new(chapters(3, 2));
    spec.ncx = true;
    spec.nav = false;
    let data = epub(&spec);
    // Rewrite the NCX so that it lists chapters 1 and 3 only.
    let files: Vec<(String, Vec<u8>)> = common::unzip(&data)
        .into_iter()
        .filter(|(n, _)| n != "mimetype")
        .map(|(n, b)| {
            if n.ends_with("toc.ncx") {
                let s = String::from_utf8(b).unwrap();
                let start = s.find("<navPoint id=\"np2\"").unwrap();
                let end = s.find("<navPoint id=\"np3\"").unwrap();
                (n, format!("{}{}", &s[..start], &s[end..]).into_bytes())
            } else {
                (n, b)
            }
        })
        .collect();
    let m = extract("split.epub", &common::zip_with_mimetype(&files)).unwrap();
    assert_eq!(titles(&m), ["The First Chapter", "The Third Chapter"]);
    let first = &m.chapters[0].text;
    assert!(first.contains("MARK-c1-p2") && first.contains("The Second Chapter"));
    assert!(first.contains("MARK-c2-p2") && !first.contains("MARK-c3"));
}

#[test]
fn broken_epubs_are_refused_with_a_reason() {
    let good = epub(&EpubSpec::new(chapters(2, 2)));
    let message = unreadable(extract("cut.epub", &good[..good.len() / 2]));
    assert!(message.contains("not a valid zip"), "{message}");

    let mut spec = EpubSpec::new(chapters(1, 1));
    spec.extra.push(("../../escape.txt".into(), b"x".to_vec()));
    let message = unreadable(extract("evil.epub", &epub(&spec)));
    assert!(message.contains("unsafe file name"), "{message}");

    // A chapter that inflates to far more than it declares.
    let mut spec = EpubSpec::new(chapters(1, 1));
    spec.extra
        .push(("OEBPS/big.bin".into(), vec![b'a'; 2_000_000]));
    let mut bomb = epub(&spec);
    lie_about_size(&mut bomb, "OEBPS/text/ch1.xhtml", 10);
    let message = unreadable(extract("bomb.epub", &bomb));
    assert!(message.contains("zip bomb"), "{message}");
}

// ---- zip bombs and limits, docx ----

#[test]
fn docx_zip_bombs_and_traversal_are_refused() {
    let paragraphs = vec![(None, "Some words.".to_owned())];
    let limits = ManuscriptLimits {
        max_unpacked_bytes: 1_000_000,
        ..ManuscriptLimits::default()
    };
    // Declared: an entry saying it unpacks past the budget.
    let big = docx_with(
        &paragraphs,
        None,
        vec![("word/media/x.bin".into(), vec![0; 2_000_000])],
    );
    let message = too_large(extract_manuscript("big.docx", &big, &limits));
    assert!(message.contains("too large once unpacked"), "{message}");
    // Actual: the document part lies about its size and inflates to 2 MB.
    let body = "<w:p><w:r><w:t>".to_owned() + &"a".repeat(2_000_000) + "</w:t></w:r></w:p>";
    let liar = zip_files(&[("word/document.xml".into(), body.into_bytes())]);
    let mut liar = liar;
    lie_about_size(&mut liar, "word/document.xml", 500);
    let message = unreadable(extract_manuscript("liar.docx", &liar, &limits));
    assert!(message.contains("zip bomb"), "{message}");
    // Too many entries.
    let many: Vec<(String, Vec<u8>)> = (0..50).map(|i| (format!("word/{i}.xml"), vec![])).collect();
    let limits_entries = ManuscriptLimits {
        max_entries: 20,
        ..ManuscriptLimits::default()
    };
    let message = too_large(extract_manuscript(
        "many.docx",
        &docx_with(&paragraphs, None, many),
        &limits_entries,
    ));
    assert!(message.contains("too many files"), "{message}");
    // Traversal.
    let evil = docx_with(
        &paragraphs,
        None,
        vec![("../word/evil.xml".into(), vec![1])],
    );
    let message = unreadable(extract("evil.docx", &evil));
    assert!(message.contains("unsafe file name"), "{message}");
    // Truncated.
    let good = docx(&paragraphs, None);
    let message = unreadable(extract("cut.docx", &good[..good.len() - 30]));
    assert!(message.contains("docx is unreadable"), "{message}");
    // A zip that is neither.
    let other = zip_files(&[("readme.txt".into(), b"hello".to_vec())]);
    let message = unsupported(extract("other.docx", &other));
    assert!(
        message.contains("neither an epub nor a Word document"),
        "{message}"
    );
}

#[test]
fn docx_heading_styles_metadata_and_breaks() {
    let body = plain_paragraphs(3, 20);
    let mut paragraphs = vec![
        (Some("Title"), "The River Book".to_owned()),
        (None, "by Ada Lovelace".to_owned()),
    ];
    for (i, title) in ["Rain", "River", "Bells"].iter().enumerate() {
        paragraphs.push((Some("berschrift1"), format!("Chapter {}: {title}", i + 1)));
        paragraphs.extend(body.iter().map(|p| (None, p.clone())));
        paragraphs.push((Some("berschrift2"), "A scene break".to_owned()));
        paragraphs.push((None, format!("Verse line one\nverse line two of {title}")));
    }
    let m = extract(
        "novel.docx",
        &docx(
            &paragraphs,
            Some(("The River &amp; the Rain", "Ada Lovelace; Mary Shelley")),
        ),
    )
    .unwrap();
    assert_eq!(m.format, ManuscriptFormat::Docx);
    assert_eq!(m.title.as_deref(), Some("The River & the Rain"));
    assert_eq!(m.authors, ["Ada Lovelace", "Mary Shelley"]);
    assert_eq!(m.language.as_deref(), Some("en-GB"));
    assert_eq!(
        titles(&m),
        [
            "Opening",
            "Chapter 1: Rain",
            "Chapter 2: River",
            "Chapter 3: Bells"
        ]
    );
    // The title page (the text before the first heading) is kept for the analysis.
    assert_eq!(m.chapters[0].text, "The River Book\n\nby Ada Lovelace");
    let rain = &m.chapters[1].text;
    assert!(rain.starts_with("P1 "));
    assert!(
        rain.ends_with("A scene break\n\nVerse line one\nverse line two of Rain"),
        "{rain}"
    );

    // Without core properties the Title-styled paragraph is the title.
    let m = extract("novel.docx", &docx(&paragraphs, None)).unwrap();
    assert_eq!(m.title.as_deref(), Some("The River Book"));
    assert!(m.authors.is_empty());
}

#[test]
fn docx_without_heading_styles_uses_heading_lines() {
    let body = plain_paragraphs(4, 60);
    let mut paragraphs = Vec::new();
    for n in ["ONE", "TWO"] {
        paragraphs.push((None, format!("CHAPTER {n}")));
        paragraphs.extend(body.iter().map(|p| (None, p.clone())));
    }
    let m = extract("plain.docx", &docx(&paragraphs, None)).unwrap();
    assert_eq!(titles(&m), ["CHAPTER ONE", "CHAPTER TWO"]);
    assert!(m.chapters[1].text.starts_with("P1 "));
}

// ---- pdf ----

#[test]
fn pdf_outline_chapters_and_metadata() {
    let m = extract("river.pdf", &pdf(6, Some(2))).unwrap();
    assert_eq!(m.format, ManuscriptFormat::Pdf);
    assert_eq!(m.title.as_deref(), Some("The River Book"));
    assert_eq!(m.authors, ["Ada Lovelace"]);
    assert_eq!(
        titles(&m),
        [
            "Part 1 of the river",
            "Part 2 of the river",
            "Part 3 of the river"
        ]
    );
    assert!(m.chapters[1].text.contains("PMARK-3X") && m.chapters[1].text.contains("PMARK-4X"));
    assert!(!m.chapters[1].text.contains("PMARK-5X"));
}

#[test]
fn pdf_lines_become_paragraphs_and_headings_chapters() {
    let page1 = vec![
        "CHAPTER ONE",
        "",
        "The rain had not stopped for three days, and the river was",
        "rising; she kept the lamp lit by the window so that the boat-",
        "men could find the landing.",
        "Nobody in the village remembered a spring as wet as this one,",
        "and nobody wanted to.",
        "",
        "Her brother came back from the city with a letter he would not",
    ];
    let page2 = vec![
        "show anyone, not even her.",
        "",
        "CHAPTER TWO",
        "",
        "By evening the bells of the old church were ringing without a",
        "hand on the rope.",
    ];
    let m = extract("typeset.pdf", &typeset_pdf(&[page1, page2])).unwrap();
    assert_eq!(titles(&m), ["CHAPTER ONE", "CHAPTER TWO"]);
    assert_eq!(
        m.chapters[0].text,
        "The rain had not stopped for three days, and the river was rising; she kept the \
         lamp lit by the window so that the boatmen could find the landing.\n\n\
         Nobody in the village remembered a spring as wet as this one, and nobody wanted to.\n\n\
         Her brother came back from the city with a letter he would not show anyone, not \
         even her."
    );
    assert_eq!(
        m.chapters[1].text,
        "By evening the bells of the old church were ringing without a hand on the rope."
    );
}

#[test]
fn encrypted_pdfs_are_refused_even_without_a_password() {
    for user_password in ["secret", ""] {
        let locked = encrypt_pdf(&pdf(2, None), user_password);
        let message = unreadable(extract("locked.pdf", &locked));
        assert!(
            message.contains("encrypted") && message.contains("without a password"),
            "{message}"
        );
    }
}

#[test]
fn hostile_pdfs_are_refused_without_crashing() {
    // Nesting that would overflow lopdf's stack, in the file or inside a deflated stream.
    for deflated in [false, true] {
        let message = unreadable(extract("deep.pdf", &deeply_nested_pdf(100_000, deflated)));
        assert!(message.contains("nested more than"), "{message}");
    }
    // Nesting up to the limit is read, on lopdf's own stack (the same in every profile), in
    // the file or in a page's content; one level more is refused before lopdf parses it.
    for deflated in [false, true] {
        let m = extract("nested.pdf", &deeply_nested_pdf(PDF_MAX_NESTING, deflated)).unwrap();
        assert!(all_text(&m).contains("PMARK-1X"));
        let deeper = deeply_nested_pdf(PDF_MAX_NESTING + 1, deflated);
        let message = unreadable(extract("deeper.pdf", &deeper));
        assert!(message.contains("nested more than"), "{message}");
    }
    // An outline that loops is no outline: the text is read without it.
    let m = extract("loop.pdf", &with_outline_loop(&pdf(4, Some(2)))).unwrap();
    assert!(all_text(&m).contains("PMARK-4X"));
    assert!(!titles(&m).contains(&"Part 1 of the river"));
    // Filters whose output the checks do not see.
    let message = unsupported(extract("lzw.pdf", &with_lzw_stream(&pdf(1, None))));
    assert!(message.contains("LZW"), "{message}");
}

#[test]
fn scanned_pdfs_are_refused_with_what_to_do() {
    let message = unreadable(extract("scan.pdf", &image_only_pdf(3)));
    assert!(
        message.contains("no text layer") && message.contains("OCR"),
        "{message}"
    );
    let message = unreadable(extract("empty.pdf", &typeset_pdf(&[vec![], vec![]])));
    assert_eq!(message, "The pdf has no text");
    let message = unreadable(extract("broken.pdf", b"%PDF-1.7\nnot really"));
    assert!(message.contains("pdf is unreadable"), "{message}");
}

// ---- markdown ----

#[test]
fn markdown_front_matter_headings_and_markup() {
    let md = "---\ntitle: The River Book\nauthor: Ada Lovelace\nlang: en\n---\n\n\
# Chapter One\n\nThe *rain* had not [stopped](https://x.org).  \nA new line.\n\n\
![a picture](p.png)\n\n<div class=\"aside\">raw html</div>\n\n## A scene\n\n- one\n- two\n\n\
# Chapter Two\n\n> Quoted words.\n\n```\ncode kept\n```\n";
    let m = extract("river.md", md.as_bytes()).unwrap();
    assert_eq!(m.format, ManuscriptFormat::Markdown);
    assert_eq!(m.title.as_deref(), Some("The River Book"));
    assert_eq!(m.authors, ["Ada Lovelace"]);
    assert_eq!(m.language.as_deref(), Some("en"));
    assert_eq!(titles(&m), ["Chapter One", "Chapter Two"]);
    assert_eq!(
        m.chapters[0].text,
        "The rain had not stopped.\nA new line.\n\nA scene\n\none\n\ntwo"
    );
    assert_eq!(m.chapters[1].text, "Quoted words.\n\ncode kept");
}

#[test]
fn markdown_title_is_a_lone_leading_h1_only() {
    let body = plain_paragraphs(2, 20).join("\n\n");
    let md = format!("# The River Book\n\n## One\n\n{body}\n\n## Two\n\n{body}\n");
    let m = extract("river.markdown", md.as_bytes()).unwrap();
    assert_eq!(m.title.as_deref(), Some("The River Book"));
    assert_eq!(titles(&m), ["One", "Two"]);
    // Chapter headings in H1 are no title.
    let md = format!("# Chapter 1\n\n{body}\n\n# Chapter 2\n\n{body}\n");
    let m = extract("river.md", md.as_bytes()).unwrap();
    assert_eq!(m.title, None);
    assert_eq!(titles(&m), ["Chapter 1", "Chapter 2"]);
    // A lone H1 that reads like a chapter heading is not the title either.
    let md = format!("# Chapter 1\n\n{body}\n");
    let m = extract("river.md", md.as_bytes()).unwrap();
    assert_eq!(m.title, None);
    assert_eq!(titles(&m), ["Chapter 1"]);
}
