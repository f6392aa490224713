//! The `Idempotency-Key` header of the calls that move money (DESIGN.md section 4). The
//! gateway only checks its shape and passes it on: the wallet service keeps the keys and
//! replays the first answer.

use actix_web::HttpRequest;

use crate::envelope::Failure;

pub const HEADER: &str = "Idempotency-Key";
/// The longest key accepted.
pub const MAX_LEN: usize = 200;

/// The request's key, empty when it sends none. A key is 1 to [`MAX_LEN`] printable ASCII
/// characters, given once; anything else is a 400 naming the header.
pub fn key(req: &HttpRequest) -> Result<String, Failure> {
    let mut values = req.headers().get_all(HEADER);
    let Some(value) = values.next() else {
        return Ok(String::new());
    };
    let refused = || {
        Failure::bad_request(
            "invalid_idempotency_key",
            format!("{HEADER}: must be given once, 1 to {MAX_LEN} printable ASCII characters"),
        )
    };
    if values.next().is_some() {
        return Err(refused());
    }
    let text = value.to_str().map_err(|_| refused())?;
    if valid(text) {
        Ok(text.to_owned())
    } else {
        Err(refused())
    }
}

fn valid(text: &str) -> bool {
    (1..=MAX_LEN).contains(&text.len()) && text.bytes().all(|b| (b' '..=b'~').contains(&b))
}

#[cfg(test)]
mod tests {
    use actix_web::test::TestRequest;

    use super::*;

    #[test]
    fn keys_are_short_printable_ascii() {
        assert!(valid("a"));
        assert!(valid("3f1c0a5e-0b7e-4c1e-9a59-2f7f3b1d2c4e"));
        assert!(valid(&"k".repeat(MAX_LEN)));
        assert!(!valid(""));
        assert!(!valid(&"k".repeat(MAX_LEN + 1)));
        assert!(!valid("tab\there"));
        assert!(!valid("clé"));
    }

    #[test]
    fn no_header_is_no_key_and_a_repeated_one_is_refused() {
        let req = TestRequest::default().to_http_request();
        assert_eq!(key(&req).unwrap(), "");
        let req = TestRequest::default()
            .insert_header((HEADER, "abc"))
            .to_http_request();
        assert_eq!(key(&req).unwrap(), "abc");
        let req = TestRequest::default()
            .append_header((HEADER, "a"))
            .append_header((HEADER, "b"))
            .to_http_request();
        assert!(key(&req).is_err());
    }
}
