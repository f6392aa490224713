//! An `application/x-www-form-urlencoded` body extractor whose failures are envelopes
//! naming the problem in plain words, like [`crate::json_body::JsonBody`]. An empty body with no
//! Content-Type reads as a form with no fields (the shop without filters).

use std::future::Future;
use std::pin::Pin;

use actix_web::http::header::CONTENT_TYPE;
use actix_web::{FromRequest, HttpRequest, web};
use serde::de::DeserializeOwned;

use crate::envelope::Failure;
use crate::json_body::unreadable;

pub struct FormBody<T>(pub T);

impl<T> FormBody<T> {
    pub fn into_inner(self) -> T {
        self.0
    }
}

fn content_type(req: &HttpRequest) -> Option<String> {
    req.headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(|m| m.trim().to_ascii_lowercase())
}

impl<T: DeserializeOwned + 'static> FromRequest for FormBody<T> {
    type Error = Failure;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Failure>>>>;

    fn from_request(req: &HttpRequest, payload: &mut actix_web::dev::Payload) -> Self::Future {
        let kind = content_type(req);
        let bytes = web::Bytes::from_request(req, payload);
        Box::pin(async move {
            let bytes = bytes.await.map_err(|e| unreadable(&e, "invalid_form"))?;
            let is_form = kind.as_deref() == Some("application/x-www-form-urlencoded");
            let is_nothing = kind.is_none() && bytes.is_empty();
            if !(is_form || is_nothing) {
                return Err(Failure::bad_request(
                    "bad_content_type",
                    "Content-Type must be application/x-www-form-urlencoded",
                ));
            }
            for (name, value) in
                serde_urlencoded::from_bytes::<Vec<(String, String)>>(&bytes).unwrap_or_default()
            {
                crate::plain_text::field(&name, &value)?;
            }
            serde_urlencoded::from_bytes(&bytes)
                .map(FormBody)
                .map_err(|e| {
                    Failure::bad_request(
                        "invalid_form",
                        crate::field_words::plain(None, &e.to_string()),
                    )
                })
        })
    }
}

#[cfg(test)]
mod tests {
    use actix_web::test::TestRequest;
    use serde::Deserialize;

    use super::*;

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Filter {
        genre: Option<String>,
        page: Option<u32>,
    }

    async fn message(body: &'static str) -> String {
        let (req, mut payload) = TestRequest::post()
            .insert_header(("content-type", "application/x-www-form-urlencoded"))
            .set_payload(body)
            .to_http_parts();
        match FormBody::<Filter>::from_request(&req, &mut payload).await {
            Ok(_) => String::new(),
            Err(e) => e.to_string(),
        }
    }

    #[actix_web::test]
    async fn a_form_field_given_twice_is_named_in_plain_words() {
        assert_eq!(message("genre=a&page=2").await, "");
        assert_eq!(
            message("genre=a&genre=b").await,
            "genre: given more than once"
        );
    }
}
