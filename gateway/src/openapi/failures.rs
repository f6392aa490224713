//! The parts of the OpenAPI document that follow from the routes' shapes rather than from
//! each route's annotation: the failures they share, and bodies that may be left out.

use utoipa::Modify;
use utoipa::openapi::content::Content;
use utoipa::openapi::header::HeaderBuilder;
use utoipa::openapi::path::Operation;
use utoipa::openapi::response::Response;
use utoipa::openapi::schema::{ObjectBuilder, Ref, Type};
use utoipa::openapi::{OpenApi, RefOr, Schema};

/// The failures routes share, declared from the route's shape instead of on each of sixty
/// handlers: any route refuses malformed input (400; a query string with a control
/// character reaches none), may be rate limited (429) or find a service behind it down
/// (503); one with a body refuses one over the limit (413) or too slow to arrive (408);
/// one that reads a token refuses a bad one (401), and an `admin` route a caller who is not
/// an admin (403). What depends on what the service finds (404: not every route with an
/// id in its path can miss; 402, 409, a 403 for someone else's data) is declared on the
/// route. Every failure is declared with the `Failure` envelope.
pub(super) struct Failures;

/// The envelope of every 4xx/5xx answer, as `envelope.rs` writes it.
fn failure_schema() -> Schema {
    let text = |description: &str| {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some(description))
    };
    ObjectBuilder::new()
        .description(Some(
            "A failed call: the HTTP status again, the text in message, detail and data.reason, a machine code in error",
        ))
        .property(
            "code",
            ObjectBuilder::new()
                .schema_type(Type::Integer)
                .minimum(Some(400))
                .maximum(Some(599)),
        )
        .property(
            "success",
            ObjectBuilder::new()
                .schema_type(Type::Boolean)
                .enum_values(Some([false])),
        )
        .property("message", text("What went wrong, for people"))
        .property("detail", text("The same text as message"))
        .property("error", text("A machine-readable reason (invalid_id, rate_limited, ...)"))
        .property(
            "data",
            ObjectBuilder::new()
                .property("reason", text("The same text as message"))
                .required("reason"),
        )
        .required("code")
        .required("success")
        .required("message")
        .required("detail")
        .required("error")
        .required("data")
        .into()
}

/// Routes whose optional body is dropped, never refused, when it cannot be read (logout
/// signs the caller out whatever came with it).
const IGNORES_BAD_BODY: [&str; 1] = ["logout"];

/// The description of a failure status when the route gives none of its own.
fn failure_text(status: &str, anonymous_allowed: bool) -> &'static str {
    match status {
        "400" => "Malformed or invalid input; the message names the field",
        "401" if anonymous_allowed => {
            "A bad, expired or revoked token (callers without one are let through)"
        }
        "401" => "No token, or a bad, expired or revoked one",
        "402" => "Insufficient balance",
        "403" => "Not allowed to the caller (admin routes: not an admin)",
        "404" => "Not found, or not visible to the caller",
        "408" => "The request body did not arrive in time",
        "409" => "Conflict",
        "413" => "Request body too large",
        "429" => "Rate limited; Retry-After tells how many seconds to wait",
        "503" => {
            "A part behind the gateway is down; error names it where it can (cache_unavailable: the shared store), and Retry-After tells how many seconds to wait"
        }
        _ => "Failure",
    }
}

/// (takes a bearer token, also lets anonymous callers through)
fn auth_of(op: &Operation) -> (bool, bool) {
    let requirements: Vec<serde_json::Value> = op
        .security
        .iter()
        .flatten()
        .filter_map(|r| serde_json::to_value(r).ok())
        .collect();
    let bearer = requirements.iter().any(|r| r.get("bearer").is_some());
    let anonymous = requirements
        .iter()
        .any(|r| r.as_object().is_some_and(|o| o.is_empty()));
    (bearer, anonymous)
}

/// A body that may be left out (`Option<T>` in `request_body`) comes out as "null or T",
/// but a JSON `null` is refused like any other body that is not a T: the body is T, and
/// not required.
pub(super) struct OptionalBodies;

fn optional_body_is_not_null(op: &mut Operation) {
    let contents = op
        .request_body
        .iter_mut()
        .flat_map(|b| b.content.values_mut());
    for content in contents {
        if let Some(RefOr::T(Schema::OneOf(one_of))) = &content.schema
            && let Some(body) = one_of.items.iter().find(|i| matches!(i, RefOr::Ref(_)))
        {
            content.schema = Some(body.clone());
        }
    }
}

fn declare_failures(op: &mut Operation) {
    let (bearer, anonymous) = auth_of(op);
    let admin = op.tags.iter().flatten().any(|t| t == "admin");
    let body = op.request_body.is_some()
        && !op
            .operation_id
            .as_deref()
            .is_some_and(|id| IGNORES_BAD_BODY.contains(&id));
    let shared = [
        ("400", true),
        ("401", bearer),
        ("403", admin),
        ("408", body),
        ("413", body),
        ("429", true),
        ("503", true),
    ];
    for (status, applies) in shared {
        if applies {
            op.responses
                .responses
                .entry(status.to_owned())
                .or_insert_with(|| Response::new("").into());
        }
    }
    for (status, response) in &mut op.responses.responses {
        let RefOr::T(response) = response else {
            continue;
        };
        if status.parse::<u16>().is_ok_and(|s| s < 400) {
            continue;
        }
        if response.description.is_empty() {
            response.description = failure_text(status, anonymous).to_owned();
        }
        if response.content.is_empty() {
            response.content.insert(
                "application/json".to_owned(),
                Content::new(Some(Ref::from_schema_name("Failure"))),
            );
        }
        if status == "429" || status == "503" {
            response.headers.insert(
                "Retry-After".to_owned(),
                HeaderBuilder::new()
                    .schema(
                        ObjectBuilder::new()
                            .schema_type(Type::Integer)
                            .minimum(Some(1)),
                    )
                    .description(Some("Seconds to wait"))
                    .build(),
            );
        }
    }
}

/// Every operation of the document.
fn operations(openapi: &mut OpenApi) -> impl Iterator<Item = &mut Operation> {
    openapi.paths.paths.values_mut().flat_map(|item| {
        [
            &mut item.get,
            &mut item.put,
            &mut item.post,
            &mut item.delete,
            &mut item.options,
            &mut item.head,
            &mut item.patch,
            &mut item.trace,
        ]
        .into_iter()
        .flatten()
    })
}

impl Modify for OptionalBodies {
    fn modify(&self, openapi: &mut OpenApi) {
        operations(openapi).for_each(optional_body_is_not_null);
    }
}

impl Modify for Failures {
    fn modify(&self, openapi: &mut OpenApi) {
        openapi
            .components
            .get_or_insert_with(Default::default)
            .schemas
            .insert("Failure".to_owned(), failure_schema().into());
        operations(openapi).for_each(declare_failures);
    }
}
