//! The understanding takes any text without panicking and answers the same words the
//! same way every time.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use quire_chat::understanding::{Request, Shown, reply_text, understand};

/// A fixed pseudo-random sequence (no random source: the test must be reproducible).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

const PIECES: &[&str] = &[
    "not",
    "no",
    "by",
    "like",
    "\"",
    "\u{201c}",
    "\u{2019}",
    "'",
    "$",
    "\u{a3}",
    "5",
    "4.99",
    "99999999999999",
    "under",
    "over",
    "pages",
    "the",
    "second",
    "last",
    "shorter",
    "cheaper",
    "more like",
    "free",
    "cosy",
    "sci-fi",
    "-",
    ",",
    ".",
    "?",
    "\u{0}",
    "\u{fffd}",
    "\u{1f4da}",
    "\u{130}",
    "\u{3a3}",
    "instead",
    "only",
    "that one",
    "for kids",
    "nothing",
    "hi",
    " ",
    "  ",
];

#[test]
fn any_text_up_to_the_limit_is_understood_without_panicking() {
    let mut rng = Lcg(22);
    let shown = vec![Shown {
        id: "b1".into(),
        title: "A".into(),
        price_cents: None,
        pages: None,
    }];
    let previous = Request {
        genres: vec!["Mystery".into()],
        ..Request::default()
    };
    for _ in 0..1000 {
        let mut text = String::new();
        while text.chars().count() < (rng.next() % 120) as usize {
            text.push_str(PIECES[(rng.next() % PIECES.len() as u64) as usize]);
            if rng.next().is_multiple_of(2) {
                text.push(' ');
            }
        }
        for prev in [None, Some(&previous)] {
            let turn = understand(prev, &shown, &text, "Quinn");
            assert!(!reply_text(&turn, "Quinn").is_empty());
            assert_eq!(
                turn,
                understand(prev, &shown, &text, "Quinn"),
                "deterministic for {text:?}"
            );
        }
    }
    let long: String = "not \"by $".repeat(200);
    let _ = understand(Some(&previous), &shown, &long, "");
}
