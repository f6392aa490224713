//! Analyses a plain-text book and prints the analysis as JSON, with the time `analyse`
//! took on stderr.
//!
//! Usage: `cargo run --release -p quire-analysis --example analyse_file -- book.txt [title]`
//!
//! Chapters start at lines beginning with "CHAPTER" or "Chapter" (the line is the
//! chapter's title); text before the first such line is a chapter of its own. A file
//! without such lines is one chapter.

use std::time::Instant;

use quire_analysis::{ChapterText, Input, analyse};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .ok_or("usage: analyse_file <book.txt> [title]")?;
    let title = args.next().unwrap_or_else(|| path.clone());
    let text = std::fs::read_to_string(&path)?;
    let chapters = split_chapters(&text);
    let input = Input {
        title: &title,
        chapters: &chapters,
        metadata_authors: &[],
        genre_hint: None,
    };
    let started = Instant::now();
    let analysis = analyse(&input);
    let elapsed = started.elapsed();
    println!("{}", serde_json::to_string_pretty(&analysis)?);
    eprintln!(
        "analysed {} bytes, {} chapters, {} words in {:.1} ms",
        text.len(),
        chapters.len(),
        analysis.words,
        elapsed.as_secs_f64() * 1000.0
    );
    Ok(())
}

fn split_chapters(text: &str) -> Vec<ChapterText> {
    let mut chapters: Vec<ChapterText> = Vec::new();
    let mut current = ChapterText {
        title: String::new(),
        text: String::new(),
    };
    for line in text.lines() {
        let heading = line.starts_with("CHAPTER") || line.starts_with("Chapter");
        if heading {
            if !current.text.trim().is_empty() || !current.title.is_empty() {
                chapters.push(std::mem::replace(
                    &mut current,
                    ChapterText {
                        title: String::new(),
                        text: String::new(),
                    },
                ));
            }
            current.title = line.trim().to_owned();
            continue;
        }
        current.text.push_str(line);
        current.text.push('\n');
    }
    if !current.text.trim().is_empty() || !current.title.is_empty() {
        chapters.push(current);
    }
    chapters
}
