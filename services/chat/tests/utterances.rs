//! Runs the labelled utterances of `data/utterances.jsonl` (see `data/README.md`) through
//! the understanding, turn by turn, and checks the intent, the reply and the whole request
//! each turn must yield. Every development case must pass; the held-out cases, written
//! after the rules and never tuned on, must reach HELD_OUT_THRESHOLD, and the test prints
//! the real figure (`cargo test -p quire-chat --test utterances -- --nocapture`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;

use quire_chat::DEFAULT_NAME;
use quire_chat::understanding::{Intent, Reply, Request, Shown, understand};
use serde::Deserialize;

const HELD_OUT_THRESHOLD: f64 = 0.90;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    id: String,
    split: String,
    turns: Vec<Expected>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Expected {
    say: String,
    /// The books shown before this turn; by default none before the first turn and
    /// [`default_shown`] before the others.
    shown: Option<Vec<Shown>>,
    intent: Intent,
    reply: Reply,
    /// The conversation's request after the turn; absent, it must be what it was.
    request: Option<Request>,
}

fn default_shown() -> Vec<Shown> {
    let book = |id: &str, title: &str, price: u32, pages: u32| Shown {
        id: id.into(),
        title: title.into(),
        price_cents: Some(price),
        pages: Some(pages),
    };
    vec![
        book("b1", "Snow on the Moor", 899, 320),
        book("b2", "The Lantern Keeper", 450, 210),
        book("b3", "Murder at Mill Lane", 299, 480),
    ]
}

fn cases() -> Vec<Case> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/utterances.jsonl");
    let text = std::fs::read_to_string(path).expect("the labelled set is in the repo");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad line {l}: {e}")))
        .collect()
}

/// The differences between what `case` expects and what the understanding gives.
fn run(case: &Case, intents: &mut BTreeMap<String, usize>) -> Vec<String> {
    let mut problems = Vec::new();
    let mut state: Option<Request> = None;
    for (n, turn) in case.turns.iter().enumerate() {
        let shown = turn
            .shown
            .clone()
            .unwrap_or_else(|| if n == 0 { Vec::new() } else { default_shown() });
        let got = understand(state.as_ref(), &shown, &turn.say, DEFAULT_NAME);
        *intents.entry(format!("{:?}", turn.intent)).or_default() += 1;
        let want_request = turn.request.clone().or_else(|| state.clone());
        if got.intent != turn.intent {
            problems.push(format!(
                "turn {n} {:?}: intent {:?}, want {:?}",
                turn.say, got.intent, turn.intent
            ));
        }
        if got.reply != turn.reply {
            problems.push(format!(
                "turn {n} {:?}: reply {:?}, want {:?}",
                turn.say, got.reply, turn.reply
            ));
        }
        if got.request != want_request {
            problems.push(format!(
                "turn {n} {:?}:\n  got  {:?}\n  want {:?}",
                turn.say, got.request, want_request
            ));
        }
        if got.query.is_some() != (got.reply == Reply::Search) {
            problems.push(format!(
                "turn {n} {:?}: a query exactly when searching",
                turn.say
            ));
        }
        state = got.request;
    }
    problems
}

#[test]
fn every_labelled_utterance_yields_its_intent_and_filters() {
    let cases = cases();
    let mut ids: Vec<&str> = cases.iter().map(|c| c.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), cases.len(), "case ids are unique");
    let turns: usize = cases.iter().map(|c| c.turns.len()).sum();
    assert!(
        cases.len() >= 80,
        "at least 80 cases, found {}",
        cases.len()
    );

    let mut intents = BTreeMap::new();
    let (mut dev_failures, mut held_out, mut held_out_passed) = (Vec::new(), 0usize, 0usize);
    for case in &cases {
        let problems = run(case, &mut intents);
        match case.split.as_str() {
            "dev" if !problems.is_empty() => {
                dev_failures.push(format!("{}:\n{}", case.id, problems.join("\n")))
            }
            "dev" => {}
            "heldout" => {
                held_out += 1;
                if problems.is_empty() {
                    held_out_passed += 1;
                } else {
                    println!("held-out miss {}:\n{}", case.id, problems.join("\n"));
                }
            }
            other => panic!("{}: unknown split {other}", case.id),
        }
    }
    let dev = cases.len() - held_out;
    println!(
        "{} cases ({dev} development, {held_out} held out), {turns} turns",
        cases.len()
    );
    for (intent, count) in &intents {
        println!("  {intent:<9} {count} turns");
    }
    let accuracy = held_out_passed as f64 / held_out.max(1) as f64;
    println!(
        "held-out accuracy: {held_out_passed}/{held_out} cases = {:.1}%",
        accuracy * 100.0
    );

    assert!(
        dev_failures.is_empty(),
        "development cases failed:\n{}",
        dev_failures.join("\n\n")
    );
    assert!(
        held_out >= 20,
        "at least 20 held-out cases, found {held_out}"
    );
    assert!(
        accuracy >= HELD_OUT_THRESHOLD,
        "held-out accuracy {accuracy:.3} under {HELD_OUT_THRESHOLD}"
    );
}
