//! Call deadlines over a real loopback connection, with kit's server and channel: a call
//! runs as long as its own deadline allows (no cut of the channel or server below it), and
//! a call whose deadline passes ends with DEADLINE_EXCEEDED while the server drops the
//! handler's work instead of finishing it for nobody.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test stops at the first surprise

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tokio::net::TcpListener;
use tonic::transport::server::TcpIncoming;
use tonic::{Code, Request, Response, Status};
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;
use tonic_health::pb::health_server::{Health, HealthServer};
use tonic_health::pb::{HealthCheckRequest, HealthCheckResponse};

/// A health service whose check takes `delay`, and which notes whether a check finished
/// and whether one was dropped before it did.
#[derive(Clone)]
struct Slow {
    delay: Duration,
    finished: Arc<AtomicBool>,
    dropped_early: Arc<AtomicBool>,
}

/// Sets its flag when dropped unless disarmed: the handler's future was dropped mid-way.
struct DropNote(Arc<AtomicBool>, bool);

impl Drop for DropNote {
    fn drop(&mut self) {
        if self.1 {
            self.0.store(true, Ordering::SeqCst);
        }
    }
}

#[tonic::async_trait]
impl Health for Slow {
    async fn check(
        &self,
        _: Request<HealthCheckRequest>,
    ) -> Result<Response<HealthCheckResponse>, Status> {
        let mut note = DropNote(self.dropped_early.clone(), true);
        tokio::time::sleep(self.delay).await;
        note.1 = false;
        self.finished.store(true, Ordering::SeqCst);
        Ok(Response::new(HealthCheckResponse {
            status: ServingStatus::Serving as i32,
        }))
    }

    type WatchStream = futures::stream::Empty<Result<HealthCheckResponse, Status>>;

    async fn watch(
        &self,
        _: Request<HealthCheckRequest>,
    ) -> Result<Response<Self::WatchStream>, Status> {
        Err(Status::unimplemented("watch"))
    }
}

/// Serves `slow` on a loopback port with kit's server; the client is kit's lazy channel.
async fn serve(slow: Slow) -> HealthClient<tonic::transport::Channel> {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(
        quire_kit::grpc::server()
            .add_service(HealthServer::new(slow))
            .serve_with_incoming(TcpIncoming::from(listener)),
    );
    HealthClient::new(quire_kit::grpc::channel(&format!("http://127.0.0.1:{port}")).unwrap())
}

fn slow(delay: Duration) -> Slow {
    Slow {
        delay,
        finished: Arc::new(AtomicBool::new(false)),
        dropped_early: Arc::new(AtomicBool::new(false)),
    }
}

/// A call longer than the 30 s every channel and server used to cut at, within its own
/// deadline: it gets its answer (a long upload used to get 503 at 30.0 s while the service
/// went on with the work).
#[tokio::test]
async fn a_call_runs_as_long_as_its_own_deadline_allows() {
    let service = slow(Duration::from_secs(31));
    let mut client = serve(service.clone()).await;
    let request =
        quire_kit::grpc::outgoing(HealthCheckRequest::default(), None, Duration::from_secs(45));
    let reply = client
        .check(request)
        .await
        .expect("the call within its deadline");
    assert_eq!(reply.into_inner().status, ServingStatus::Serving as i32);
    assert!(service.finished.load(Ordering::SeqCst));
}

/// A call whose deadline passes ends with DEADLINE_EXCEEDED, and the server stops the
/// handler's work then (its future is dropped before it finished).
#[tokio::test]
async fn a_call_past_its_deadline_is_cancelled_on_the_server_too() {
    let service = slow(Duration::from_secs(5));
    let mut client = serve(service.clone()).await;
    let request = quire_kit::grpc::outgoing(
        HealthCheckRequest::default(),
        None,
        Duration::from_millis(300),
    );
    let status = client.check(request).await.expect_err("past its deadline");
    // The client's timer and the server's fire together: whichever wins, the call ended
    // for its deadline (tonic's client answers its own as CANCELLED, "Timeout expired").
    assert!(
        status.code() == Code::DeadlineExceeded
            || (status.code() == Code::Cancelled && status.message() == "Timeout expired"),
        "{status:?}"
    );
    // The server's own deadline fires at the same 300 ms; give it a moment to drop.
    for _ in 0..50 {
        if service.dropped_early.load(Ordering::SeqCst) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(
        service.dropped_early.load(Ordering::SeqCst),
        "the handler's work was dropped before it finished"
    );
    assert!(!service.finished.load(Ordering::SeqCst));
}
