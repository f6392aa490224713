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

fn too_large() -> Failure {
    Failure(ApiError::new(
        ErrorCode::PayloadTooLarge,
        "payload_too_large",
        "Request body too large",
    ))
}

impl<T: DeserializeOwned + 'static> FromRequest for JsonBody<T> {
    type Error = Failure;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Failure>>>>;

    fn from_request(req: &HttpRequest, payload: &mut actix_web::dev::Payload) -> Self::Future {
        let is_json = req
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| {
                v.split(';')
                    .next()
                    .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"))
            });
        let bytes = web::Bytes::from_request(req, payload);
        Box::pin(async move {
            if !is_json {
                return Err(Failure::bad_request(
                    "bad_content_type",
                    "Content-Type must be application/json",
                ));
            }
            let bytes =
                bytes
                    .await
                    .map_err(|e| match e.as_response_error().status_code().as_u16() {
                        413 => too_large(),
                        _ => Failure::bad_request("invalid_json", "Request body could not be read"),
                    })?;
            let de = &mut serde_json::Deserializer::from_slice(&bytes);
            serde_path_to_error::deserialize(de)
                .map(JsonBody)
                .map_err(|e| {
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
}
