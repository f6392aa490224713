//! RecommendBooks: the books that answer a query in a conversation. The request is the
//! conversation's when the query is its last one, else the query understood afresh;
//! candidates come from catalog's search (or the index alone when catalog is late), the
//! ranking orders them; books the conversation showed before and books the reader bought
//! are left out. The answer is stored as the conversation's bot message, and its books
//! become what the conversation showed last ("not that one", "the second").

use std::collections::{HashMap, HashSet};

use chrono::Utc;
use diesel_async::AsyncConnection;
use diesel_async::scoped_futures::ScopedFutureExt;
use quire_kit::caller::Caller;
use quire_proto::chat::v1 as pb;
use uuid::Uuid;

use crate::conversation::{self, Kind, State, StoredPick};
use crate::error::{ChatError, CommonErrors, Result};
use crate::ranking::{self, Ask, Reader};
use crate::understanding::{self, Request, Shown};
use crate::{AppState, input, reader, settings, view};

/// What the bot says of the `n` books it shows, in the platform's words ("{name} found N
/// books for you", "no 0 books for you": the spec's chat reply). `unknown` is the book a
/// "like" named that is not in the shop: with nothing shown, the reply says so and what
/// to say instead, since no book can be said to be like one Quinn does not know.
pub fn found(name: &str, n: usize, unknown: Option<&str>) -> String {
    match (n, unknown) {
        (0, Some(title)) => format!(
            "{name} does not know {title}, so cannot tell which books are like it. \
             Say what you liked about it: a genre, a mood or what it is about"
        ),
        (0, None) => "no 0 books for you".to_owned(),
        (n, _) => format!("{name} found {n} books for you"),
    }
}

pub async fn recommend(
    state: &AppState,
    caller: &Caller,
    req: pb::RecommendBooksRequest,
) -> Result<pb::RecommendBooksReply> {
    let owner = input::uid(caller, &req.uid)?;
    let id = input::conversation_id(&req.conversation_id)?;
    let query = input::utterance("query", &req.query, "query: say what to look for")?;
    let limit = input::limit(req.limit)?;

    let mut conn = quire_kit::db::conn(&state.pool).await?;
    let name = settings::assistant_name(&mut conn).await?;
    let held = conversation::find(&mut conn, &id, owner).await?;
    let request = request_for(held.as_ref(), &query, &name);
    let history = reader::history(&mut conn, owner).await?;
    drop(conn);

    // The slow parts, outside any transaction: catalog's search, the query's vector, the
    // ranking, and catalog's word on which of the ranked books are in the shop now.
    let (hits, vector) = match &request {
        Some(r) => {
            let text = ranking::query_text(r);
            tokio::join!(state.catalog.search(caller, r), state.vectors.query(&text))
        }
        None => (Vec::new(), None),
    };
    let today = Utc::now().format("%Y-%m-%d").to_string();
    let shown_before = {
        let mut conn = quire_kit::db::conn(&state.pool).await?;
        conversation::shown(&mut conn, &id).await?
    };
    // The best few first; only when catalog lists too few of them (a book that just left
    // the shop, or a broker shared by several shops) is the whole index ranked.
    let exclude = match &request {
        Some(request) => excluded(&shown_before, &narrowing(held.as_ref(), &query), request),
        None => HashSet::new(),
    };
    let rank = |most: usize| -> Result<Vec<ranking::Pick>> {
        let Some(request) = &request else {
            return Ok(Vec::new());
        };
        let ask = Ask {
            request,
            query_vector: vector.as_deref().map(Vec::as_slice),
            search_hits: &hits,
            reader: Reader {
                bought: &history.bought,
                genres_read: &history.genres_read,
            },
            exclude: &exclude,
            limit: most,
            today: &today,
        };
        let index = state
            .index
            .read()
            .map_err(|_| ChatError::internal("index lock poisoned"))?;
        // Only books still indexed, none excluded or bought (whatever the ranking does,
        // the promise holds here).
        Ok(ranking::recommend(&index, &ask)
            .into_iter()
            .filter(|p| index.get(&p.book_id).is_some())
            .filter(|p| !exclude.contains(&p.book_id))
            .filter(|p| !history.bought.contains(&p.book_id))
            .collect())
    };
    let mut candidates = rank(CONFIRM_CHUNK)?;
    let mut ranked = candidates.len();
    let mut known = Confirmed::default();
    let mut answered = confirm(state, caller, &mut candidates, limit, &mut known).await;
    if answered && candidates.len() < limit * 2 && ranked == CONFIRM_CHUNK {
        // The first chunk's books are not asked about again.
        candidates = rank(MAX_CANDIDATES)?;
        ranked = candidates.len();
        answered = confirm(state, caller, &mut candidates, limit, &mut known).await;
    }
    let listed = answered.then_some(known.listed);
    tracing::debug!(
        ranked,
        confirmed = candidates.len(),
        catalog_answered = listed.is_some(),
        hits = hits.len(),
        "recommendation candidates"
    );

    // A "like" naming a book the shop does not have.
    let unknown = match &request {
        Some(Request {
            like_title: Some(title),
            like_book: None,
            ..
        }) => {
            let index = state
                .index
                .read()
                .map_err(|_| ChatError::internal("index lock poisoned"))?;
            (!ranking::knows_title(&index, title)).then(|| title.clone())
        }
        _ => None,
    };
    let mut conn = quire_kit::db::conn(&state.pool).await?;
    let (picks, bot) = conn
        .transaction::<_, ChatError, _>(|conn| {
            let id = id.clone();
            async move {
                let held = conversation::lock_or_start(conn, &id, owner).await?;
                // A turn that ran meanwhile may have shown some of them.
                let shown_now = conversation::shown(conn, &id).await?;
                let exclude = match &request {
                    Some(request) => excluded(&shown_now, &narrowing(Some(&held), &query), request),
                    None => shown_now,
                };
                let mut picks: Vec<_> = candidates
                    .into_iter()
                    .filter(|p| !exclude.contains(&p.book_id))
                    .take(limit)
                    .collect();
                // The ranking chose them (fit, popularity, history, variety); the reader
                // sees the best fit first.
                picks.sort_by_key(|p| std::cmp::Reverse(p.match_percentage));
                let shown: Vec<Shown> = {
                    let index = state
                        .index
                        .read()
                        .map_err(|_| ChatError::internal("index lock poisoned"))?;
                    picks
                        .iter()
                        .filter_map(|p| index.get(&p.book_id))
                        .map(|d| Shown {
                            id: d.book_id.clone(),
                            title: d.title.clone(),
                            price_cents: u32::try_from(d.price_cents).ok(),
                            pages: (d.pages > 0).then_some(d.pages),
                        })
                        .collect()
                };
                let stored: Vec<StoredPick> = picks
                    .iter()
                    .map(|p| StoredPick {
                        book_id: p.book_id.clone(),
                        match_percentage: p.match_percentage.min(100),
                        reason: p.reason.clone(),
                    })
                    .collect();
                let now = Utc::now();
                let bot = conversation::add_message(
                    conn,
                    &id,
                    Kind::Bot,
                    &found(&name, stored.len(), unknown.as_deref()),
                    &stored,
                    now,
                )
                .await?;
                let ids: Vec<Uuid> = stored
                    .iter()
                    .filter_map(|p| Uuid::parse_str(&p.book_id).ok())
                    .collect();
                conversation::mark_shown(conn, &id, &ids).await?;
                let next = State {
                    last_shown: if shown.is_empty() {
                        held.last_shown.clone()
                    } else {
                        shown
                    },
                    // The narrowing is answered: asked again, the query gets new books.
                    refines: false,
                    ..held
                };
                conversation::save(conn, &id, &next, now).await?;
                Ok((stored, bot))
            }
            .scope_boxed()
        })
        .await?;

    // Catalog's own view of each book when it answered (fresh, and marked for the
    // caller), else the index's copy.
    let cards = match listed {
        Some(listed) => listed,
        None => {
            let mut conn = quire_kit::db::conn(&state.pool).await?;
            let wanted: Vec<&StoredPick> = picks.iter().collect();
            view::cards(state, &mut conn, &wanted).await?
        }
    };
    let books = view::recommended(&cards, &picks);
    Ok(pb::RecommendBooksReply {
        reply_user: bot.content.clone(),
        bot_message: Some(view::message(&bot, books.clone())),
        books,
    })
}

/// Most candidates ranked: the best of them that catalog lists are the answer (in
/// production the first chunk nearly always holds them; a broker shared by several shops
/// puts other shops' books in between).
const MAX_CANDIDATES: usize = 2000;
/// Ids catalog is asked about at once (its limit is 100).
const CONFIRM_CHUNK: usize = 100;

/// What catalog said of the candidates so far: the books it lists (as it shows them to
/// the caller), and every id it was asked about.
#[derive(Default)]
struct Confirmed {
    listed: HashMap<String, quire_proto::catalog::v1::Book>,
    asked: HashSet<String>,
}

/// Keeps the candidates catalog lists now, best first, asking about them a chunk at a time
/// until twice `limit` are confirmed (some may be shown meanwhile by another turn): the
/// index is a copy fed by events, so a book may have left the shop a moment ago (and a
/// broker shared by several shops, as in development, carries other shops' books). Ids in
/// `known` are not asked about again. False, and every candidate kept, when catalog did
/// not answer.
async fn confirm(
    state: &AppState,
    caller: &Caller,
    candidates: &mut Vec<ranking::Pick>,
    limit: usize,
    known: &mut Confirmed,
) -> bool {
    let (mut seen, mut confirmed) = (0, 0);
    while seen < candidates.len() && confirmed < limit * 2 {
        let end = (seen + CONFIRM_CHUNK).min(candidates.len());
        let chunk = &candidates[seen..end];
        let ids: Vec<String> = chunk
            .iter()
            .filter(|p| !known.asked.contains(&p.book_id))
            .map(|p| p.book_id.clone())
            .collect();
        if !ids.is_empty() {
            let Some(listed) = state.catalog.listed(caller, &ids).await else {
                return false;
            };
            known.listed.extend(listed);
            known.asked.extend(ids);
        }
        confirmed += chunk
            .iter()
            .filter(|p| known.listed.contains_key(&p.book_id))
            .count();
        seen = end;
    }
    candidates.truncate(seen);
    candidates.retain(|p| known.listed.contains_key(&p.book_id));
    true
}

/// The books a recommendation leaves out: those the reader turned down, and those the
/// conversation showed before except `narrowing` ([`narrowing`]).
fn excluded(
    shown: &HashSet<String>,
    narrowing: &HashSet<String>,
    request: &Request,
) -> HashSet<String> {
    shown
        .difference(narrowing)
        .cloned()
        .chain(request.exclude_books.iter().cloned())
        .collect()
}

/// While the reader narrows the last list ("only mysteries", "shorter", "not that one"),
/// the books of that list may come again: a narrowing asks for the ones among them that
/// still fit. Any other request gets books the conversation has not shown.
fn narrowing(held: Option<&State>, query: &str) -> HashSet<String> {
    match held {
        Some(state) if state.refines && state.query.as_deref() == Some(query) => {
            state.last_shown.iter().map(|s| s.id.clone()).collect()
        }
        _ => HashSet::new(),
    }
}

/// The request a query asks: the conversation's when the query is its last one, else the
/// query understood on its own (`None` when it asks for nothing).
fn request_for(held: Option<&State>, query: &str, name: &str) -> Option<Request> {
    if let Some(state) = held
        && state.query.as_deref() == Some(query)
        && let Some(request) = &state.request
    {
        return Some(request.clone());
    }
    let turn = understanding::understand(None, &[], query, name);
    turn.request.filter(|r| r.has_subject() || !r.is_empty())
}
