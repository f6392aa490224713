//! Plain words for what serde says about the fields of a request (JSON bodies, forms, query
//! strings). serde speaks to developers (`invalid type: string "x", expected u32`); a
//! person reads the reply too, so each of its messages becomes one of the spec's generic
//! kinds (required, minimum, maximum, invalid type, enum) in words, still naming the field.
//! Only the words change here: the status and the machine code stay the caller's.

/// `said` is serde's message without its position; `field` the path of the value it was
/// reading (`None` for the body itself).
pub fn plain(field: Option<&str>, said: &str) -> String {
    let named = |name: &str| match field {
        Some(path) => format!("{path}.{name}"),
        None => name.to_owned(),
    };
    if let Some(rest) = said.strip_prefix("missing field ") {
        return format!(
            "{}: required",
            named(quoted(rest).first().copied().unwrap_or(rest))
        );
    }
    if let Some(rest) = said.strip_prefix("duplicate field ") {
        let name = quoted(rest).first().copied().unwrap_or(rest);
        return format!("{}: given more than once", named(name));
    }
    // The name or value the client sent comes first and may hold anything, backticks too:
    // the list of what is allowed is read from after the last ", expected ".
    if let Some(rest) = said.strip_prefix("unknown field ") {
        let (sent, known) = rest
            .rsplit_once(", expected ")
            .or_else(|| rest.rsplit_once(", there are no "))
            .unwrap_or((rest, ""));
        let name = sent
            .strip_prefix('`')
            .and_then(|n| n.strip_suffix('`'))
            .unwrap_or(sent);
        let known = quoted(known);
        return match Some(known).filter(|n| !n.is_empty()) {
            Some(known) => format!(
                "{}: not a field of this request (it takes {})",
                named(name),
                known.join(", ")
            ),
            None => format!("{}: not a field of this request", named(name)),
        };
    }
    if let Some(rest) = said.strip_prefix("unknown variant ") {
        let allowed = rest.rsplit_once(", expected ").map(|(_, a)| quoted(a));
        return match allowed.filter(|n| !n.is_empty()) {
            Some(allowed) => about(field, format!("must be one of {}", allowed.join(", "))),
            None => about(field, "is not an allowed value".into()),
        };
    }
    if let Some((given, expected)) = said
        .strip_prefix("invalid type: ")
        .and_then(|rest| rest.rsplit_once(", expected "))
    {
        return about(
            field,
            format!("must be {}{}", expected_words(expected), not_this(given)),
        );
    }
    if let Some((given, expected)) = said
        .strip_prefix("invalid value: ")
        .and_then(|rest| rest.rsplit_once(", expected "))
    {
        if is_integer_type(expected) && given.starts_with("integer `") {
            let words = match (given.starts_with("integer `-"), expected.starts_with('u')) {
                (true, true) => "must be 0 or more",
                (true, false) => "is too small",
                (false, _) => "is too large",
            };
            return about(field, words.into());
        }
        return about(
            field,
            format!("must be {}{}", expected_words(expected), not_this(given)),
        );
    }
    if let Some((_, expected)) = said
        .strip_prefix("invalid length ")
        .and_then(|rest| rest.rsplit_once(", expected "))
    {
        return about(field, format!("must have {expected}"));
    }
    match field {
        Some(path) => format!("{path}: {said}"),
        None => capitalized(said),
    }
}

/// `field: words`, or a sentence about the whole body.
fn about(field: Option<&str>, words: String) -> String {
    match field {
        Some(path) => format!("{path}: {words}"),
        None => format!("The request body {words}"),
    }
}

/// The names serde puts between backticks, in order.
fn quoted(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

fn is_integer_type(expected: &str) -> bool {
    matches!(
        expected,
        "u8" | "u16"
            | "u32"
            | "u64"
            | "u128"
            | "usize"
            | "i8"
            | "i16"
            | "i32"
            | "i64"
            | "i128"
            | "isize"
    )
}

/// serde's name of what it wanted, in the words of a form.
fn expected_words(expected: &str) -> String {
    let words = match expected {
        e if is_integer_type(e) => "a whole number",
        "f32" | "f64" => "a number",
        "a string" | "string" | "a borrowed string" => "text",
        "a boolean" => "true or false",
        "a sequence" => "a list",
        "a map" => "an object",
        "a character" | "char" => "a single character",
        e if e.starts_with("struct ") => "an object",
        e if e.starts_with("enum ") => "one of the allowed values",
        e if e.to_ascii_lowercase().contains("uuid") => "a valid id",
        e => e,
    };
    words.to_owned()
}

/// `, not …` for what was sent instead, when it can be said shortly (never the text itself).
fn not_this(given: &str) -> String {
    let shown = |prefix: &str| {
        given
            .strip_prefix(prefix)
            .map(|v| v.trim_matches('`').to_owned())
    };
    let what = if given.starts_with("string ") {
        Some("text".to_owned())
    } else if let Some(v) = shown("integer ").or_else(|| shown("floating point ")) {
        Some(v)
    } else if let Some(v) = shown("boolean ") {
        Some(v)
    } else {
        match given {
            "null" | "unit value" | "unit" => Some("null".to_owned()),
            "map" => Some("an object".to_owned()),
            "sequence" => Some("a list".to_owned()),
            _ => None,
        }
    };
    what.map(|w| format!(", not {w}")).unwrap_or_default()
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wrong_type_says_what_the_field_must_be() {
        assert_eq!(
            plain(Some("page"), "invalid type: string \"two\", expected u32"),
            "page: must be a whole number, not text"
        );
        assert_eq!(
            plain(
                Some("email"),
                "invalid type: integer `12`, expected a string"
            ),
            "email: must be text, not 12"
        );
        assert_eq!(
            plain(
                Some("page"),
                "invalid type: floating point `2.5`, expected u32"
            ),
            "page: must be a whole number, not 2.5"
        );
        assert_eq!(
            plain(
                Some("on"),
                "invalid type: string \"yes\", expected a boolean"
            ),
            "on: must be true or false, not text"
        );
        assert_eq!(
            plain(None, "invalid type: sequence, expected struct LoginBody"),
            "The request body must be an object, not a list"
        );
    }

    #[test]
    fn what_the_client_typed_is_never_repeated() {
        let m = plain(
            Some("name"),
            "invalid type: string \"<b>, expected x\", expected u32",
        );
        assert_eq!(m, "name: must be a whole number, not text");
    }

    #[test]
    fn missing_and_repeated_fields_are_named() {
        assert_eq!(
            plain(None, "missing field `password`"),
            "password: required"
        );
        assert_eq!(
            plain(Some("profile"), "missing field `name`"),
            "profile.name: required"
        );
        assert_eq!(
            plain(None, "duplicate field `page`"),
            "page: given more than once"
        );
        assert_eq!(
            plain(None, "unknown field `pge`, expected `page` or `page_size`"),
            "pge: not a field of this request (it takes page, page_size)"
        );
    }

    #[test]
    fn numbers_out_of_range_say_which_end() {
        assert_eq!(
            plain(Some("page"), "invalid value: integer `-1`, expected u32"),
            "page: must be 0 or more"
        );
        assert_eq!(
            plain(Some("shift"), "invalid value: integer `-200`, expected i8"),
            "shift: is too small"
        );
        assert_eq!(
            plain(
                Some("page"),
                "invalid value: integer `99999999999`, expected u32"
            ),
            "page: is too large"
        );
    }

    #[test]
    fn backticks_sent_by_the_client_do_not_change_the_allowed_list() {
        assert_eq!(
            plain(
                Some("role"),
                "unknown variant `a`, `b`, expected `reader` or `writer`"
            ),
            "role: must be one of reader, writer"
        );
        assert_eq!(
            plain(Some("role"), "unknown variant `x`, there are no variants"),
            "role: is not an allowed value"
        );
        assert_eq!(
            plain(None, "unknown field `a`b`, there are no fields"),
            "a`b: not a field of this request"
        );
    }

    #[test]
    fn an_enum_lists_its_values() {
        assert_eq!(
            plain(
                Some("role"),
                "unknown variant `king`, expected one of `reader`, `writer`, `publisher`"
            ),
            "role: must be one of reader, writer, publisher"
        );
    }

    #[test]
    fn no_message_keeps_rust_type_names() {
        for said in [
            "invalid type: string \"x\", expected u64",
            "invalid type: boolean `true`, expected i64",
            "invalid type: map, expected f64",
            "invalid value: string \"x\", expected a UUID string",
        ] {
            let m = plain(Some("f"), said);
            for word in ["u64", "i64", "f64", "UUID", "invalid", "expected"] {
                assert!(!m.contains(word), "{m}");
            }
        }
    }

    #[test]
    fn anything_else_keeps_serdes_words_with_the_field() {
        assert_eq!(
            plain(Some("amount"), "amount is not a number"),
            "amount: amount is not a number"
        );
        assert_eq!(plain(None, "something odd"), "Something odd");
    }
}
