#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::txt_book;
use quire_bookfile::{
    BookFileError, Format, InSample, Limits, TXT_TRIAL_END_LINE, extract_text, inspect,
    sample_marks, trial,
};

#[test]
fn chapters_at_headings_with_byte_offsets() {
    let book = txt_book(5, 8);
    let i = inspect("river.txt", book.as_bytes(), &Limits::default()).unwrap();
    assert_eq!(i.format, Format::Txt);
    assert_eq!(i.title.as_deref(), Some("The River Book"));
    assert_eq!(i.authors, vec!["Ada Lovelace"]);
    let titles: Vec<&str> = i.chapters.iter().map(|c| c.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "Opening",
            "CHAPTER I: The First Day",
            "CHAPTER II: The Second Day",
            "CHAPTER III: The Third Day",
            "CHAPTER IV: The Fourth Day",
            "CHAPTER V: The Fifth Day"
        ]
    );
    for c in &i.chapters[1..] {
        let offset: usize = c.href.strip_prefix("offset=").unwrap().parse().unwrap();
        assert!(book[offset..].starts_with("CHAPTER "), "{}", c.href);
    }
    assert_eq!(i.total_weight, book.chars().count() as u64);
}

#[test]
fn the_sample_skips_the_title_block_and_ends_where_a_chapter_starts() {
    let book = txt_book(5, 8);
    let i = inspect("river.txt", book.as_bytes(), &Limits::default()).unwrap();
    for (percent, whole) in [(10, 1), (30, 1), (50, 2)] {
        let t =
            String::from_utf8(trial(Format::Txt, book.as_bytes(), &i.chapters, percent).unwrap())
                .unwrap();
        let body = t
            .strip_suffix(&format!("\n\n{TXT_TRIAL_END_LINE}\n"))
            .unwrap();
        assert!(book.starts_with(body));
        let next = book[body.len()..].trim_start();
        assert!(
            next.starts_with(&format!("CHAPTER {}\n", ["I", "II", "III"][whole])),
            "{percent}%: {:?}",
            &next[..20]
        );
        assert!(t.contains(&format!("TMARK-c{whole}-p8 ")), "{percent}%");
        assert!(!t.contains(&format!("TMARK-c{}-", whole + 1)), "{percent}%");
        let mut marks = vec![InSample::FrontMatter];
        marks.extend(std::iter::repeat_n(InSample::Whole, whole));
        marks.extend(std::iter::repeat_n(InSample::Out, 5 - whole));
        assert_eq!(sample_marks(Format::Txt, &i.chapters, percent), marks);
    }
}

#[test]
fn a_long_first_chapter_is_cut_at_a_line_after_a_few_pages() {
    let book = txt_book(2, 120);
    let i = inspect("river.txt", book.as_bytes(), &Limits::default()).unwrap();
    let t =
        String::from_utf8(trial(Format::Txt, book.as_bytes(), &i.chapters, 1).unwrap()).unwrap();
    let body = t
        .strip_suffix(&format!("\n\n{TXT_TRIAL_END_LINE}\n"))
        .unwrap();
    assert!(book.starts_with(body));
    assert!(book[body.len()..].starts_with('\n'), "cut at a line");
    let chapter = body.split("CHAPTER I\n").nth(1).unwrap().chars().count();
    assert!(
        (3_000..=6_100).contains(&chapter),
        "{chapter} characters of the chapter"
    );
    assert_eq!(
        sample_marks(Format::Txt, &i.chapters, 1),
        [InSample::FrontMatter, InSample::Opening, InSample::Out]
    );
}

#[test]
fn text_without_headings_is_split_in_sections() {
    let para = "The water rose over the low fields and the people moved up the hill. ".repeat(6);
    let book = format!("{para}\n\n").repeat(150);
    let i = inspect("plain.txt", book.as_bytes(), &Limits::default()).unwrap();
    assert!(i.chapters.len() >= 3, "{}", i.chapters.len());
    assert_eq!(i.chapters[0].title, "Section 1");
    assert_eq!(i.total_weight, book.chars().count() as u64);
}

#[test]
fn non_utf8_text_is_unreadable() {
    let latin1 = b"Caf\xe9 au lait, na\xefve r\xe9sum\xe9\n".to_vec();
    let err = inspect("menu.txt", &latin1, &Limits::default()).unwrap_err();
    assert_eq!(
        err,
        BookFileError::Unreadable("The txt is unreadable: it is not UTF-8 text".into())
    );
}

#[test]
fn percent_100_is_the_whole_text_and_a_bom_is_fine() {
    let mut book = b"\xEF\xBB\xBF".to_vec();
    book.extend_from_slice(txt_book(2, 3).as_bytes());
    let i = inspect("b.txt", &book, &Limits::default()).unwrap();
    assert_eq!(trial(Format::Txt, &book, &i.chapters, 100).unwrap(), book);
    assert!(
        extract_text(Format::Txt, &book, 10)
            .unwrap()
            .starts_with("Title: The")
    );
}
