//! One turn of the conversation: what the utterance is, the request it leaves, and the
//! reply it gets. Follow-ups merge into the last request: lists grow, bounds are replaced,
//! an exclusion removes what it excludes, and "instead" swaps the subject but keeps the
//! constraints. A follow-up is an utterance with a follow-up change or a narrowing cue
//! ("only", "but", "also"), or one that names no new subject (genre, mood, author or
//! title: "under $5", "set in winter"); after a request that had no subject yet, anything
//! completes it.

use serde::{Deserialize, Serialize};

use super::refine::{self, Change};
use super::request::{Length, Request, Shown, push_unique};
use super::social::{self, Social};
use super::{age, filters, keywords, names, negation, phrases, price, text, topics, typos};

/// What the utterance was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Intent {
    Greeting,
    Help,
    Thanks,
    Goodbye,
    /// A new request.
    Search,
    /// A change to the last request.
    Refine,
    /// Nothing understood, or a request without enough to search.
    Unclear,
}

/// The one question asked when there is not enough to search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Question {
    /// Nothing to go on: what would they like?
    WhatKind,
    /// Only constraints (a price, a length): what kind of book within them?
    WhatKindWithin,
    /// A follow-up with nothing before it to change.
    NothingToRefine,
    /// A book by its place in a list that has no such place (zero-based index).
    NoSuchBook(usize),
}

/// The kind of reply; [`super::reply_text`] words it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reply {
    Social(Social),
    /// Here is what I am looking for (the turn has a query).
    Search,
    Clarify(Question),
}

/// The outcome of one utterance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    pub intent: Intent,
    pub reply: Reply,
    /// The conversation's request after this turn (the last one, unchanged, after a
    /// social turn); `None` while nothing was asked.
    pub request: Option<Request>,
    /// The words for catalog search, when the reply is [`Reply::Search`].
    pub query: Option<String>,
}

/// Understands `utterance` after `previous` (the conversation's request so far) and
/// `shown` (the books last shown, in order). `name` is the assistant's name, so "hi
/// Quinn" greets rather than asks for books about Quinn. Never panics; the same inputs
/// always give the same turn.
pub fn understand(
    previous: Option<&Request>,
    shown: &[Shown],
    utterance: &str,
    name: &str,
) -> Turn {
    let mut tokens = text::tokenize(utterance);
    let follow = refine::parse(&mut tokens);
    let mut said = Request::default();
    names::parse(&mut tokens, &mut said);
    price::parse(&mut tokens, &mut said);
    typos::correct(&mut tokens);
    negation::mark(&mut tokens);
    age::parse(&mut tokens, &mut said);
    filters::parse(&mut tokens, &mut said);
    phrases::parse(&mut tokens, &mut said);
    topics::parse(&mut tokens, &mut said);
    let social = social::parse(&mut tokens);
    keywords::parse(&mut tokens, &mut said, name);

    // "hi Quinn" or "thanks, lovely": social, even with a stray word left over.
    if let Some(kind) = social
        && follow.changes.is_empty()
        && said.keywords.len() <= 1
        && (Request {
            keywords: Vec::new(),
            ..said.clone()
        })
        .is_empty()
    {
        let intent = match kind {
            Social::Greeting => Intent::Greeting,
            Social::Help => Intent::Help,
            Social::Thanks => Intent::Thanks,
            Social::Goodbye => Intent::Goodbye,
        };
        return Turn {
            intent,
            reply: Reply::Social(kind),
            request: previous.cloned(),
            query: None,
        };
    }

    let about_shown = follow.changes.iter().find_map(|c| match c {
        Change::Exclude(i) | Change::MoreLike(i) => Some(*i),
        _ => None,
    });
    if let Some(index) = about_shown {
        if previous.is_none() || shown.is_empty() {
            return clarify(Question::NothingToRefine, previous.cloned());
        }
        if refine::resolve(index, shown).is_none() {
            return clarify(Question::NoSuchBook(index), previous.cloned());
        }
    }

    if previous.is_none() && said.is_empty() && !follow.changes.is_empty() {
        return clarify(Question::NothingToRefine, None);
    }
    let new_subject = said.genres.len() + said.moods.len() > 0
        || said.author.is_some()
        || said.title.is_some()
        || said.like_title.is_some();
    let follows_up = match previous {
        None => false,
        Some(last) => {
            !follow.changes.is_empty() || follow.narrows || !new_subject || !last.has_subject()
        }
    };
    let mut request = match previous.filter(|_| follows_up) {
        Some(last) => merge(last, said, follow.changes.contains(&Change::Instead)),
        None => absolute(said, &follow.changes),
    };
    if follows_up {
        for change in &follow.changes {
            let change = match *change {
                Change::Exclude(i) => Change::Exclude(refine::resolve(i, shown).unwrap_or(i)),
                Change::MoreLike(i) => Change::MoreLike(refine::resolve(i, shown).unwrap_or(i)),
                other => other,
            };
            refine::apply(change, &mut request, shown);
        }
    }
    let intent = if follows_up {
        Intent::Refine
    } else {
        Intent::Search
    };

    if request.is_empty() {
        let question = if follow.changes.is_empty() {
            Question::WhatKind
        } else {
            Question::NothingToRefine
        };
        return clarify(question, previous.cloned());
    }
    if !request.has_subject() {
        return Turn {
            intent: Intent::Unclear,
            reply: Reply::Clarify(Question::WhatKindWithin),
            request: Some(request),
            query: None,
        };
    }
    let query = Some(request.query_string());
    Turn {
        intent,
        reply: Reply::Search,
        request: Some(request),
        query,
    }
}

fn clarify(question: Question, request: Option<Request>) -> Turn {
    Turn {
        intent: Intent::Unclear,
        reply: Reply::Clarify(question),
        request,
        query: None,
    }
}

/// A first request's comparatives, with nothing to compare to: "something shorter" is
/// short, "cheaper" cheap, "newer" recent.
fn absolute(mut said: Request, changes: &[Change]) -> Request {
    for change in changes {
        match change {
            Change::Shorter => said.length = Some(Length::Short),
            Change::Longer => said.length = Some(Length::Long),
            Change::Cheaper => {
                said.max_price_cents = said.max_price_cents.or(Some(price::CHEAP_CENTS))
            }
            Change::Newer => said.recent = true,
            Change::Exclude(_) | Change::MoreLike(_) | Change::Instead => {}
        }
    }
    said
}

/// `last` changed by what was `said` now.
fn merge(last: &Request, said: Request, instead: bool) -> Request {
    let mut merged = last.clone();
    if instead {
        merged.keywords.clear();
        merged.genres.clear();
        merged.moods.clear();
        merged.author = None;
        merged.title = None;
        merged.like_title = None;
        merged.like_book = None;
    }
    let lists = [
        (&mut merged.keywords, &said.keywords),
        (&mut merged.genres, &said.genres),
        (&mut merged.moods, &said.moods),
        (&mut merged.exclude_genres, &said.exclude_genres),
        (&mut merged.exclude_moods, &said.exclude_moods),
        (&mut merged.exclude_keywords, &said.exclude_keywords),
        (&mut merged.exclude_books, &said.exclude_books),
    ];
    for (into, from) in lists {
        for item in from {
            push_unique(into, item);
        }
    }
    // What is said now wins over what was said before, both ways.
    merged.genres.retain(|g| !said.exclude_genres.contains(g));
    merged.moods.retain(|m| !said.exclude_moods.contains(m));
    merged
        .keywords
        .retain(|k| !said.exclude_keywords.contains(k));
    merged.exclude_genres.retain(|g| !said.genres.contains(g));
    merged.exclude_moods.retain(|m| !said.moods.contains(m));
    merged
        .exclude_keywords
        .retain(|k| !said.keywords.contains(k));

    let replace = |into: &mut Option<String>, from: Option<String>| {
        if from.is_some() {
            *into = from;
        }
    };
    replace(&mut merged.author, said.author);
    replace(&mut merged.title, said.title);
    replace(&mut merged.like_title, said.like_title);
    if said.max_price_cents.is_some() || said.min_price_cents.is_some() {
        merged.max_price_cents = said.max_price_cents;
        merged.min_price_cents = said.min_price_cents;
    }
    if said.length.is_some() {
        merged.length = said.length;
        merged.max_pages = None;
        merged.min_pages = None;
    }
    merged.max_pages = said.max_pages.or(merged.max_pages);
    merged.min_pages = said.min_pages.or(merged.min_pages);
    merged.recent |= said.recent;
    if said.audience.is_some() {
        merged.audience = said.audience;
    }
    if let Some(audience) = merged.audience
        && merged.exclude_genres.iter().any(|g| g == audience.genre())
    {
        merged.audience = None;
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(previous: &str, now: &str) -> Turn {
        let first = understand(None, &[], previous, "Quinn");
        understand(first.request.as_ref(), &[], now, "Quinn")
    }

    #[test]
    fn what_is_said_now_wins_over_what_was_said_before() {
        let turn = after("a mystery or a romance", "but not romance");
        let request = turn.request.unwrap();
        assert_eq!(
            (request.genres, request.exclude_genres),
            (vec!["Mystery".to_string()], vec!["Romance".to_string()])
        );
        let turn = after("no horror", "ok, horror then");
        assert_eq!(turn.request.unwrap().genres, ["Horror"]);
    }

    #[test]
    fn instead_swaps_the_subject_and_keeps_the_constraints() {
        let request = after("a short cosy mystery under $5", "fantasy instead")
            .request
            .unwrap();
        assert_eq!(request.genres, ["Fantasy"]);
        assert!(request.moods.is_empty());
        assert_eq!(
            (request.length, request.max_price_cents),
            (Some(Length::Short), Some(500))
        );
    }

    #[test]
    fn a_new_subject_starts_a_new_request_and_a_social_turn_keeps_it() {
        let turn = after("a short mystery", "poetry");
        assert_eq!(turn.intent, Intent::Search);
        assert_eq!(
            turn.request.clone().unwrap(),
            Request {
                genres: vec!["Poetry".into()],
                ..Request::default()
            }
        );
        let thanks = understand(turn.request.as_ref(), &[], "thanks Quinn", "Quinn");
        assert_eq!(
            (thanks.intent, thanks.request),
            (Intent::Thanks, turn.request)
        );
    }

    #[test]
    fn a_shown_book_needs_a_list() {
        let turn = after("a mystery", "not that one");
        assert_eq!(turn.reply, Reply::Clarify(Question::NothingToRefine));
        assert_eq!(turn.request.unwrap().genres, ["Mystery"]);
    }
}
