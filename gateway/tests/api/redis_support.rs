//! A Redis of the test's own, on a free port, that the test stops and starts again: the
//! shared Redis on 6379 serves every other test and is never stopped.

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::support::closed_port;

pub struct OwnRedis {
    port: u16,
    server: Option<Child>,
}

impl OwnRedis {
    /// Starts `redis-server` on a free port, without persistence, and waits until it
    /// answers.
    pub async fn start() -> Self {
        let mut redis = Self {
            port: closed_port(),
            server: None,
        };
        redis.start_again().await;
        redis
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Kills the server as a crash would (SIGKILL), and waits until it is gone.
    pub fn stop(&mut self) {
        if let Some(mut server) = self.server.take() {
            let _ = server.kill();
            let _ = server.wait();
        }
    }

    /// Starts the server again on the same port (empty: nothing was saved).
    pub async fn start_again(&mut self) {
        assert!(self.server.is_none(), "the test's redis already runs");
        let server = Command::new("redis-server")
            .args(["--port", &self.port.to_string()])
            .args(["--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .stdout(Stdio::null())
            .spawn()
            .expect("redis-server runs (it is installed on this machine)");
        self.server = Some(server);
        for _ in 0..100 {
            if self.answers().await {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("redis-server on port {} did not answer", self.port);
    }

    async fn answers(&self) -> bool {
        let Ok(mut stream) = tokio::net::TcpStream::connect(("127.0.0.1", self.port)).await else {
            return false;
        };
        let mut reply = [0u8; 7];
        stream.write_all(b"PING\r\n").await.is_ok()
            && stream.read_exact(&mut reply).await.is_ok()
            && &reply == b"+PONG\r\n"
    }
}

impl Drop for OwnRedis {
    fn drop(&mut self) {
        self.stop();
    }
}
