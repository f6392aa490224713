//! Outgoing mail: real SMTP when `QUIRE_SMTP_URL` is set, else the log, so a developer
//! can register on a machine without a mail server.

use lettre::message::Mailbox;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use crate::error::{AuthError, CommonErrors, Result};

#[derive(Clone)]
pub enum Mailer {
    Smtp {
        transport: Box<AsyncSmtpTransport<Tokio1Executor>>,
        from: Mailbox,
    },
    Log,
}

impl Mailer {
    pub fn new(smtp_url: Option<&str>, from: &str) -> anyhow::Result<Self> {
        match smtp_url.filter(|u| !u.is_empty()) {
            Some(url) => {
                let transport = Box::new(
                    AsyncSmtpTransport::<Tokio1Executor>::from_url(url)?
                        .timeout(Some(std::time::Duration::from_secs(10)))
                        .build(),
                );
                Ok(Self::Smtp {
                    transport,
                    from: from.parse()?,
                })
            }
            None => Ok(Self::Log),
        }
    }

    pub async fn send(&self, to: &str, subject: &str, body: String) -> Result<()> {
        match self {
            Self::Log => {
                tracing::info!(to, subject, body, "mail (QUIRE_SMTP_URL unset, not sent)");
                Ok(())
            }
            Self::Smtp { transport, from } => {
                let to: Mailbox = to
                    .parse()
                    .map_err(|_| AuthError::invalid("email", "email: not a valid address"))?;
                let message = Message::builder()
                    .from(from.clone())
                    .to(to)
                    .subject(subject)
                    .body(body)
                    .map_err(|e| AuthError::internal(format!("build mail: {e}")))?;
                transport.send(message).await.map_err(|e| {
                    tracing::error!(error = %e, "smtp send failed");
                    AuthError::from(quire_kit::ApiError::unavailable(
                        "Mail could not be sent, try again later",
                    ))
                })?;
                Ok(())
            }
        }
    }
}
