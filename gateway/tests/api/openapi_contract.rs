//! The OpenAPI document against the gateway that serves it: every documented operation is
//! routed, a known path asked with another method answers 405, and what the document says
//! of failures and ids holds for every route. (`deploy/local/schemathesis.sh` checks the
//! answers against the document on a running stack.)

use serde_json::Value;

use crate::support::{TestApp, assert_failure};

const METHODS: [&str; 5] = ["get", "put", "post", "delete", "patch"];

fn document() -> Value {
    serde_json::from_str(&quire_gateway::openapi::document()).unwrap()
}

/// (path, method, operation) of every operation of the document.
fn operations(doc: &Value) -> Vec<(String, String, Value)> {
    let mut all = vec![];
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in METHODS {
            if let Some(op) = item.get(method) {
                all.push((path.clone(), method.to_owned(), op.clone()));
            }
        }
    }
    assert!(all.len() > 50, "{} operations", all.len());
    all
}

fn takes_bearer(op: &Value) -> bool {
    op["security"]
        .as_array()
        .is_some_and(|s| s.iter().any(|r| r.get("bearer").is_some()))
}

#[test]
fn every_route_declares_its_failures_with_the_envelope() {
    let doc = document();
    let failure = &doc["components"]["schemas"]["Failure"];
    for field in ["code", "success", "message", "detail", "error", "data"] {
        assert!(failure["properties"][field].is_object(), "Failure.{field}");
    }
    for (path, method, op) in operations(&doc) {
        let at = format!("{method} {path}");
        let responses = op["responses"].as_object().unwrap();
        let mut expected = vec!["400", "429", "503"];
        if takes_bearer(&op) {
            expected.push("401");
        }
        if op["tags"][0] == "admin" {
            expected.push("403");
        }
        for status in expected {
            assert!(
                responses.contains_key(status),
                "{at} does not declare {status}"
            );
        }
        assert!(
            responses["429"]["headers"]["Retry-After"].is_object(),
            "{at}: 429 without Retry-After"
        );
        for (status, response) in responses {
            if status.as_str() >= "400" {
                assert_eq!(
                    response["content"]["application/json"]["schema"]["$ref"],
                    "#/components/schemas/Failure",
                    "{at} {status}"
                );
                assert_ne!(response["description"], "", "{at} {status}");
            }
        }
    }
}

fn is_id(name: &str) -> bool {
    name == "id" || name.ends_with("_id") || name.ends_with("uid") || name == "created_by"
}

/// The ids that are no UUIDs, named where they are (`at`: the schema or operation): a
/// conversation's id is made by the client (1-64 of `A-Za-z0-9_-`; the web app sends a
/// UUID), and a mood's id is its name (`cosy`).
fn not_a_uuid(at: &str, name: &str) -> bool {
    name == "conversation_id" || (at.ends_with("/MoodOut") && name == "id")
}

/// Every property named like an id, in every schema under `value`, is a UUID.
fn ids_are_uuids(value: &Value, at: &str) {
    match value {
        Value::Object(map) => {
            if let Some(Value::Object(properties)) = map.get("properties") {
                for (name, schema) in properties {
                    if is_id(name) && !not_a_uuid(at, name) {
                        assert_eq!(schema["format"], "uuid", "{at}.{name}: {schema}");
                    }
                }
            }
            for (key, inner) in map {
                ids_are_uuids(inner, &format!("{at}/{key}"));
            }
        }
        Value::Array(items) => items.iter().for_each(|i| ids_are_uuids(i, at)),
        _ => {}
    }
}

#[test]
fn every_id_in_the_document_is_a_uuid() {
    let doc = document();
    ids_are_uuids(&doc, "");
    let mut checked = 0;
    for (path, method, op) in operations(&doc) {
        for param in op["parameters"].as_array().into_iter().flatten() {
            let name = param["name"].as_str().unwrap();
            if is_id(name) && !not_a_uuid(&path, name) {
                assert_eq!(param["schema"]["format"], "uuid", "{method} {path} {name}");
                checked += 1;
            }
        }
    }
    assert!(checked > 20, "{checked} id parameters");
}

#[tokio::test(flavor = "multi_thread")]
async fn every_documented_operation_is_routed_and_other_methods_get_405() {
    let app = TestApp::spawn().await;

    // A known path with a method it does not take: 405, the envelope and Allow.
    for (method, path, allow) in [
        ("DELETE", "/api/login/", "POST"),
        (
            "PATCH",
            "/api/books/0190c2a4-6a6e-7b6e-8d1c-3f4e5a6b7c8d/progress",
            "GET, PUT",
        ),
        ("POST", "/api/openapi.json", "GET"),
    ] {
        let r = app
            .http
            .request(method.parse().unwrap(), app.url(path))
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        assert_eq!(r.headers()["allow"], allow, "{method} {path}");
        let body: Value = r.json().await.unwrap();
        assert_failure(status, &body, 405, None);
        assert_eq!(body["error"], "method_not_allowed", "{body}");
    }

    // An unknown path stays 404, whatever the method.
    for (method, path) in [
        ("GET", "/api/nonexistent"),
        ("DELETE", "/api/nonexistent"),
        ("POST", "/api/login"),
        ("GET", "/api/books//content"),
    ] {
        let r = app.http.request(method.parse().unwrap(), app.url(path));
        let (status, body) = app.send(r).await;
        assert_failure(status, &body, 404, None);
        assert_eq!(body["error"], "no_such_route", "{method} {path}: {body}");
    }

    // Every documented operation reaches its handler: neither 405 nor "no such route".
    for (path, method, _) in operations(&document()) {
        let path = path
            .split('/')
            .map(|s| {
                if s.starts_with('{') {
                    "0190c2a4-6a6e-7b6e-8d1c-3f4e5a6b7c8d"
                } else {
                    s
                }
            })
            .collect::<Vec<_>>()
            .join("/");
        let r = app
            .http
            .request(method.to_uppercase().parse().unwrap(), app.url(&path));
        let r = r.send().await.unwrap();
        let status = r.status().as_u16();
        let body = r.text().await.unwrap();
        assert_ne!(status, 405, "{method} {path}: {body}");
        assert!(!body.contains("no_such_route"), "{method} {path}: {body}");
        assert!(status < 500, "{method} {path}: {status} {body}");
    }
}
