//! Where the verification codes come from, as the e2e tests get them: an SMTP sink the
//! stack sends its mail to (`QUIRE_SMTP_URL=smtp://127.0.0.1:<port>`), or, on a stack
//! with no SMTP (`make run`'s default), the auth service's log, where it writes each mail
//! instead of sending it.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context, bail};
use mailin::{Action, Handler, Response, SessionBuilder, response};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

/// Every mail received so far: its recipients and its raw text.
type Received = Arc<Mutex<Vec<(Vec<String>, String)>>>;

pub enum Mailbox {
    Sink { addr: SocketAddr, mails: Received },
    Log(PathBuf),
}

/// A point in the mailbox: codes are looked for in what arrives after it.
#[derive(Clone, Copy)]
pub struct Mark(u64);

impl Mailbox {
    /// `smtp://host:port`: listens there as the stack's SMTP server; anything else is the
    /// path of the auth service's log.
    pub async fn open(spec: &str) -> anyhow::Result<Self> {
        let Some(addr) = spec.strip_prefix("smtp://") else {
            return Ok(Self::Log(PathBuf::from(spec)));
        };
        let addr = addr.trim_end_matches('/');
        let listener = TcpListener::bind(addr).await.with_context(|| {
            format!("the mail sink cannot listen on {addr} (another sink, such as the e2e tests', holds it?)")
        })?;
        let addr = listener.local_addr()?;
        let mails = Received::default();
        tokio::spawn(serve(listener, mails.clone()));
        Ok(Self::Sink { addr, mails })
    }

    pub fn describe(&self) -> String {
        match self {
            Self::Sink { addr, .. } => format!("SMTP sink on {addr}"),
            Self::Log(path) => format!("mails written to the auth log {}", path.display()),
        }
    }

    pub fn mark(&self) -> anyhow::Result<Mark> {
        Ok(Mark(match self {
            Self::Sink { mails, .. } => lock(mails).len() as u64,
            Self::Log(path) => std::fs::metadata(path)
                .with_context(|| {
                    format!(
                        "no auth log at {} to read verification codes from (set --mail)",
                        path.display()
                    )
                })?
                .len(),
        }))
    }

    /// The 6-digit code mailed to `email` after `since`, waiting up to 30 s for it.
    pub async fn code_for(&self, email: &str, since: Mark) -> anyhow::Result<String> {
        for _ in 0..300 {
            let found = match self {
                Self::Sink { mails, .. } => lock(mails)
                    .iter()
                    .skip(since.0 as usize)
                    .filter(|(to, _)| to.iter().any(|t| t.contains(&email.to_ascii_lowercase())))
                    .find_map(|(_, text)| code_in(text)),
                Self::Log(path) => {
                    let bytes = tokio::fs::read(path).await?;
                    let text =
                        String::from_utf8_lossy(bytes.get(since.0 as usize..).unwrap_or(&[]))
                            .into_owned();
                    // The log line (or lines) of the mail: the recipient, then the body.
                    text.rfind(email).and_then(|at| code_in(&text[at..]))
                }
            };
            if let Some(code) = found {
                return Ok(code);
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        bail!(
            "no verification code for {email} within 30 s ({})",
            self.describe()
        )
    }
}

fn lock(mails: &Received) -> std::sync::MutexGuard<'_, Vec<(Vec<String>, String)>> {
    mails.lock().unwrap_or_else(|p| p.into_inner())
}

/// The digits after "verification code is " (auth's wording).
fn code_in(text: &str) -> Option<String> {
    let after = text.split("verification code is ").nth(1)?;
    let code: String = after.chars().take(6).collect();
    (code.len() == 6 && code.chars().all(|c| c.is_ascii_digit())).then_some(code)
}

/// One connection's mail, kept in `mails` when its data ends.
struct Sink {
    mails: Received,
    to: Vec<String>,
    data: Vec<u8>,
}

impl Handler for Sink {
    fn data_start(&mut self, _: &str, _: &str, _: bool, to: &[String]) -> Response {
        self.to = to.iter().map(|t| t.to_ascii_lowercase()).collect();
        self.data.clear();
        response::OK
    }
    fn data(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.data.extend_from_slice(buf);
        Ok(())
    }
    fn data_end(&mut self) -> Response {
        let text = String::from_utf8_lossy(&self.data).into_owned();
        lock(&self.mails).push((std::mem::take(&mut self.to), text));
        response::OK
    }
}

/// Accepts the stack's SMTP connections; mailin speaks the protocol.
async fn serve(listener: TcpListener, mails: Received) {
    let builder = SessionBuilder::new("quire-smoke-sink");
    loop {
        let Ok((stream, peer)) = listener.accept().await else {
            continue;
        };
        let mut session = builder.build(
            peer.ip(),
            Sink {
                mails: mails.clone(),
                to: Vec::new(),
                data: Vec::new(),
            },
        );
        tokio::spawn(async move {
            let (read, mut write) = stream.into_split();
            let mut read = BufReader::new(read);
            let greeting = session.greeting().buffer().unwrap_or_default();
            if write.write_all(&greeting).await.is_err() {
                return;
            }
            let mut line = Vec::new();
            loop {
                line.clear();
                match read.read_until(b'\n', &mut line).await {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {}
                }
                let res = session.process(&line);
                if res.action == Action::NoReply {
                    continue;
                }
                let bytes = res.buffer().unwrap_or_default();
                if write.write_all(&bytes).await.is_err() || res.action != Action::Reply {
                    return;
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_code_is_read_from_the_mail_text_as_auth_words_it() {
        let mail = "Subject: Your Quire verification code\r\n\r\nWelcome to Quire!\r\n\r\nYour verification code is 042917\r\n";
        assert_eq!(code_in(mail).as_deref(), Some("042917"));
        // The auth log's line, escaped by the log formatter.
        let log = r#"INFO mail (QUIRE_SMTP_URL unset, not sent) to="a@smoke.quire.test" subject="Your Quire verification code" body="Welcome to Quire!\n\nYour verification code is 913402\n\nIt is valid""#;
        assert_eq!(code_in(log).as_deref(), Some("913402"));
        assert_eq!(code_in("Your verification code is 12ab"), None);
    }

    /// What the stack does with QUIRE_SMTP_URL pointing at the sink: an SMTP dialogue.
    #[tokio::test]
    async fn the_sink_takes_a_mail_over_smtp_and_finds_its_code() {
        let mailbox = Mailbox::open("smtp://127.0.0.1:0").await.unwrap();
        let Mailbox::Sink { addr, .. } = &mailbox else {
            panic!("a sink")
        };
        let since = mailbox.mark().unwrap();
        let mut conn = tokio::net::TcpStream::connect(addr).await.unwrap();
        let (r, mut w) = conn.split();
        let mut r = BufReader::new(r);
        let mut said = String::new();
        for line in [
            "EHLO auth.local\r\n",
            "MAIL FROM:<no-reply@quire.local>\r\n",
            "RCPT TO:<Reader@Smoke.Quire.Test>\r\n",
            "DATA\r\n",
            "Subject: code\r\n\r\nYour verification code is 555123\r\n.\r\n",
            "QUIT\r\n",
        ] {
            w.write_all(line.as_bytes()).await.unwrap();
        }
        while r.read_line(&mut said).await.unwrap() > 0 {}
        assert!(said.starts_with("220"), "{said}");
        assert!(said.contains("221"), "{said}");
        let code = mailbox
            .code_for("reader@smoke.quire.test", since)
            .await
            .unwrap();
        assert_eq!(code, "555123");
    }
}
