//! The journeys of the smoke test, each the calls the web app makes for it: a visitor
//! browses (home list, a book's page), a reader searches, talks to Quinn (one turn, and
//! the recommendation that follows when Quinn has a query), buys a book (recharging the
//! price first with the local stack's instant provider, as the e2e's recharge page does)
//! and reads it, and a writer uploads a small manuscript and finds it analysed.
//!
//! Every step is timed from the end of the one before, and the first from the journey's
//! scheduled start (so a late start, or a wait for a connection, counts); a failed step
//! ends its journey.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::future::Future;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use rand::Rng;
use rand::seq::SliceRandom;
use serde_json::{Value, json};
use tokio::time::Instant;

use super::api::{Api, Call, CallError, multipart};
use super::setup::{Book, User};
use super::stats::Stats;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Browse,
    Search,
    Chat,
    Buy,
    Upload,
}

impl Kind {
    pub const ALL: [Kind; 5] = [
        Kind::Browse,
        Kind::Search,
        Kind::Chat,
        Kind::Buy,
        Kind::Upload,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Browse => "browse",
            Kind::Search => "search",
            Kind::Chat => "chat",
            Kind::Buy => "buy",
            Kind::Upload => "upload",
        }
    }
}

/// How often each journey is picked: weights, e.g. `browse=40,search=20,...`.
#[derive(Clone, Debug)]
pub struct Mix(Vec<(Kind, u32)>);

impl Mix {
    pub fn parse(text: &str) -> anyhow::Result<Self> {
        let mut mix = Vec::new();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (name, weight) = part
                .split_once('=')
                .ok_or_else(|| anyhow::anyhow!("mix: \"{part}\" is not name=weight"))?;
            let kind = Kind::ALL
                .into_iter()
                .find(|k| k.name() == name.trim())
                .ok_or_else(|| {
                    anyhow::anyhow!(
                        "mix: unknown journey \"{name}\" (browse, search, chat, buy, upload)"
                    )
                })?;
            let weight: u32 = weight
                .trim()
                .parse()
                .map_err(|_| anyhow::anyhow!("mix: the weight of {name} is not a whole number"))?;
            mix.push((kind, weight));
        }
        if mix.iter().map(|(_, w)| w).sum::<u32>() == 0 {
            anyhow::bail!("mix: no journey has a weight above 0");
        }
        Ok(Self(mix))
    }

    pub fn share(&self, kind: Kind) -> f64 {
        let total: u32 = self.0.iter().map(|(_, w)| w).sum();
        let w: u32 = self
            .0
            .iter()
            .filter(|(k, _)| *k == kind)
            .map(|(_, w)| w)
            .sum();
        f64::from(w) / f64::from(total)
    }

    pub fn pick(&self, rng: &mut impl Rng) -> Kind {
        let total: u32 = self.0.iter().map(|(_, w)| w).sum();
        let mut at = rng.gen_range(0..total);
        for (kind, w) in &self.0 {
            if at < *w {
                return *kind;
            }
            at -= w;
        }
        unreachable!("a pick below the total weight falls in one journey")
    }
}

/// What the journeys share: the users made before the run and the shop's books.
pub struct World {
    pub api: Api,
    pub stats: Stats,
    pub readers: Vec<User>,
    pub writers: Vec<User>,
    pub books: Vec<Book>,
    pub priced: Vec<Book>,
    /// Words of the shop's titles, for searches.
    pub words: Vec<String>,
    /// (reader, priced book) pairs bought in this run: a buy picks a new pair when it can.
    pub bought: Mutex<HashSet<(usize, usize)>>,
    /// Chat turns go to the readers in turn: the gateway limits each user's chat calls
    /// per minute, and a random pick crowds some readers past it.
    pub next_chatter: AtomicUsize,
}

/// Times a journey's steps into the world's statistics.
struct Clock<'a> {
    stats: &'a Stats,
    kind: Kind,
    due: Instant,
    last: Instant,
}

impl Clock<'_> {
    /// Awaits one step; its time (or its error) goes under `step`.
    async fn step<T>(
        &mut self,
        step: &str,
        call: impl Future<Output = Result<T, CallError>>,
    ) -> Option<T> {
        let result = call.await;
        let now = Instant::now();
        match result {
            Ok(v) => {
                self.stats.ok(step, now - self.last);
                self.last = now;
                Some(v)
            }
            Err(e) => {
                self.stats.error(step, e.to_string());
                self.stats.error(
                    &format!("journey: {}", self.kind.name()),
                    format!("{step}: {e}"),
                );
                None
            }
        }
    }

    fn done(self) {
        self.stats.ok(
            &format!("journey: {}", self.kind.name()),
            Instant::now() - self.due,
        );
    }
}

/// Runs journey `kind`, due at `due`.
pub async fn run(world: &World, kind: Kind, due: Instant) {
    let mut clock = Clock {
        stats: &world.stats,
        kind,
        due,
        last: due,
    };
    let finished = match kind {
        Kind::Browse => browse(world, &mut clock).await,
        Kind::Search => search(world, &mut clock).await,
        Kind::Chat => chat(world, &mut clock).await,
        Kind::Buy => buy(world, &mut clock).await,
        Kind::Upload => upload(world, &mut clock).await,
    };
    if finished.is_some() {
        clock.done();
    }
}

fn list<'v>(call: &str, data: &'v Value, field: Option<&str>) -> Result<&'v Vec<Value>, CallError> {
    let v = field.map_or(data, |f| &data[f]);
    v.as_array()
        .ok_or_else(|| CallError::body(call, format!("no list in {}", short(data))))
}

fn short(v: &Value) -> String {
    v.to_string().chars().take(200).collect()
}

/// A visitor (no token): the home page's list, then one of its books' page and chapters.
async fn browse(world: &World, clock: &mut Clock<'_>) -> Option<()> {
    let api = &world.api;
    let id = clock
        .step("browse: home list", async {
            let data = api
                .call(
                    Call::post("/get_all_books/")
                        .form(vec![("page", "1".into()), ("page_size", "10".into())]),
                )
                .await?;
            let books = list("POST /api/get_all_books/", &data, Some("result"))?;
            let pick = books
                .choose(&mut rand::thread_rng())
                .and_then(|b| b["id"].as_str())
                .ok_or_else(|| CallError::body("POST /api/get_all_books/", "an empty shop"))?;
            Ok(pick.to_owned())
        })
        .await?;
    clock
        .step("browse: book page", async {
            let data = api
                .call(Call::get("/get_books").query("book_id", &id))
                .await?;
            let found = list("GET /api/get_books", &data, None)?;
            match found.first() {
                Some(b) if b["id"] == id.as_str() => Ok(()),
                _ => Err(CallError::body(
                    "GET /api/get_books",
                    format!("not book {id}: {}", short(&data)),
                )),
            }
        })
        .await?;
    clock
        .step("browse: book toc", async {
            let data = api.call(Call::get(format!("/books/{id}/toc"))).await?;
            list("GET /api/books/{id}/toc", &data, None).map(|_| ())
        })
        .await
}

/// A signed-in reader searches the shop for a word of one of its titles.
async fn search(world: &World, clock: &mut Clock<'_>) -> Option<()> {
    let (reader, query) = {
        let mut rng = rand::thread_rng();
        (
            world.readers.choose(&mut rng)?,
            world
                .words
                .choose(&mut rng)
                .cloned()
                .unwrap_or_else(|| "the".into()),
        )
    };
    clock
        .step("search", async {
            let data = world
                .api
                .call(
                    Call::post("/search")
                        .token(&reader.token)
                        .json(json!({"query": query, "page": 1, "page_size": 10})),
                )
                .await?;
            list("POST /api/search", &data, Some("result")).map(|_| ())
        })
        .await
}

const ASKS: [&str; 8] = [
    "I would like a mystery set by the sea",
    "something funny and short for a train ride",
    "a classic adventure with ships and islands",
    "a ghost story for a winter night",
    "books about letters and love",
    "a detective story in London",
    "science fiction about the future of machines",
    "a gentle book about gardens and the countryside",
];

/// One turn with Quinn in a new conversation, and the recommendation it leads to.
async fn chat(world: &World, clock: &mut Clock<'_>) -> Option<()> {
    let turn = world.next_chatter.fetch_add(1, Ordering::Relaxed);
    let reader = world.readers.get(turn % world.readers.len().max(1))?;
    let ask = *ASKS.choose(&mut rand::thread_rng())?;
    let conversation = uuid::Uuid::new_v4().simple().to_string();
    let api = &world.api;
    let query = clock
        .step("chat: turn", async {
            let data = api
                .call(Call::post("/chat").token(&reader.token).json(json!({
                    "current_input": ask, "conversation_id": conversation, "uid": reader.uid,
                })))
                .await?;
            if data["reply_user"].as_str().is_none_or(str::is_empty) {
                return Err(CallError::body(
                    "POST /api/chat",
                    format!("no reply: {}", short(&data)),
                ));
            }
            Ok(data["query"].as_str().map(str::to_owned))
        })
        .await?;
    let Some(query) = query.filter(|q| !q.trim().is_empty()) else {
        return Some(());
    };
    clock
        .step("chat: recbooks", async {
            let data = api
                .call(Call::post("/recbooks").token(&reader.token).json(json!({
                    "conversation_id": conversation, "uid": reader.uid, "query": query, "limit": 5,
                })))
                .await?;
            list("POST /api/recbooks", &data, None).map(|_| ())
        })
        .await
}

/// A reader recharges the price, buys a book, opens it whole and keeps their place.
async fn buy(world: &World, clock: &mut Clock<'_>) -> Option<()> {
    let (r, b) = pick_purchase(world);
    let (reader, book) = (world.readers.get(r)?, world.priced.get(b)?);
    let api = &world.api;
    clock
        .step("buy: recharge", async {
            let data = api
                .call(
                    Call::post("/wallet/recharge")
                        .token(&reader.token)
                        .idempotent()
                        .json(json!({"amount": book.price})),
                )
                .await?;
            if data["wallet"].is_object() {
                Ok(())
            } else {
                Err(CallError::body(
                    "POST /api/wallet/recharge",
                    format!("no wallet: {}", short(&data)),
                ))
            }
        })
        .await?;
    clock
        .step("buy: trade", async {
            let data = api
                .call(
                    Call::get("/trade")
                        .token(&reader.token)
                        .idempotent()
                        .query("buyer_uid", &reader.uid)
                        .query("book_id", &book.id),
                )
                .await?;
            if data["book_id"] == book.id.as_str() {
                Ok(())
            } else {
                Err(CallError::body(
                    "GET /api/trade",
                    format!("not a trade of {}: {}", book.id, short(&data)),
                ))
            }
        })
        .await?;
    clock
        .step("read: toc", async {
            let data = api
                .call(Call::get(format!("/books/{}/toc", book.id)).token(&reader.token))
                .await?;
            list("GET /api/books/{id}/toc", &data, None).map(|_| ())
        })
        .await?;
    clock
        .step("read: content", async {
            let reply = api
                .send(Call::get(format!("/books/{}/content", book.id)).token(&reader.token))
                .await?;
            let access = reply
                .headers
                .get("x-quire-access")
                .and_then(|v| v.to_str().ok())
                .unwrap_or("");
            if access != "full" || reply.bytes.is_empty() {
                return Err(CallError::body(
                    "GET /api/books/{id}/content",
                    format!(
                        "a bought book ({}, \"{}\") opened with access \"{access}\" and {} bytes",
                        book.id,
                        book.title,
                        reply.bytes.len()
                    ),
                ));
            }
            Ok(())
        })
        .await?;
    clock
        .step("read: progress", async {
            api.call(
                Call::put(format!("/books/{}/progress", book.id))
                    .token(&reader.token)
                    .json(json!({"position": "offset=0", "percent": 1.0})),
            )
            .await
            .map(|_| ())
        })
        .await
}

/// A reader and a priced book they have not bought in this run, when one is left.
fn pick_purchase(world: &World) -> (usize, usize) {
    let mut rng = rand::thread_rng();
    let mut bought = world.bought.lock().unwrap_or_else(|p| p.into_inner());
    let mut pair = (0, 0);
    for _ in 0..20 {
        pair = (
            rng.gen_range(0..world.readers.len().max(1)),
            rng.gen_range(0..world.priced.len().max(1)),
        );
        if bought.insert(pair) {
            break;
        }
    }
    pair
}

/// A writer uploads a short novel of their own (a text file) and opens its analysis.
async fn upload(world: &World, clock: &mut Clock<'_>) -> Option<()> {
    let writer = world.writers.choose(&mut rand::thread_rng())?;
    let tag = uuid::Uuid::new_v4().simple().to_string();
    let text = novel(&tag);
    let file_name = format!("smoke-{}.txt", &tag[..12]);
    let api = &world.api;
    let manuscript = clock
        .step("upload: publish", async {
            let body = multipart(
                &[("language", "english"), ("uid", &writer.uid)],
                ("files", &file_name, "text/plain", text.as_bytes()),
            )
            .map_err(|e| CallError::body("POST /api/publish_entry", e.to_string()))?;
            let data = api
                .call(Call::post("/publish_entry").token(&writer.token).body(body))
                .await?;
            let id = data["manuscript_id"].as_str().unwrap_or_default();
            let analysed = data["analyze_dict"]["short_summary"]
                .as_str()
                .is_some_and(|s| !s.trim().is_empty());
            if id.is_empty() || data["book_id"].as_str().is_none_or(str::is_empty) || !analysed {
                return Err(CallError::body(
                    "POST /api/publish_entry",
                    format!("no manuscript, book or summary: {}", short(&data)),
                ));
            }
            Ok(id.to_owned())
        })
        .await?;
    clock
        .step("upload: manuscript", async {
            let data = api
                .call(Call::get(format!("/manuscripts/{manuscript}")).token(&writer.token))
                .await?;
            if data["manuscript_id"] == manuscript.as_str() {
                Ok(())
            } else {
                Err(CallError::body(
                    "GET /api/manuscripts/{id}",
                    format!("not {manuscript}: {}", short(&data)),
                ))
            }
        })
        .await
}

/// A short novel of three chapters whose heroine's name and sentences are drawn at
/// random, so that no two uploads are near copies (the service refuses those).
pub fn novel(tag: &str) -> String {
    const START: [&str; 8] = ["Ma", "Lo", "Ter", "Vi", "Sa", "Bre", "No", "Ka"];
    const END: [&str; 8] = ["rin", "vel", "sa", "dor", "lie", "mond", "ra", "wen"];
    const VERB: [&str; 10] = [
        "watched", "counted", "mended", "painted", "carried", "studied", "folded", "weighed",
        "hid", "polished",
    ];
    const THING: [&str; 10] = [
        "the old map",
        "the brass key",
        "a bundle of letters",
        "the garden gate",
        "the lantern",
        "a green notebook",
        "the clock",
        "the fishing net",
        "a blue jar",
        "the ledger",
    ];
    const PLACE: [&str; 10] = [
        "by the mill",
        "in the attic",
        "near the bridge",
        "under the pear tree",
        "at the station",
        "beside the canal",
        "in the bakery",
        "on the hill road",
        "behind the school",
        "at the market",
    ];
    let mut rng = rand::thread_rng();
    let mut pick = |list: &[&'static str]| list[rng.gen_range(0..list.len())];
    let hero = format!(
        "{}{} {}{}",
        pick(&START),
        pick(&END),
        pick(&START),
        pick(&END)
    );
    let mut text = format!("The Quiet Season of {hero} ({tag})\n\n");
    for (c, title) in ["The Map", "The Bridge", "The Letter"].iter().enumerate() {
        let _ = write!(text, "Chapter {}: {title}\n\n", c + 1);
        for _ in 0..10 {
            for _ in 0..6 {
                let n = rng.gen_range(2..99);
                let _ = write!(
                    text,
                    "{hero} {} {} {} on day {n}. ",
                    VERB[rng.gen_range(0..VERB.len())],
                    THING[rng.gen_range(0..THING.len())],
                    PLACE[rng.gen_range(0..PLACE.len())],
                );
            }
            text.push_str("\n\n");
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mix_picks_journeys_by_weight_and_names_a_bad_one() {
        let mix = Mix::parse("browse=3, chat=1").unwrap();
        assert_eq!(mix.share(Kind::Browse), 0.75);
        assert_eq!(mix.share(Kind::Upload), 0.0);
        let mut rng = rand::thread_rng();
        let browses = (0..4000)
            .filter(|_| mix.pick(&mut rng) == Kind::Browse)
            .count();
        assert!((2800..3200).contains(&browses), "{browses} of 4000");
        assert!(
            Mix::parse("read=1")
                .unwrap_err()
                .to_string()
                .contains("unknown journey")
        );
        assert!(Mix::parse("browse=0").is_err());
    }

    #[test]
    fn every_novel_is_its_own() {
        let (a, b) = (novel("a"), novel("b"));
        assert_ne!(a, b);
        assert!(a.contains("Chapter 3: The Letter"));
        assert!(a.len() > 4000, "{} bytes", a.len());
    }
}
