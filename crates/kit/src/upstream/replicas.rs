//! Who the replicas of an upstream are, and which of them take calls.
//!
//! The set is what the URL's names resolve to, resolved at the first call and again every
//! [`REFRESH`]; a replica that stays keeps its connection. A replica whose connection
//! failed is left out of the turn until a probe (a TCP connect, every [`PROBE`]) reaches
//! it again, so a replica that is gone costs no call more than the one that found it gone.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, RwLock, Weak};
use std::time::{Duration, Instant};

use tonic::transport::Channel;

use super::UpstreamError;

/// How often the names are resolved again (pods come and go; a headless Service's answer
/// follows their readiness).
pub const REFRESH: Duration = Duration::from_secs(5);
/// How often a replica that was left out is tried again.
pub const PROBE: Duration = Duration::from_millis(500);
/// How long a probe waits for a connection.
const PROBE_TIMEOUT: Duration = Duration::from_secs(1);

/// One `host:port` of the URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    host: String,
    port: u16,
}

/// Reads `url`: `http://host:port`, or several separated by commas.
pub fn targets(url: &str) -> Result<Vec<Target>, UpstreamError> {
    let bad = |why| UpstreamError {
        url: url.to_owned(),
        why,
    };
    let mut targets = Vec::new();
    for one in url.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let uri: http::Uri = one.parse().map_err(|_| bad("not a URL"))?;
        if uri.scheme_str() != Some("http") {
            return Err(bad("only http:// is served (TLS is the mesh's or none)"));
        }
        let host = uri
            .host()
            .filter(|h| !h.is_empty())
            .ok_or_else(|| bad("no host"))?;
        let port = uri.port_u16().ok_or_else(|| bad("no port"))?;
        let host = host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_owned();
        targets.push(Target { host, port });
    }
    if targets.is_empty() {
        return Err(bad("no address"));
    }
    Ok(targets)
}

/// One replica: its address, its own lazily connected channel, whether it is left out.
#[derive(Debug)]
pub struct Replica {
    addr: SocketAddr,
    channel: Channel,
    out: AtomicBool,
}

impl Replica {
    fn new(addr: SocketAddr) -> Option<Arc<Self>> {
        let endpoint = crate::grpc::endpoint(&format!("http://{addr}")).ok()?;
        Some(Arc::new(Self {
            addr,
            channel: endpoint.connect_lazy(),
            out: AtomicBool::new(false),
        }))
    }

    pub fn channel(&self) -> Channel {
        self.channel.clone()
    }

    /// The replica answered: it is in the turn.
    pub fn answered(&self) {
        self.out.store(false, Ordering::Relaxed);
    }

    /// The replica's transport failed a call: it stays out until a probe reaches it.
    pub fn failed(&self) {
        if !self.out.swap(true, Ordering::Relaxed) {
            tracing::warn!(addr = %self.addr, "replica left out until it answers again");
        }
    }

    fn is_out(&self) -> bool {
        self.out.load(Ordering::Relaxed)
    }
}

/// The replicas of one service.
#[derive(Debug)]
pub struct Replicas {
    part: &'static str,
    targets: Vec<Target>,
    set: RwLock<Vec<Arc<Replica>>>,
    next: AtomicUsize,
    first: tokio::sync::OnceCell<()>,
}

impl Replicas {
    pub fn new(part: &'static str, targets: Vec<Target>) -> Arc<Self> {
        Arc::new(Self {
            part,
            targets,
            set: RwLock::new(Vec::new()),
            next: AtomicUsize::new(0),
            first: tokio::sync::OnceCell::new(),
        })
    }

    pub fn part(&self) -> &'static str {
        self.part
    }

    /// (known, live) replicas.
    #[cfg(test)]
    fn counts(&self) -> (usize, usize) {
        let set = self.set.read().map(|s| s.clone()).unwrap_or_default();
        (set.len(), set.iter().filter(|r| !r.is_out()).count())
    }

    /// Waits for the first resolution (done once; later ones run in the background).
    pub async fn resolved(&self) {
        self.first.get_or_init(|| self.refresh()).await;
    }

    /// The next live replica in turn that is not among `tried`.
    pub fn pick(&self, tried: &[Arc<Replica>]) -> Option<Arc<Replica>> {
        let set = self.set.read().ok()?;
        let n = set.len();
        let start = self.next.fetch_add(1, Ordering::Relaxed);
        (0..n)
            .map(|i| &set[(start + i) % n])
            .find(|r| !r.is_out() && !tried.iter().any(|t| Arc::ptr_eq(t, r)))
            .cloned()
    }

    /// Resolves the names again; keeps the set as it is when none resolves (a resolver
    /// that is down must not empty it).
    async fn refresh(&self) {
        let mut addrs: Vec<SocketAddr> = Vec::new();
        for target in &self.targets {
            match tokio::net::lookup_host((target.host.as_str(), target.port)).await {
                Ok(found) => addrs.extend(found),
                Err(error) => {
                    tracing::warn!(part = self.part, host = %target.host, %error, "cannot resolve")
                }
            }
        }
        addrs.sort_unstable();
        addrs.dedup();
        if addrs.is_empty() {
            return;
        }
        let Ok(mut set) = self.set.write() else {
            return;
        };
        if set.iter().map(|r| r.addr).eq(addrs.iter().copied()) {
            return;
        }
        let old = std::mem::take(&mut *set);
        for addr in addrs {
            match old.iter().find(|r| r.addr == addr) {
                Some(kept) => set.push(kept.clone()),
                None => set.extend(Replica::new(addr)),
            }
        }
        tracing::info!(part = self.part, replicas = set.len(), "replicas resolved");
    }

    /// Probes every replica that is left out; answers it back in when it accepts.
    async fn probe(&self) {
        let out: Vec<Arc<Replica>> = match self.set.read() {
            Ok(set) => set.iter().filter(|r| r.is_out()).cloned().collect(),
            Err(_) => return,
        };
        for replica in out {
            let connect = tokio::net::TcpStream::connect(replica.addr);
            if let Ok(Ok(_)) = tokio::time::timeout(PROBE_TIMEOUT, connect).await {
                tracing::info!(part = self.part, addr = %replica.addr, "replica back in");
                replica.answered();
            }
        }
    }
}

/// Starts the task that resolves the names again and probes the replicas left out; it
/// ends when the last clone of the upstream is gone.
pub fn spawn_upkeep(replicas: &Arc<Replicas>) {
    let weak: Weak<Replicas> = Arc::downgrade(replicas);
    tokio::spawn(async move {
        let mut resolved_at = Instant::now();
        loop {
            tokio::time::sleep(PROBE).await;
            let Some(replicas) = weak.upgrade() else {
                return;
            };
            if replicas.first.initialized() && resolved_at.elapsed() >= REFRESH {
                replicas.refresh().await;
                resolved_at = Instant::now();
            }
            replicas.probe().await;
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_name_one_or_several_replicas() {
        let one = targets("http://chat:50054").unwrap();
        assert_eq!(
            one,
            [Target {
                host: "chat".into(),
                port: 50054
            }]
        );
        let two = targets("http://127.0.0.1:1, http://[::1]:2").unwrap();
        assert_eq!(two.len(), 2);
        assert_eq!(two[1].host, "::1");
        for bad in [
            "",
            "chat:50054",
            "https://chat:1",
            "http://chat",
            "http://:1",
        ] {
            assert!(targets(bad).is_err(), "{bad:?}");
        }
    }

    #[tokio::test]
    async fn calls_take_turns_and_skip_the_replicas_left_out() {
        let at = targets("http://127.0.0.1:1,http://127.0.0.1:2").unwrap();
        let replicas = Replicas::new("chat", at);
        replicas.resolved().await;
        assert_eq!(replicas.counts(), (2, 2));
        let a = replicas.pick(&[]).unwrap();
        let b = replicas.pick(&[]).unwrap();
        assert_ne!(a.addr, b.addr, "turns");
        assert_eq!(
            replicas.pick(std::slice::from_ref(&a)).unwrap().addr,
            b.addr
        );
        a.failed();
        assert_eq!(replicas.counts(), (2, 1));
        for _ in 0..4 {
            assert_eq!(replicas.pick(&[]).unwrap().addr, b.addr);
        }
        b.failed();
        assert!(replicas.pick(&[]).is_none(), "no live replica");
        // Nothing listens on these ports: a probe lets neither back in.
        replicas.probe().await;
        assert_eq!(replicas.counts(), (2, 0));
    }

    #[tokio::test]
    async fn a_probe_lets_a_replica_back_once_it_accepts_connections() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let at = targets(&format!("http://127.0.0.1:{port}")).unwrap();
        let replicas = Replicas::new("chat", at);
        replicas.resolved().await;
        replicas.pick(&[]).unwrap().failed();
        assert!(replicas.pick(&[]).is_none());
        replicas.probe().await;
        assert!(replicas.pick(&[]).is_some(), "back in");
    }
}
