//! A JSON body extractor whose errors name the offending field (`email: invalid type:
//! integer, expected a string`), as DESIGN.md section 4 asks of every 400.

use std::future::Future;
use std::pin::Pin;

use actix_web::{FromRequest, HttpRequest, web};
use quire_kit::{ApiError, ErrorCode};
use serde::de::DeserializeOwned;

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
        if crate::plain_text::json_may_hold_control(&bytes)
            && let Ok(value) = serde_json::from_slice::<serde_json::Value>(&bytes)
        {
            crate::plain_text::json(&value)?;
        }
        let de = &mut serde_json::Deserializer::from_slice(&bytes);
        serde_path_to_error::deserialize(de).map(Some).map_err(|e| {
            let path = e.path().to_string();
            let inner = e.into_inner();
            let message = if path.is_empty() || path == "." {
                format!("Invalid request body: {inner}")
            } else {
                format!("{path}: {inner}")
            };
            Failure::bad_request("invalid_json", message)
        })
    })
}

impl<T: DeserializeOwned + 'static> FromRequest for JsonBody<T> {
    type Error = Failure;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Failure>>>>;

    fn from_request(req: &HttpRequest, payload: &mut actix_web::dev::Payload) -> Self::Future {
        let body = read(req, payload, false);
        Box::pin(async move {
            body.await?
                .map(JsonBody)
                .ok_or_else(|| Failure::bad_request("invalid_json", "Invalid request body: empty"))
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

    #[actix_web::test]
    async fn a_value_that_is_not_json_is_named_by_its_field() {
        let m = message::<JsonBody<Amount>>(Some("application/json"), "{\"amount\": NaN}").await;
        assert!(m.starts_with("amount: "), "{m}");
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
