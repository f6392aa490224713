//! Who is calling: the claims of Quire's access tokens and their verification.
//!
//! Auth signs access tokens with Ed25519 (EdDSA, with a `kid`); the gateway and every
//! service verify them against auth's JWKS. The gateway forwards the caller's bearer
//! token in gRPC metadata, and each service checks it again before trusting it.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::ApiError;

pub const ISSUER: &str = "quire-auth";
pub const AUDIENCE: &str = "quire";
/// Clock skew allowed between auth and a verifier, in seconds.
const LEEWAY_SECS: u64 = 5;

/// The claims of an access token.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Claims {
    pub sub: Uuid,
    /// The role the user acts in now; switching role issues a new token.
    pub role: String,
    /// Every role the user holds.
    pub roles: Vec<String>,
    pub jti: Uuid,
    /// The session the token belongs to: the refresh-token family it was issued with. Ending
    /// the session (logout, a replayed refresh token) refuses every access token of it.
    /// Tokens signed before sessions had ids carry none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sid: Option<Uuid>,
    pub iat: i64,
    pub exp: i64,
    pub iss: String,
    pub aud: String,
}

/// A verified caller, put into each request's extensions.
#[derive(Debug, Clone, PartialEq)]
pub struct Caller {
    pub claims: Claims,
    /// The raw token, forwarded on internal calls.
    pub token: String,
}

impl Caller {
    pub fn user_id(&self) -> Uuid {
        self.claims.sub
    }
    pub fn is_admin(&self) -> bool {
        self.claims.roles.iter().any(|r| r == "admin")
    }
    /// A `uid`-style parameter must name the caller unless the caller is an admin.
    pub fn may_act_for(&self, user_id: Uuid) -> bool {
        self.claims.sub == user_id || self.is_admin()
    }
    pub fn require_admin(&self) -> Result<(), ApiError> {
        if self.is_admin() {
            Ok(())
        } else {
            Err(ApiError::forbidden("Admin role required"))
        }
    }
    /// The user a request's `field` (a `uid`, `user_id`, ...) names: empty names the
    /// caller; anyone else only for an admin (400 for what is not an id, 403 otherwise).
    pub fn acting_for(&self, field: &str, value: &str) -> Result<Uuid, ApiError> {
        let value = value.trim();
        if value.is_empty() {
            return Ok(self.user_id());
        }
        let id = Uuid::parse_str(value).map_err(|_| {
            ApiError::bad_request(
                format!("invalid_{field}"),
                format!("{field} must be a UUID"),
            )
        })?;
        if self.may_act_for(id) {
            Ok(id)
        } else {
            Err(ApiError::forbidden(format!(
                "{field} must name yourself unless you are an admin"
            )))
        }
    }
}

/// How many verified tokens a verifier remembers (a few hundred bytes each).
const VERIFIED_TOKENS: usize = 20_000;

/// Verifies access tokens against a set of public keys, by `kid`.
///
/// A token that verified is remembered, by its exact text, until it expires or the keys
/// change: a request passes the gateway and one or two services, each checking the same
/// token, and an Ed25519 signature check costs more than the rest of a short call's
/// handling. The same text always verifies the same way, so only the expiry is checked
/// again; a forged or altered token never matches a remembered one.
#[derive(Clone)]
pub struct TokenVerifier {
    keys: Arc<RwLock<HashMap<String, DecodingKey>>>,
    verified: Arc<quick_cache::sync::Cache<String, Claims>>,
}

impl Default for TokenVerifier {
    fn default() -> Self {
        Self {
            keys: Arc::default(),
            verified: Arc::new(quick_cache::sync::Cache::new(VERIFIED_TOKENS)),
        }
    }
}

impl TokenVerifier {
    /// Replaces the known keys with those of a JWKS document.
    pub fn load_jwks(&self, jwks_json: &str) -> Result<usize, ApiError> {
        let set: JwkSet = serde_json::from_str(jwks_json)
            .map_err(|e| ApiError::internal(&format!("bad jwks: {e}")))?;
        let mut keys = HashMap::new();
        for jwk in &set.keys {
            let Some(kid) = jwk.common.key_id.clone() else {
                continue;
            };
            match DecodingKey::from_jwk(jwk) {
                Ok(k) => {
                    keys.insert(kid, k);
                }
                Err(error) => tracing::warn!(%error, kid, "skipping unusable jwk"),
            }
        }
        let n = keys.len();
        if let Ok(mut guard) = self.keys.write() {
            *guard = keys;
        }
        // A key withdrawn must take its tokens with it.
        self.verified.clear();
        Ok(n)
    }

    pub fn knows(&self, kid: &str) -> bool {
        self.keys.read().is_ok_and(|k| k.contains_key(kid))
    }

    /// The `kid` a token names, without verifying anything.
    pub fn kid_of(token: &str) -> Option<String> {
        jsonwebtoken::decode_header(token).ok().and_then(|h| h.kid)
    }

    /// Checks signature, issuer, audience and expiry.
    pub fn verify(&self, token: &str) -> Result<Caller, ApiError> {
        let bad = || ApiError::unauthenticated("Invalid or expired token");
        if let Some(claims) = self.verified.get(token) {
            // The same leeway as the full check below.
            if chrono::Utc::now().timestamp() > claims.exp + LEEWAY_SECS as i64 {
                self.verified.remove(token);
                return Err(bad());
            }
            return Ok(Caller {
                claims,
                token: token.to_owned(),
            });
        }
        let caller = self.verify_signed(token).ok_or_else(bad)?;
        self.verified
            .insert(token.to_owned(), caller.claims.clone());
        Ok(caller)
    }

    /// The full check: signature, issuer, audience and expiry.
    fn verify_signed(&self, token: &str) -> Option<Caller> {
        let kid = Self::kid_of(token)?;
        let guard = self.keys.read().ok()?;
        let key = guard.get(&kid)?;
        let mut validation = Validation::new(Algorithm::EdDSA);
        validation.set_issuer(&[ISSUER]);
        validation.set_audience(&[AUDIENCE]);
        validation.leeway = LEEWAY_SECS;
        let data = jsonwebtoken::decode::<Claims>(token, key, &validation).ok()?;
        Some(Caller {
            claims: data.claims,
            token: token.to_owned(),
        })
    }
}

/// The bearer token of an `authorization` value, if it is one.
pub fn bearer(value: &str) -> Option<&str> {
    let (scheme, token) = value.split_once(' ')?;
    (scheme.eq_ignore_ascii_case("bearer") && !token.trim().is_empty()).then(|| token.trim())
}

/// The verified caller of a gRPC request, as put there by [`crate::grpc::identity`].
pub fn caller_of<T>(request: &tonic::Request<T>) -> Result<&Caller, ApiError> {
    request
        .extensions()
        .get::<Caller>()
        .ok_or_else(|| ApiError::unauthenticated("Authentication required"))
}

/// The Redis key that marks an access token as revoked (logout) until it expires.
pub fn revoked_key(jti: &Uuid) -> String {
    format!("quire:revoked:{jti}")
}

/// The Redis key that marks a session (a refresh-token family, [`Claims::sid`]) as ended:
/// its access tokens are refused until the last of them expires.
pub fn session_ended_key(sid: &Uuid) -> String {
    format!("quire:session-ended:{sid}")
}

/// The Redis key holding when every session of a user ended (a password reset), in Unix
/// milliseconds: the user's access tokens issued until then are refused until they expire.
pub fn sessions_ended_key(user_id: &Uuid) -> String {
    format!("quire:sessions-ended:{user_id}")
}

impl Claims {
    /// When the token was issued, in Unix milliseconds. Auth makes each token's id a
    /// UUIDv7, whose time is finer than `iat`'s seconds: a token issued just after its
    /// user's sessions ended must not be taken for one issued just before.
    pub fn issued_at_ms(&self) -> i64 {
        match self.jti.get_timestamp() {
            Some(ts) => {
                let (secs, nanos) = ts.to_unix();
                secs as i64 * 1000 + i64::from(nanos / 1_000_000)
            }
            None => self.iat * 1000,
        }
    }
}
