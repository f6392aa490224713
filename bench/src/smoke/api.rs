//! The REST client of the smoke test: one call, its status and the envelope's payload,
//! or an error that says which call failed and how (status, the server's words, timeout).

use std::fmt;
use std::time::Duration;

use reqwest::Method;
use reqwest::header::{AUTHORIZATION, CONTENT_TYPE, HeaderMap, RETRY_AFTER};
use serde_json::Value;

#[derive(Clone)]
pub struct Api {
    http: reqwest::Client,
    base: String,
}

/// What a call sends besides its query.
pub enum Body {
    None,
    Json(Value),
    Form(Vec<(&'static str, String)>),
    /// A `multipart/form-data` body, as [`multipart`] makes one.
    Multipart(reqwest::multipart::Form),
}

pub struct Call<'a> {
    pub method: Method,
    /// Under `/api`, e.g. `/search`.
    pub path: String,
    pub query: Vec<(&'static str, String)>,
    pub token: Option<&'a str>,
    pub body: Body,
    pub idempotency_key: Option<String>,
}

impl<'a> Call<'a> {
    pub fn new(method: Method, path: impl Into<String>) -> Self {
        Self {
            method,
            path: path.into(),
            query: Vec::new(),
            token: None,
            body: Body::None,
            idempotency_key: None,
        }
    }
    pub fn get(path: impl Into<String>) -> Self {
        Self::new(Method::GET, path)
    }
    pub fn post(path: impl Into<String>) -> Self {
        Self::new(Method::POST, path)
    }
    pub fn put(path: impl Into<String>) -> Self {
        Self::new(Method::PUT, path)
    }
    pub fn token(mut self, token: &'a str) -> Self {
        self.token = Some(token);
        self
    }
    pub fn query(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.query.push((name, value.into()));
        self
    }
    pub fn json(mut self, body: Value) -> Self {
        self.body = Body::Json(body);
        self
    }
    pub fn form(mut self, fields: Vec<(&'static str, String)>) -> Self {
        self.body = Body::Form(fields);
        self
    }
    pub fn body(mut self, body: Body) -> Self {
        self.body = body;
        self
    }
    /// A fresh `Idempotency-Key`: one intent, as the web app sends with money calls.
    pub fn idempotent(mut self) -> Self {
        self.idempotency_key = Some(uuid::Uuid::new_v4().to_string());
        self
    }
}

/// A call that did not answer 2xx with `success: true`, or did not answer at all.
#[derive(Debug)]
pub struct CallError {
    pub call: String,
    pub kind: ErrorKind,
}

#[derive(Debug)]
pub enum ErrorKind {
    Timeout,
    Transport(String),
    /// A non-2xx answer; `retry_after` in seconds on a 429.
    Status {
        status: u16,
        message: String,
        retry_after: Option<u64>,
    },
    /// A 2xx whose body is not what the call promises.
    Body(String),
}

impl CallError {
    pub fn body(call: &str, what: impl Into<String>) -> Self {
        Self {
            call: call.to_owned(),
            kind: ErrorKind::Body(what.into()),
        }
    }

    /// Seconds to wait when the answer was a 429.
    pub fn retry_after(&self) -> Option<u64> {
        match self.kind {
            ErrorKind::Status {
                status: 429,
                retry_after,
                ..
            } => Some(retry_after.unwrap_or(1)),
            _ => None,
        }
    }
}

impl fmt::Display for CallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ErrorKind::Timeout => write!(f, "{}: no answer within the timeout", self.call),
            ErrorKind::Transport(e) => write!(f, "{}: {e}", self.call),
            ErrorKind::Status {
                status: 429,
                message,
                retry_after,
            } => write!(
                f,
                "{}: 429 rate limited ({message}; retry after {}s): the stack's QUIRE_RATE_* limits are below this load",
                self.call,
                retry_after.unwrap_or(0)
            ),
            ErrorKind::Status {
                status, message, ..
            } => write!(f, "{}: {status} {message}", self.call),
            ErrorKind::Body(what) => write!(f, "{}: {what}", self.call),
        }
    }
}

impl std::error::Error for CallError {}

/// A 2xx answer.
pub struct Reply {
    pub headers: HeaderMap,
    pub bytes: Vec<u8>,
}

impl Api {
    pub fn new(base: &str, timeout: Duration) -> anyhow::Result<Self> {
        let http = reqwest::Client::builder()
            .timeout(timeout)
            .connect_timeout(timeout.min(Duration::from_secs(10)))
            .build()?;
        Ok(Self {
            http,
            base: base.trim_end_matches('/').to_owned(),
        })
    }

    pub fn base(&self) -> &str {
        &self.base
    }

    /// Sends `call`; a 2xx answer's headers and bytes, or what went wrong.
    pub async fn send(&self, call: Call<'_>) -> Result<Reply, CallError> {
        let name = format!("{} /api{}", call.method, call.path);
        let mut req = self
            .http
            .request(call.method, format!("{}/api{}", self.base, call.path))
            .header("Accept", "application/json");
        if !call.query.is_empty() {
            req = req.query(&call.query);
        }
        if let Some(token) = call.token {
            req = req.header(AUTHORIZATION, format!("Bearer {token}"));
        }
        if let Some(key) = call.idempotency_key {
            req = req.header("Idempotency-Key", key);
        }
        req = match call.body {
            Body::None => req,
            Body::Json(v) => req
                .header(CONTENT_TYPE, "application/json")
                .body(v.to_string()),
            Body::Form(fields) => req.form(&fields),
            Body::Multipart(form) => req.multipart(form),
        };
        let fail = |kind| CallError {
            call: name.clone(),
            kind,
        };
        let res = req.send().await.map_err(|e| fail(transport(e)))?;
        let status = res.status();
        let headers = res.headers().clone();
        let bytes = res.bytes().await.map_err(|e| fail(transport(e)))?.to_vec();
        if !status.is_success() {
            let retry_after = headers
                .get(RETRY_AFTER)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.trim().parse().ok());
            return Err(fail(ErrorKind::Status {
                status: status.as_u16(),
                message: said(&bytes),
                retry_after,
            }));
        }
        Ok(Reply { headers, bytes })
    }

    /// Sends `call` and unwraps the envelope: its `data`, when `success` is true.
    pub async fn call(&self, call: Call<'_>) -> Result<Value, CallError> {
        let name = format!("{} /api{}", call.method, call.path);
        let reply = self.send(call).await?;
        let body: Value = serde_json::from_slice(&reply.bytes)
            .map_err(|e| CallError::body(&name, format!("not JSON: {e}")))?;
        if body["success"] != Value::Bool(true) {
            return Err(CallError::body(
                &name,
                format!("success is not true: {}", said(&reply.bytes)),
            ));
        }
        Ok(body["data"].clone())
    }
}

fn transport(e: reqwest::Error) -> ErrorKind {
    if e.is_timeout() {
        ErrorKind::Timeout
    } else {
        // The chain says what failed (connection refused, reset...).
        let mut text = e.to_string();
        let mut source = std::error::Error::source(&e);
        while let Some(s) = source {
            text = format!("{text}: {s}");
            source = s.source();
        }
        ErrorKind::Transport(text)
    }
}

/// The server's words in a failure envelope, or the start of the body.
fn said(bytes: &[u8]) -> String {
    match serde_json::from_slice::<Value>(bytes) {
        Ok(v) => v["message"]
            .as_str()
            .or(v["detail"].as_str())
            .map(str::to_owned)
            .unwrap_or_else(|| v.to_string().chars().take(200).collect()),
        Err(_) => String::from_utf8_lossy(bytes).chars().take(200).collect(),
    }
}

/// A `multipart/form-data` body of text fields and one file (field name, file name,
/// content type, bytes), as a browser's `FormData` sends an upload.
pub fn multipart(
    fields: &[(&str, &str)],
    file: (&str, &str, &str, &[u8]),
) -> reqwest::Result<Body> {
    let mut form = reqwest::multipart::Form::new();
    for (name, value) in fields {
        form = form.text(name.to_string(), value.to_string());
    }
    let (name, file_name, content_type, data) = file;
    let part = reqwest::multipart::Part::bytes(data.to_vec())
        .file_name(file_name.to_owned())
        .mime_str(content_type)?;
    Ok(Body::Multipart(form.part(name.to_owned(), part)))
}
