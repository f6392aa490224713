//! The words of a reply. Quinn introduces itself by the name it is given (a setting) and
//! asks at most one question a turn.

use super::moods::mood;
use super::request::{Audience, Length, Request};
use super::social::Social;
use super::turn::{Question, Reply, Turn};

/// What the assistant called `name` says for `turn`.
pub fn reply_text(turn: &Turn, name: &str) -> String {
    match turn.reply {
        Reply::Social(Social::Greeting) => format!(
            "Hi, I'm {name}! Tell me what you feel like reading: a mood, a genre, an author or a book you loved."
        ),
        Reply::Social(Social::Help) => format!(
            "I'm {name}, and I find books for you. Tell me how you feel (\"something cosy\", \"I need a thrill\"), \
             a genre, an author (\"by ...\"), a book you loved (\"books like ...\") or limits such as \"under $5\", \
             \"short\" or \"not romance\". Then narrow it down: \"shorter\", \"cheaper\", \"not that one\", \"more like the second\"."
        ),
        Reply::Social(Social::Thanks) => {
            format!("You're welcome! {name} is here whenever you want something new to read.")
        }
        Reply::Social(Social::Goodbye) => {
            format!("Happy reading! {name} will be here when you need the next book.")
        }
        Reply::Search => {
            let what = turn.request.as_ref().map(describe).unwrap_or_default();
            format!("{name} here: let me find {what}.")
        }
        Reply::Clarify(question) => ask(question, turn.request.as_ref(), name),
    }
}

fn ask(question: Question, request: Option<&Request>, name: &str) -> String {
    match question {
        Question::WhatKind => format!(
            "I'm {name}. What are you in the mood for: a genre, an author, or a feeling like cosy or thrilling?"
        ),
        Question::WhatKindWithin => {
            let within = request.map(constraints).unwrap_or_default();
            format!(
                "Happy to look{within}. What kind of book would you like: a genre, an author or a mood?"
            )
        }
        Question::NothingToRefine => {
            "There is nothing to change yet. What would you like to read?".to_string()
        }
        Question::NoSuchBook(index) => format!(
            "I didn't show a book number {}. Which one do you mean?",
            index.saturating_add(1)
        ),
    }
}

/// "cosy mystery books by Agatha Christie under $5.00, short".
fn describe(request: &Request) -> String {
    let mut words: Vec<String> = request
        .moods
        .iter()
        .filter_map(|id| mood(id))
        .map(|m| m.id.to_string())
        .collect();
    words.extend(request.genres.iter().map(|g| g.to_lowercase()));
    words.push("books".to_string());
    let mut text = words.join(" ");
    match request.audience {
        Some(Audience::Children) => text.push_str(" for children"),
        Some(Audience::YoungAdult) => text.push_str(" for young adults"),
        None => {}
    }
    if !request.keywords.is_empty() {
        text.push_str(&format!(" about {}", request.keywords.join(", ")));
    }
    if let Some(author) = &request.author {
        text.push_str(&format!(" by {author}"));
    }
    if let Some(title) = &request.title {
        text = format!("\"{title}\"");
    }
    if let Some(like) = &request.like_title {
        text.push_str(&format!(" like \"{like}\""));
    }
    text.push_str(&constraints(request));
    text
}

fn constraints(request: &Request) -> String {
    let mut parts = Vec::new();
    match (request.min_price_cents, request.max_price_cents) {
        (_, Some(0)) => parts.push("free".to_string()),
        (Some(min), Some(max)) => {
            parts.push(format!("between {} and {}", dollars(min), dollars(max)))
        }
        (None, Some(max)) => parts.push(format!("up to {}", dollars(max))),
        (Some(min), None) => parts.push(format!("from {}", dollars(min))),
        (None, None) => {}
    }
    match request.length {
        Some(Length::Short) => parts.push("short".to_string()),
        Some(Length::Long) => parts.push("long".to_string()),
        None => {}
    }
    if request.recent {
        parts.push("new".to_string());
    }
    if !request.exclude_genres.is_empty() {
        parts.push(format!(
            "no {}",
            request.exclude_genres.join(" or ").to_lowercase()
        ));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(", {}", parts.join(", "))
    }
}

fn dollars(cents: u32) -> String {
    format!("${}.{:02}", cents / 100, cents % 100)
}

#[cfg(test)]
mod tests {
    use super::super::turn::understand;
    use super::*;

    #[test]
    fn replies_use_the_given_name() {
        let hi = understand(None, &[], "hello", "Ada");
        assert!(reply_text(&hi, "Ada").starts_with("Hi, I'm Ada!"));
        let search = understand(None, &[], "a cosy mystery under $5", "Quinn");
        assert_eq!(
            reply_text(&search, "Quinn"),
            "Quinn here: let me find cosy mystery books, up to $5.00."
        );
        let ask = understand(None, &[], "I want a book", "Quinn");
        assert!(reply_text(&ask, "Quinn").ends_with('?'));
    }
}
