//! Control characters are refused where text comes in (query parameters, JSON strings,
//! form and multipart text fields), with a 400 naming the field, before a call leaves the
//! gateway. The services refuse them again field by field (`quire_kit::input`); this is
//! the net under every route, including the ones added later.
//!
//! Query parameters are single-line; body text may keep line breaks and tabs (a bio, a
//! comment), which the services check per field.

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use quire_kit::input::{self, Lines};
use serde_json::Value;

use crate::envelope::Failure;

/// Refuses a query parameter (name or value) holding a control character.
pub fn query(query_string: &str) -> Result<(), Failure> {
    for (name, value) in
        serde_urlencoded::from_str::<Vec<(String, String)>>(query_string).unwrap_or_default()
    {
        if let Some(c) = input::forbidden_char(&name, Lines::One) {
            return Err(input::refused("query", c).into());
        }
        if let Some(c) = input::forbidden_char(&value, Lines::One) {
            return Err(input::refused(&name, c).into());
        }
    }
    Ok(())
}

/// Refuses form or multipart text holding a control character other than a line break
/// or a tab.
pub fn field(name: &str, value: &str) -> Result<(), Failure> {
    input::no_control(name, value, Lines::Many).map_err(Failure::from)
}

/// Refuses a JSON document with a control character (other than a line break or a tab)
/// in any string, key or value; the field is named by its path (`tags[2]`, `wallet.message`).
pub fn json(value: &Value) -> Result<(), Failure> {
    fn walk(value: &Value, path: &mut String) -> Result<(), Failure> {
        match value {
            Value::String(s) => field(if path.is_empty() { "body" } else { path }, s),
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    let len = path.len();
                    path.push_str(&format!("[{i}]"));
                    walk(item, path)?;
                    path.truncate(len);
                }
                Ok(())
            }
            Value::Object(map) => {
                for (key, item) in map {
                    if let Some(c) = input::forbidden_char(key, Lines::One) {
                        return Err(input::refused("body", c).into());
                    }
                    let len = path.len();
                    if !path.is_empty() {
                        path.push('.');
                    }
                    path.push_str(key);
                    walk(item, path)?;
                    path.truncate(len);
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }
    walk(value, &mut String::new())
}

/// Whether raw JSON may hold a control character: only as an escape (`\u0000`, `\b`,
/// `\f`), since JSON forbids them raw inside strings. A cheap test before a full walk.
pub fn json_may_hold_control(raw: &[u8]) -> bool {
    raw.windows(2)
        .any(|w| w[0] == b'\\' && matches!(w[1], b'u' | b'b' | b'f'))
}

/// The middleware: checks the query string of every `/api` request.
pub async fn middleware(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    // The HTTP parser refuses raw control characters in the request line: they can only
    // come percent-encoded, so a query without `%` needs no decoding to be checked.
    if req.path().starts_with("/api/") && req.query_string().contains('%') {
        query(req.query_string())?;
    }
    next.call(req).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(r: Result<(), Failure>) -> String {
        r.err().map(|f| f.0.message).unwrap_or_default()
    }

    #[test]
    fn a_nul_in_a_query_value_names_the_parameter() {
        assert!(message(query("query=%00")).starts_with("query: "));
        assert!(message(query("page=1&genre=a%01b")).starts_with("genre: "));
        assert!(query("query=moby%20dick&page=2").is_ok());
    }

    #[test]
    fn a_control_character_in_json_is_named_by_its_path() {
        let v: Value = serde_json::from_str(r#"{"bio": "a\u0000b"}"#).unwrap();
        assert!(message(json(&v)).starts_with("bio: "));
        let v: Value = serde_json::from_str(r#"{"wallet": {"tags": ["ok", "b\bad"]}}"#).unwrap();
        assert!(message(json(&v)).starts_with("wallet.tags[1]: "));
        let v: Value = serde_json::from_str(r#"{"content": "line one\nline\ttwo"}"#).unwrap();
        assert!(json(&v).is_ok());
    }

    #[test]
    fn the_quick_test_sees_every_escape_that_can_hide_a_control_character() {
        assert!(json_may_hold_control(br#"{"a": "\u0000"}"#));
        assert!(json_may_hold_control(br#"{"a": "\f"}"#));
        assert!(!json_may_hold_control(br#"{"a": "plain \n text"}"#));
    }
}
