//! A worker past one of its limits: the upload is refused with a message for the writer,
//! the worker is gone, and the service reads the next upload.

use std::time::Duration;

use crate::support::{ONE_AT_A_TIME, Stack, Watch, exists, no_worker_within, text, workers};

#[tokio::test(flavor = "multi_thread")]
async fn a_worker_past_its_memory_limit_refuses_the_upload_and_the_next_one_is_read() {
    let _one = ONE_AT_A_TIME.lock().await;
    let stack = Stack::start(|c| c.manuscript_extract_memory_mb = 24).await;

    // A real manuscript, within every limit of the upload: 24 MiB take its bytes in, but
    // reading its text takes about twice that.
    let err = stack
        .upload("long.txt", text(20, 4_500_000))
        .await
        .expect_err("refused");
    assert!(
        err.message().contains("took too much memory to read"),
        "{err:?}"
    );
    assert!(no_worker_within(Duration::from_secs(10)).await);

    let next = stack
        .upload("short.txt", text(21, 20_000))
        .await
        .expect("the next upload is read");
    assert!(!next.chapters.is_empty());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_worker_past_its_deadline_is_killed_and_the_upload_refused() {
    let _one = ONE_AT_A_TIME.lock().await;
    let stack = Stack::start(|c| {
        c.manuscript_extract_wall_ms = 200;
        c.manuscript_max_text_chars = 40_000_000;
    })
    .await;

    let watch = Watch::start();
    let err = stack
        .upload("huge.txt", text(30, 30_000_000))
        .await
        .expect_err("refused");
    assert!(err.message().contains("took too long to read"), "{err:?}");
    // Killed and reaped before the writer was answered.
    assert_eq!(workers(), Default::default());
    for pid in watch.seen() {
        assert!(!exists(pid), "worker {pid} is still there");
    }

    let next = stack
        .upload("short.txt", text(31, 20_000))
        .await
        .expect("the next upload is read");
    assert!(!next.chapters.is_empty());
}
