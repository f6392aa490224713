//! What readers ask, for the chat bench: the labelled demo-shop requests of
//! `services/chat/data/requests.jsonl` (a conversation's turns and the demo titles that
//! answer it), the REST calls a reader's client makes for them (a chat turn, then the
//! recommendations for the query it gave; or a plain search of the same words), and
//! precision@5 of both over the set.

use std::collections::HashSet;

use serde::Deserialize;
use serde_json::{Value, json};

/// One labelled request.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    pub id: String,
    /// What the reader says, turn by turn.
    pub turns: Vec<String>,
    /// Demo-shop titles that answer it.
    pub relevant: Vec<String>,
}

/// The labelled set (every line checked: an id, at least one turn, at least one title).
pub fn labelled() -> anyhow::Result<Vec<Request>> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../services/chat/data/requests.jsonl");
    let text =
        std::fs::read_to_string(&path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let r: Request = serde_json::from_str(line)
            .map_err(|e| anyhow::anyhow!("{}:{}: {e}", path.display(), n + 1))?;
        anyhow::ensure!(
            !r.id.is_empty() && !r.turns.is_empty() && !r.relevant.is_empty(),
            "{}:{}: a request needs an id, turns and relevant titles",
            path.display(),
            n + 1
        );
        out.push(r);
    }
    Ok(out)
}

/// The signed-in reader all calls are made as.
#[derive(Clone)]
pub struct Reader {
    pub http: reqwest::Client,
    pub base: String,
    pub token: String,
    pub uid: String,
}

/// `data` of an answer in the REST envelope, or an error naming the call and the answer.
async fn data(what: &str, r: reqwest::Response) -> anyhow::Result<Value> {
    let status = r.status();
    let body: Value = r.json().await?;
    anyhow::ensure!(status.is_success(), "{what}: {status} {body}");
    Ok(body["data"].clone())
}

/// The titles of a list of books (REST book DTOs).
fn titles(books: &Value) -> Vec<String> {
    books
        .as_array()
        .map(|list| {
            list.iter()
                .filter_map(|b| b["title"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

impl Reader {
    /// One turn: `POST /api/chat`; answers the query Quinn gave, if any.
    pub async fn chat(&self, conversation: &str, input: &str) -> anyhow::Result<Option<String>> {
        let r = self
            .http
            .post(format!("{}/api/chat", self.base))
            .bearer_auth(&self.token)
            .json(
                &json!({"current_input": input, "conversation_id": conversation, "uid": self.uid}),
            )
            .send()
            .await?;
        let d = data("POST /api/chat", r).await?;
        Ok(d["query"].as_str().map(str::to_owned))
    }

    /// `POST /api/recbooks`: the titles of the books Quinn recommends, best first.
    pub async fn recommend(
        &self,
        conversation: &str,
        query: &str,
        limit: u32,
    ) -> anyhow::Result<Vec<String>> {
        let r = self
            .http
            .post(format!("{}/api/recbooks", self.base))
            .bearer_auth(&self.token)
            .json(&json!({"conversation_id": conversation, "uid": self.uid, "query": query, "limit": limit}))
            .send()
            .await?;
        Ok(titles(&data("POST /api/recbooks", r).await?))
    }

    /// A turn as the web app makes it: the chat turn, then the recommendations when Quinn
    /// gave a query. Answers the titles shown (`None` for a turn without a query, which
    /// shows no new books).
    pub async fn turn(
        &self,
        conversation: &str,
        input: &str,
        limit: u32,
    ) -> anyhow::Result<Option<Vec<String>>> {
        match self.chat(conversation, input).await? {
            Some(query) => Ok(Some(self.recommend(conversation, &query, limit).await?)),
            None => Ok(None),
        }
    }

    /// `POST /api/search` of `text`: the titles of the first `page_size` hits.
    pub async fn search(&self, text: &str, page_size: u32) -> anyhow::Result<Vec<String>> {
        let r = self
            .http
            .post(format!("{}/api/search", self.base))
            .bearer_auth(&self.token)
            .json(&json!({"query": text, "page": 1, "page_size": page_size}))
            .send()
            .await?;
        Ok(titles(&data("POST /api/search", r).await?["result"]))
    }
}

/// Relevant titles among the first five shown, over five.
fn precision_at_5(shown: &[String], relevant: &[String]) -> f64 {
    let relevant: HashSet<&str> = relevant.iter().map(String::as_str).collect();
    shown
        .iter()
        .take(5)
        .filter(|t| relevant.contains(t.as_str()))
        .count() as f64
        / 5.0
}

/// Precision@5 of one side over the labelled set.
#[derive(Clone, Debug, Default)]
pub struct Precision {
    /// Mean precision@5.
    pub mean: f64,
    /// Requests with at least one relevant book in the first five.
    pub hit: usize,
    /// Requests whose last answer showed no book at all.
    pub empty: usize,
    pub requests: usize,
    /// (id, precision@5, the first five shown) of each request.
    pub each: Vec<(String, f64, Vec<String>)>,
}

impl Precision {
    fn add(&mut self, id: &str, shown: Vec<String>, relevant: &[String]) {
        let p = precision_at_5(&shown, relevant);
        self.requests += 1;
        self.hit += usize::from(p > 0.0);
        self.empty += usize::from(shown.is_empty());
        self.mean += (p - self.mean) / self.requests as f64;
        self.each
            .push((id.to_owned(), p, shown.into_iter().take(5).collect()));
    }
}

/// Quinn: every request in a conversation of its own, each turn as the web app makes it;
/// the answer is the last books shown (a turn without a query shows none and leaves them;
/// a later turn never repeats a book the conversation showed). As the chat crate's
/// `tests/quinn_vs_search.rs` measures it.
pub async fn precision_chat(
    reader: &Reader,
    set: &[Request],
    run: &str,
) -> anyhow::Result<Precision> {
    let mut p = Precision::default();
    for (i, r) in set.iter().enumerate() {
        let conversation = format!("p{run}-{i}");
        let mut shown = Vec::new();
        for turn in &r.turns {
            if let Some(books) = reader.turn(&conversation, turn, 5).await? {
                shown = books;
            }
        }
        p.add(&r.id, shown, &r.relevant);
    }
    Ok(p)
}

/// Plain search: every turn's words together, as one search box query.
pub async fn precision_search(reader: &Reader, set: &[Request]) -> anyhow::Result<Precision> {
    let mut p = Precision::default();
    for r in set {
        let shown = reader.search(&r.turns.join(" "), 5).await?;
        p.add(&r.id, shown, &r.relevant);
    }
    Ok(p)
}

/// The turns of the load, in order: (request index, turn index, words). A client walks it
/// from its own starting request, so that a conversation's turns come in order.
pub fn flattened(set: &[Request]) -> Vec<(usize, usize, String)> {
    set.iter()
        .enumerate()
        .flat_map(|(r, req)| {
            req.turns
                .iter()
                .enumerate()
                .map(move |(t, words)| (r, t, words.clone()))
        })
        .collect()
}
