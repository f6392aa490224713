//! A caller who gives up leaves no worker behind.

use std::time::Duration;

use bytes::Bytes;
use quire_manuscript::ManuscriptConfig;
use quire_manuscript::uploads::request::{File, Split};
use quire_manuscript::uploads::worker;

use crate::support::{ONE_AT_A_TIME, Stack, Watch, exists, no_worker_within, text, worker_program};

#[tokio::test(flavor = "multi_thread")]
async fn an_extraction_given_up_kills_its_worker() {
    let _one = ONE_AT_A_TIME.lock().await;
    let config = ManuscriptConfig {
        manuscript_extract_worker: Some(worker_program()),
        manuscript_max_text_chars: 40_000_000,
        ..ManuscriptConfig::default()
    };
    let files = [File {
        name: "huge.txt".into(),
        data: Bytes::from(text(40, 30_000_000)),
    }];
    let watch = Watch::start();
    let extraction = worker::extract(&config, &files, Split::Manuscript);
    // The caller gives up once the worker runs: the extraction is dropped.
    let pid = tokio::select! {
        done = extraction => panic!("the extraction ended before its worker was seen: {:?}", done.map(|e| e.title)),
        pid = watch.first(Duration::from_secs(30)) => pid.expect("a worker starts"),
    };
    assert!(no_worker_within(Duration::from_secs(10)).await);
    assert!(!exists(pid), "worker {pid} is still there");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_caller_who_hangs_up_leaves_no_worker_behind() {
    let _one = ONE_AT_A_TIME.lock().await;
    let stack = Stack::start(|c| {
        c.manuscript_extract_wall_ms = 1000;
        c.manuscript_max_text_chars = 40_000_000;
    })
    .await;

    let watch = Watch::start();
    let call = stack.upload("huge.txt", text(50, 30_000_000));
    // The caller hangs up once the worker runs.
    tokio::select! {
        answered = call => assert!(answered.is_err(), "an upload this long is refused"),
        pid = watch.first(Duration::from_secs(60)) => assert!(pid.is_some(), "a worker starts"),
    }
    // The upload goes on without its caller (all or nothing), up to the worker's deadline.
    assert!(no_worker_within(Duration::from_secs(30)).await);
    for pid in watch.seen() {
        assert!(!exists(pid), "worker {pid} is still there");
    }

    let next = stack
        .upload("short.txt", text(51, 20_000))
        .await
        .expect("the next upload is read");
    assert!(!next.chapters.is_empty());
}
