//! A group member killed without leaving (SIGKILL) leaves no partition without a consumer:
//! the member that lives on gets the dead one's partitions and every record written to them.
//!
//! The test runs itself as the second member (`stranded_partitions member <topic> <group>`,
//! printing each key it handles) so that it can kill it as the kernel kills a process.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test or bench stops at the first surprise

use std::collections::HashSet;
use std::future::Future;
use std::io::{BufRead, BufReader, Write};
use std::pin::Pin;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use quire_kit::consumer::{BatchConsumer, BatchHandler, STRANDED_AFTER};
use quire_kit::events::Event;
use rdkafka::producer::{FutureProducer, FutureRecord};

mod support;

const NAME: &str = "a_killed_member_strands_no_partition";

/// Keys handled, shared with whoever watches.
#[derive(Clone, Default)]
struct Seen(Arc<Mutex<HashSet<String>>>);

impl Seen {
    fn has(&self, key: &str) -> bool {
        self.0.lock().unwrap().contains(key)
    }
    fn any_starting(&self, prefix: &str) -> bool {
        self.0.lock().unwrap().iter().any(|k| k.starts_with(prefix))
    }
}

/// Notes every key; the second member also prints it for the test to read.
struct Note {
    seen: Seen,
    print: bool,
}

impl BatchHandler for Note {
    fn handle_batch<'a>(
        &'a self,
        events: &'a [Event],
    ) -> Pin<Box<dyn Future<Output = anyhow::Result<usize>> + Send + 'a>> {
        Box::pin(async move {
            for event in events {
                self.seen.0.lock().unwrap().insert(event.key.clone());
                if self.print {
                    let mut out = std::io::stdout().lock();
                    writeln!(out, "{}", event.key)?;
                    out.flush()?;
                }
            }
            Ok(events.len())
        })
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    if args.first().map(String::as_str) == Some("member") {
        let (topic, group) = (&args[1], &args[2]);
        runtime.block_on(async {
            let consumer = BatchConsumer::new(&support::brokers(), group, &[topic], 100).unwrap();
            let seen = Seen::default();
            consumer
                .run(Note { seen, print: true }, std::future::pending())
                .await;
        });
        return;
    }
    // As libtest would: `--list` names the test, a filter that does not match skips it.
    if args.iter().any(|a| a == "--list") {
        println!("{NAME}: test");
        return;
    }
    let filters: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    if !filters.is_empty() && !filters.iter().any(|f| NAME.contains(f.as_str())) {
        println!("running 0 tests");
        return;
    }
    println!("running 1 test");
    runtime.block_on(a_killed_member_strands_no_partition());
    println!("test {NAME} ... ok");
}

async fn a_killed_member_strands_no_partition() {
    let brokers = support::brokers();
    let suffix = support::suffix();
    let (topic, group) = (
        format!("quire.test.stranded.{suffix}"),
        format!("stranded-{suffix}"),
    );
    quire_kit::events::ensure_topics(&brokers, &[&topic])
        .await
        .unwrap();
    let partitions = 3;

    let here = Seen::default();
    let consumer = BatchConsumer::new(&brokers, &group, &[&topic], 100).unwrap();
    tokio::spawn(consumer.run(
        Note {
            seen: here.clone(),
            print: false,
        },
        std::future::pending(),
    ));
    let mut other = Command::new(std::env::current_exe().unwrap())
        .args(["member", &topic, &group])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let there = Seen::default();
    let lines = BufReader::new(other.stdout.take().unwrap());
    let noted = there.clone();
    std::thread::spawn(move || {
        for line in lines.lines().map_while(Result::ok) {
            noted.0.lock().unwrap().insert(line);
        }
    });

    // Probes into every partition until both members handled some: each holds partitions.
    let producer: FutureProducer = quire_kit::events::producer_config(&brokers)
        .create()
        .unwrap();
    let started = Instant::now();
    let mut round = 0;
    while !(here.any_starting("probe-") && there.any_starting("probe-")) {
        assert!(
            started.elapsed() < Duration::from_secs(90),
            "both members should have joined and shared the partitions"
        );
        for p in 0..partitions {
            send(&producer, &topic, p, &format!("probe-{round}-{p}")).await;
        }
        round += 1;
        tokio::time::sleep(Duration::from_millis(500)).await;
    }

    other.kill().unwrap(); // SIGKILL: it never leaves the group
    other.wait().unwrap();
    let killed = Instant::now();
    let after: Vec<String> = (0..partitions)
        .flat_map(|p| (0..3).map(move |i| format!("after-{p}-{i}")))
        .collect();
    for (n, key) in after.iter().enumerate() {
        send(&producer, &topic, (n / 3) as i32, key).await;
    }

    // The broker expires the dead member's session (10 s); should it not hand the partitions
    // on, the member left notices them stranded and rejoins.
    let bound = Duration::from_secs(20) + 2 * STRANDED_AFTER;
    loop {
        let missing: Vec<&String> = after.iter().filter(|k| !here.has(k)).collect();
        if missing.is_empty() {
            break;
        }
        assert!(
            killed.elapsed() < bound,
            "records after the kill never handled by the member left: {missing:?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    println!(
        "every record written after the kill was handled {:.1} s after it",
        killed.elapsed().as_secs_f64()
    );
}

async fn send(producer: &FutureProducer, topic: &str, partition: i32, key: &str) {
    let event = Event {
        id: uuid::Uuid::now_v7(),
        event_type: "quire.test.v1".into(),
        source: "tests".into(),
        time: chrono::Utc::now().to_rfc3339(),
        key: key.to_owned(),
        data: Vec::new(),
        traceparent: None,
    };
    producer
        .send(
            FutureRecord::to(topic)
                .partition(partition)
                .key(key)
                .payload(&event.data)
                .headers(event.headers()),
            Duration::from_secs(10),
        )
        .await
        .map_err(|(e, _)| e)
        .unwrap();
}
