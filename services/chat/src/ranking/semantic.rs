//! The semantic side: the sentence a request is embedded as ([`query_text`]), written to
//! read like the books' [`super::embedding_text`] (a genre, what it is about, how it
//! feels), and the similarity of two vectors scaled to 0-1 for the score.
//!
//! Vectors are all-MiniLM-L6-v2's, L2-normalised: cosine is their dot product. For this
//! model unrelated texts sit around 0.0-0.2 and close paraphrases above 0.6, so 0.15
//! scales to 0 and 0.6 to 1.

use crate::understanding::{Length, Request};

use super::moods::MoodCues;

/// A cosine at or below this is no likeness at all.
const FLOOR: f32 = 0.15;
/// A cosine at or above this is as alike as it gets.
const CEILING: f32 = 0.6;
/// A book this close to the query is a candidate even when no word of it matches.
pub(crate) const CANDIDATE: f32 = 0.3;

/// The text of a request that the query vector embeds: natural language, like "a cosy,
/// warm and gentle story; a mystery about winter".
pub fn query_text(request: &Request) -> String {
    let mut parts: Vec<String> = Vec::new();
    for id in &request.moods {
        match MoodCues::of(id) {
            Some(cues) => parts.push(cues.phrase.to_owned()),
            None => parts.push(id.clone()),
        }
    }
    let mut book = String::new();
    if let Some(length) = request.length {
        book.push_str(match length {
            Length::Short => "a short ",
            Length::Long => "a long ",
        });
    }
    if request.genres.is_empty() {
        if book.is_empty() {
            book.push_str("a ");
        }
        book.push_str("book");
    } else {
        let genres: Vec<String> = request.genres.iter().map(|g| g.to_lowercase()).collect();
        book.push_str(&genres.join(" or "));
        if book.starts_with(['a', 'e', 'i', 'o', 'u']) {
            book.insert_str(0, "an ");
        } else if !book.starts_with("a ") {
            book.insert_str(0, "a ");
        }
        book.push_str(" book");
    }
    if let Some(audience) = request.audience {
        book.push_str(" for ");
        book.push_str(&audience.genre().to_lowercase());
    }
    if !request.keywords.is_empty() {
        book.push_str(" about ");
        book.push_str(&request.keywords.join(", "));
    }
    if let Some(like) = &request.like_title {
        book.push_str(" like ");
        book.push_str(like);
    }
    if let Some(title) = &request.title {
        book.push_str(" called ");
        book.push_str(title);
    }
    if let Some(author) = &request.author {
        book.push_str(" by ");
        book.push_str(author);
    }
    let says_more = !request.genres.is_empty()
        || !request.keywords.is_empty()
        || request.audience.is_some()
        || request.like_title.is_some()
        || request.title.is_some()
        || request.author.is_some()
        || parts.is_empty();
    if says_more {
        parts.push(book);
    }
    parts.join("; ")
}

/// The dot product of two vectors of the same length (their cosine when both are unit
/// vectors); 0 when the lengths differ. Summed in eight lanes so the compiler can use
/// vector instructions: ten thousand books cost well under a millisecond.
pub(crate) fn dot(a: &[f32], b: &[f32]) -> f32 {
    if a.len() != b.len() {
        return 0.0;
    }
    let mut lanes = [0.0f32; 8];
    let mut ca = a.chunks_exact(8);
    let mut cb = b.chunks_exact(8);
    for (x, y) in ca.by_ref().zip(cb.by_ref()) {
        // Fixed-size arrays: no bounds checks, so the loop becomes vector instructions.
        let (x, y): (&[f32; 8], &[f32; 8]) = match (x.try_into(), y.try_into()) {
            (Ok(x), Ok(y)) => (x, y),
            _ => continue,
        };
        for i in 0..8 {
            lanes[i] += x[i] * y[i];
        }
    }
    let rest: f32 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(x, y)| x * y)
        .sum();
    lanes.iter().sum::<f32>() + rest
}

/// A cosine scaled to 0-1 between [`FLOOR`] and [`CEILING`].
pub(crate) fn scaled(cosine: f32) -> f32 {
    ((cosine - FLOOR) / (CEILING - FLOOR)).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::understanding::Audience;

    #[test]
    fn the_query_reads_like_a_sentence_about_a_book() {
        let request = Request {
            moods: vec!["cosy".into()],
            genres: vec!["Mystery".into()],
            keywords: vec!["winter".into()],
            ..Request::default()
        };
        assert_eq!(
            query_text(&request),
            "a cosy, warm and gentle story; a mystery book about winter"
        );
        let children = Request {
            audience: Some(Audience::Children),
            length: Some(Length::Short),
            max_price_cents: Some(0),
            ..Request::default()
        };
        assert_eq!(query_text(&children), "a short book for children");
        let epic = Request {
            genres: vec!["Epic Fantasy".into()],
            author: Some("Morwenna Hale".into()),
            ..Request::default()
        };
        assert_eq!(query_text(&epic), "an epic fantasy book by Morwenna Hale");
        let mood_only = Request {
            moods: vec!["funny".into()],
            ..Request::default()
        };
        assert_eq!(query_text(&mood_only), "a funny, witty and comic book");
    }

    #[test]
    fn dot_is_the_cosine_of_unit_vectors() {
        let a: Vec<f32> = (0..20).map(|i| if i == 3 { 1.0 } else { 0.0 }).collect();
        let mut b = a.clone();
        assert!((dot(&a, &b) - 1.0).abs() < 1e-6);
        b[3] = 0.0;
        b[19] = 1.0;
        assert_eq!(dot(&a, &b), 0.0);
        assert_eq!(dot(&a, &b[..10]), 0.0);
        assert_eq!(scaled(0.1), 0.0);
        assert_eq!(scaled(0.9), 1.0);
        assert!((scaled(0.375) - 0.5).abs() < 1e-6);
    }
}
