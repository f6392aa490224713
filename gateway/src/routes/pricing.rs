//! Pricing: the revenue curve a writer chooses a book's price with. One call to the
//! manuscript service, which holds the demand model and checks who may price the book;
//! the gateway reads the form strictly (k, n, cost, book_id) so that nonsense is a 400
//! naming the field before any work is done. The service validates again.

use actix_multipart::Multipart;
use actix_web::http::header::CONTENT_TYPE;
use actix_web::{FromRequest, HttpRequest, post, web};
use quire_proto::manuscript::v1 as pb;

use super::pricing_dto::*;
use crate::auth_guard::Authenticated;
use crate::envelope::{Envelope, Failure, Reply, ok};
use crate::form_body::FormBody;
use crate::grpc_call::call;
use crate::multipart::{self, Caps};
use crate::state::AppState;
use crate::{input, money};

/// The fewest and most prices a curve is drawn at.
const MIN_POINTS: u32 = 2;
const MAX_POINTS: u32 = 500;
/// The longest text a share may be written in (`0.900000000`).
const MAX_SHARE_CHARS: usize = 12;

/// The form is four short texts: anything bigger is not this form.
const CAPS: Caps = Caps {
    text_bytes: 256,
    file_bytes: 0,
    fields: 8,
};

/// The writer's share: a plain decimal (digits, optionally a point and digits; no sign,
/// exponent, `NaN` or `inf`) with 0 < k <= 1.
fn share(text: Option<&str>) -> Result<f64, Failure> {
    let text = input::required("k", text)?;
    let refused = || {
        Failure::bad_request(
            "invalid_number",
            "k: must be a decimal more than 0 and at most 1 (the writer's share, e.g. 0.9)",
        )
    };
    let (whole, fraction) = text.split_once('.').unwrap_or((text, "0"));
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if text.len() > MAX_SHARE_CHARS || !digits(whole) || !digits(fraction) {
        return Err(refused());
    }
    let k: f64 = text.parse().map_err(|_| refused())?;
    if k > 0.0 && k <= 1.0 {
        Ok(k)
    } else {
        Err(refused())
    }
}

/// The request the form describes, every field checked.
fn request(form: &RevenueCurveForm) -> Result<pb::RevenueCurveRequest, Failure> {
    let k = share(form.k.as_deref())?;
    let n = input::required("n", form.n.as_deref())?;
    let n = input::number("n", Some(n), MIN_POINTS, MIN_POINTS, MAX_POINTS)?;
    let book_id = input::opt_uuid("book_id", form.book_id.as_deref())?;
    let cost_cents = match form.cost.as_deref().map(str::trim) {
        None | Some("") => 0,
        Some(c) => money::cents_field("cost", c)?,
    };
    Ok(pb::RevenueCurveRequest {
        k,
        n,
        book_id: book_id.map(|b| b.to_string()).unwrap_or_default(),
        cost_cents,
    })
}

fn is_multipart(req: &HttpRequest) -> bool {
    req.headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(';')
                .next()
                .is_some_and(|m| m.trim().eq_ignore_ascii_case("multipart/form-data"))
        })
}

/// The form's fields from a multipart body (what the web app sends) or a urlencoded one.
async fn read_form(req: &HttpRequest, payload: web::Payload) -> Result<RevenueCurveForm, Failure> {
    let mut payload = payload.into_inner();
    if !is_multipart(req) {
        return Ok(
            FormBody::<RevenueCurveForm>::from_request(req, &mut payload)
                .await?
                .into_inner(),
        );
    }
    let form = multipart::read(Multipart::new(req.headers(), payload), &[], CAPS).await?;
    let text = |name: &str| form.text(name).map(str::to_owned);
    Ok(RevenueCurveForm {
        k: text("k"),
        n: text("n"),
        book_id: text("book_id"),
        cost: text("cost"),
    })
}

#[utoipa::path(post, path = "/api/revenue_curve", tag = "pricing",
    request_body(content((RevenueCurveForm = "multipart/form-data"), (RevenueCurveForm = "application/x-www-form-urlencoded"))),
    responses((status = 200, body = Envelope<RevenueCurveOut>, description = "Expected sales and profit at n prices, the price that maximises expected profit and why"),
        (status = 400, description = "k not in (0, 1], n not a whole number from 2 to 500, a bad cost or book_id, or k or n missing; the message names the field"),
        (status = 404, description = "A book the caller may not price (not its writer, its publisher or an admin), or an unknown one")),
    security(("bearer" = [])))]
#[post("/revenue_curve")]
pub async fn revenue_curve(
    req: HttpRequest,
    state: web::Data<AppState>,
    who: Authenticated,
    payload: web::Payload,
) -> Reply {
    let form = read_form(&req, payload).await?;
    let r = state
        .manuscript
        .clone()
        .revenue_curve(call(request(&form)?, Some(&who.0)))
        .await?;
    Ok(ok(RevenueCurveOut::from(r.into_inner())))
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(revenue_curve);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(k: &str, n: &str, cost: Option<&str>) -> RevenueCurveForm {
        RevenueCurveForm {
            k: Some(k.into()),
            n: Some(n.into()),
            book_id: None,
            cost: cost.map(Into::into),
        }
    }

    fn refused_naming(f: RevenueCurveForm, field: &str) {
        let Err(Failure(e)) = request(&f) else {
            panic!("accepted: {f:?}");
        };
        assert!(e.message.starts_with(&format!("{field}:")), "{}", e.message);
    }

    #[test]
    fn a_share_is_a_plain_decimal_above_0_up_to_1() {
        for (k, want) in [("0.9", 0.9), ("1", 1.0), ("1.0", 1.0), ("0.05", 0.05)] {
            assert_eq!(share(Some(k)).unwrap(), want, "{k}");
        }
        for bad in [
            "0",
            "0.0",
            "1.5",
            "1.0001",
            "-0.5",
            "abc",
            "NaN",
            "inf",
            "1e-1",
            ".9",
            "9.",
            "+0.9",
            " ",
            "0.9 0",
            "0.00000000001",
        ] {
            assert!(share(Some(bad)).is_err(), "{bad}");
        }
        assert!(share(None).is_err());
    }

    #[test]
    fn every_bad_field_is_named() {
        assert!(request(&form("0.9", "100", None)).is_ok());
        assert_eq!(
            request(&form("0.9", "2", Some("12.5"))).unwrap().cost_cents,
            1250
        );
        assert_eq!(request(&form("0.9", "500", Some(""))).unwrap().n, 500);
        refused_naming(form("0", "100", None), "k");
        refused_naming(form("0.9", "1", None), "n");
        refused_naming(form("0.9", "501", None), "n");
        refused_naming(form("0.9", "abc", None), "n");
        refused_naming(form("0.9", "", None), "n");
        refused_naming(form("0.9", "100", Some("-1")), "cost");
        refused_naming(form("0.9", "100", Some("1.234")), "cost");
        refused_naming(
            RevenueCurveForm {
                book_id: Some("not-a-book".into()),
                ..form("0.9", "100", None)
            },
            "book_id",
        );
        refused_naming(
            RevenueCurveForm {
                k: None,
                ..form("0.9", "100", None)
            },
            "k",
        );
    }
}
