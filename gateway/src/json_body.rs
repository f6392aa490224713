//! A JSON body extractor whose errors name the offending field in plain words (`email:
//! must be text, not 12`), as DESIGN.md section 4 asks of every 400.

use std::future::Future;
use std::pin::Pin;

use actix_web::{FromRequest, HttpRequest, web};
use quire_kit::{ApiError, ErrorCode};
use serde::de::DeserializeOwned;
use serde_json::error::Category;

use crate::envelope::Failure;

pub struct JsonBody<T>(pub T);

impl<T> JsonBody<T> {
    pub fn into_inner(self) -> T {
        self.0
    }
}

/// The failure of reading a request body: too large (413), too slow (408), or `reason`
/// (400).
pub(crate) fn unreadable(error: &actix_web::Error, reason: &str) -> Failure {
    if error
        .as_error::<actix_web::error::PayloadError>()
        .is_some_and(|e| crate::body_deadline::timed_out(e))
    {
        return crate::body_deadline::failure();
    }
    if error.as_response_error().status_code().as_u16() == 413 {
        Failure(ApiError::new(
            ErrorCode::PayloadTooLarge,
            "payload_too_large",
            "Request body too large",
        ))
    } else {
        Failure::bad_request(reason, "Request body could not be read")
    }
}

fn is_json(req: &HttpRequest) -> bool {
    req.headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(';')
                .next()
                .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"))
        })
}

/// Reads the body of `req` as JSON. With `optional`, a body of nothing (or only blanks)
/// is `None` whatever the Content-Type says.
fn read<T: DeserializeOwned + 'static>(
    req: &HttpRequest,
    payload: &mut actix_web::dev::Payload,
    optional: bool,
) -> Pin<Box<dyn Future<Output = Result<Option<T>, Failure>>>> {
    let is_json = is_json(req);
    let bytes = web::Bytes::from_request(req, payload);
    Box::pin(async move {
        let bytes = bytes.await.map_err(|e| unreadable(&e, "invalid_json"))?;
        if optional && bytes.trim_ascii().is_empty() {
            return Ok(None);
        }
        if !is_json {
            return Err(Failure::bad_request(
                "bad_content_type",
                "Content-Type must be application/json",
            ));
        }
        if bytes.trim_ascii().is_empty() {
            return Err(Failure::bad_request(
                "invalid_json",
                "The request body is empty",
            ));
        }
        if crate::plain_text::json_may_hold_control(&bytes)
            && let Ok(value) = serde_json::from_slice::<serde_json::Value>(&bytes)
        {
            crate::plain_text::json(&value)?;
        }
        let de = &mut serde_json::Deserializer::from_slice(&bytes);
        serde_path_to_error::deserialize(de).map(Some).map_err(|e| {
            let path = e.path().to_string();
            let field = Some(path.as_str()).filter(|p| !p.is_empty() && *p != ".");
            Failure::bad_request("invalid_json", plain_words(field, e.inner()))
        })
    })
}

/// What went wrong with a JSON body, said for a person: text that is not JSON, or a value
/// that does not fit its field (see [`crate::field_words`]).
fn plain_words(field: Option<&str>, error: &serde_json::Error) -> String {
    let said = error.to_string();
    let position = format!(" at line {} column {}", error.line(), error.column());
    let said = said.strip_suffix(&position).unwrap_or(&said);
    match error.classify() {
        Category::Data => crate::field_words::plain(field, said),
        Category::Eof => "The request body is not valid JSON: it ends too soon".into(),
        Category::Syntax | Category::Io => {
            let at = format!("(line {}, column {})", error.line(), error.column());
            match field {
                Some(path) => format!("{path}: not a valid JSON value {at}"),
                None => format!("The request body is not valid JSON {at}"),
            }
        }
    }
}

impl<T: DeserializeOwned + 'static> FromRequest for JsonBody<T> {
    type Error = Failure;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Failure>>>>;

    fn from_request(req: &HttpRequest, payload: &mut actix_web::dev::Payload) -> Self::Future {
        let body = read(req, payload, false);
        Box::pin(async move {
            body.await?
                .map(JsonBody)
                .ok_or_else(|| Failure::bad_request("invalid_json", "The request body is empty"))
        })
    }
}

/// A JSON body that may be left out: no body at all reads as `T::default()` (a POST the
/// browser sends without payload); a body that is there must be JSON like [`JsonBody`].
pub struct OptionalJsonBody<T>(pub T);

impl<T> OptionalJsonBody<T> {
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T: DeserializeOwned + Default + 'static> FromRequest for OptionalJsonBody<T> {
    type Error = Failure;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Failure>>>>;

    fn from_request(req: &HttpRequest, payload: &mut actix_web::dev::Payload) -> Self::Future {
        let body = read(req, payload, true);
        Box::pin(async move { Ok(OptionalJsonBody(body.await?.unwrap_or_default())) })
    }
}

#[cfg(test)]
mod tests {
    use actix_web::test::TestRequest;
    use serde::Deserialize;
    use serde_json::value::RawValue;

    use super::*;

    #[derive(Debug, Default, Deserialize)]
    struct Amount {
        #[allow(dead_code)]
        amount: Option<Box<RawValue>>,
    }

    async fn message<E: FromRequest>(content_type: Option<&str>, body: &'static str) -> String
    where
        E::Error: std::fmt::Display,
    {
        let mut req = TestRequest::post().set_payload(body);
        if let Some(ct) = content_type {
            req = req.insert_header(("content-type", ct));
        }
        let (req, mut payload) = req.to_http_parts();
        match E::from_request(&req, &mut payload).await {
            Ok(_) => String::new(),
            Err(e) => e.to_string(),
        }
    }

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Search {
        query: String,
        page: Option<u32>,
    }

    const JSON: Option<&str> = Some("application/json");

    #[actix_web::test]
    async fn a_value_that_is_not_json_is_named_by_its_field() {
        let m = message::<JsonBody<Amount>>(JSON, "{\"amount\": NaN}").await;
        assert!(
            m.starts_with("amount: not a valid JSON value (line 1, column "),
            "{m}"
        );
    }

    #[actix_web::test]
    async fn a_wrong_value_is_refused_in_plain_words_naming_its_field() {
        let m = message::<JsonBody<Search>>(JSON, r#"{"query": "x", "page": "two"}"#).await;
        assert_eq!(m, "page: must be a whole number, not text");
        let m = message::<JsonBody<Search>>(JSON, r#"{"query": "x", "page": 2.5}"#).await;
        assert_eq!(m, "page: must be a whole number, not 2.5");
        let m = message::<JsonBody<Search>>(JSON, r#"{"query": "x", "page": -1}"#).await;
        assert_eq!(m, "page: must be 0 or more");
        let m = message::<JsonBody<Search>>(JSON, r#"{"query": 7}"#).await;
        assert_eq!(m, "query: must be text, not 7");
        let m = message::<JsonBody<Search>>(JSON, r#"{"page": 1}"#).await;
        assert_eq!(m, "query: required");
        let m = message::<JsonBody<Search>>(JSON, r#""whale""#).await;
        assert_eq!(m, "The request body must be an object, not text");
    }

    #[actix_web::test]
    async fn text_that_is_not_json_is_said_so_without_parser_jargon() {
        let m = message::<JsonBody<Search>>(JSON, r#"{"query": "#).await;
        assert_eq!(m, "The request body is not valid JSON: it ends too soon");
        let m = message::<JsonBody<Search>>(JSON, "query=x").await;
        assert_eq!(m, "The request body is not valid JSON (line 1, column 1)");
        let m = message::<JsonBody<Search>>(JSON, "").await;
        assert_eq!(m, "The request body is empty");
    }

    #[actix_web::test]
    async fn an_optional_body_may_be_left_out_but_not_be_something_else() {
        assert_eq!(message::<OptionalJsonBody<Amount>>(None, "").await, "");
        assert_eq!(
            message::<OptionalJsonBody<Amount>>(Some("text/plain"), " ").await,
            ""
        );
        let m = message::<OptionalJsonBody<Amount>>(Some("text/plain"), "amount=1").await;
        assert!(m.contains("Content-Type"), "{m}");
        let m = message::<JsonBody<Amount>>(None, "").await;
        assert!(m.contains("Content-Type"), "{m}");
    }
}
