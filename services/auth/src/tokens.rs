//! Access tokens (Ed25519-signed JWTs with a `kid`), the JWKS that verifies them, and
//! the opaque refresh-token secrets (only their SHA-256 is stored).

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ed25519_dalek::SigningKey;
use ed25519_dalek::pkcs8::{DecodePrivateKey, EncodePrivateKey};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use quire_kit::caller::{AUDIENCE, Claims, ISSUER, TokenVerifier};
use rand::RngCore;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::error::{AuthError, CommonErrors, Result};

/// The key auth signs with, and what others need to check its signatures.
pub struct Signer {
    kid: String,
    encoding: EncodingKey,
    jwks_json: String,
    ttl_secs: u32,
}

impl Signer {
    /// Loads the PEM key at `path`, creating it (mode 0600) when missing; `None` makes an
    /// ephemeral key.
    pub fn load_or_create(path: Option<&str>, ttl_secs: u32) -> anyhow::Result<Self> {
        let key = match path {
            Some(p) if std::path::Path::new(p).exists() => {
                let pem = std::fs::read_to_string(p)?;
                SigningKey::from_pkcs8_pem(&pem).map_err(|e| anyhow::anyhow!("{p}: {e}"))?
            }
            Some(p) => {
                let key = SigningKey::generate(&mut rand::rngs::OsRng);
                let pem = key
                    .to_pkcs8_pem(Default::default())
                    .map_err(|e| anyhow::anyhow!("{e}"))?;
                if let Some(dir) = std::path::Path::new(p).parent() {
                    std::fs::create_dir_all(dir)?;
                }
                write_private(p, pem.as_bytes())?;
                tracing::info!(path = p, "created a new jwt signing key");
                key
            }
            None => {
                tracing::warn!("QUIRE_JWT_KEY_FILE unset: tokens are signed with an ephemeral key");
                SigningKey::generate(&mut rand::rngs::OsRng)
            }
        };
        Self::from_key(&key, ttl_secs)
    }

    fn from_key(key: &SigningKey, ttl_secs: u32) -> anyhow::Result<Self> {
        let public = key.verifying_key().to_bytes();
        let kid = hex::encode(&Sha256::digest(public)[..8]);
        let pem = key
            .to_pkcs8_pem(Default::default())
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        let encoding = EncodingKey::from_ed_pem(pem.as_bytes())?;
        let jwks_json = serde_json::json!({
            "keys": [{
                "kty": "OKP", "crv": "Ed25519", "alg": "EdDSA", "use": "sig",
                "kid": kid, "x": URL_SAFE_NO_PAD.encode(public),
            }]
        })
        .to_string();
        Ok(Self {
            kid,
            encoding,
            jwks_json,
            ttl_secs,
        })
    }

    pub fn jwks_json(&self) -> &str {
        &self.jwks_json
    }

    pub fn ttl_secs(&self) -> u32 {
        self.ttl_secs
    }

    /// A verifier that trusts this signer (auth checks its own tokens locally).
    pub fn verifier(&self) -> anyhow::Result<TokenVerifier> {
        let v = TokenVerifier::default();
        v.load_jwks(&self.jwks_json)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        Ok(v)
    }

    /// Signs an access token acting as `role`.
    pub fn issue(&self, user_id: Uuid, role: &str, roles: &[String]) -> Result<String> {
        let now = chrono::Utc::now().timestamp();
        let claims = Claims {
            sub: user_id,
            role: role.to_owned(),
            roles: roles.to_vec(),
            // Time-ordered: the gateway reads from it when the token was issued, to the
            // millisecond (`Claims::issued_at_ms`), against a password reset's end of sessions.
            jti: Uuid::now_v7(),
            iat: now,
            exp: now + i64::from(self.ttl_secs),
            iss: ISSUER.to_owned(),
            aud: AUDIENCE.to_owned(),
        };
        let mut header = Header::new(Algorithm::EdDSA);
        header.kid = Some(self.kid.clone());
        jsonwebtoken::encode(&header, &claims, &self.encoding)
            .map_err(|e| AuthError::internal(format!("sign token: {e}")))
    }
}

#[cfg(unix)]
fn write_private(path: &str, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)?;
    f.write_all(bytes)
}
#[cfg(not(unix))]
fn write_private(path: &str, bytes: &[u8]) -> std::io::Result<()> {
    std::fs::write(path, bytes)
}

/// A new random secret for a refresh token (what the client keeps).
pub fn new_refresh_secret() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

/// What the database keeps of a refresh secret.
pub fn hash_secret(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_issued_token_verifies_with_the_published_jwks() {
        let signer = Signer::load_or_create(None, 60).unwrap();
        let token = signer
            .issue(Uuid::nil(), "writer", &["reader".into(), "writer".into()])
            .unwrap();
        let caller = signer.verifier().unwrap().verify(&token).unwrap();
        assert_eq!(caller.claims.role, "writer");
        let other = Signer::load_or_create(None, 60).unwrap();
        assert!(
            other.verifier().unwrap().verify(&token).is_err(),
            "a foreign key must not verify"
        );
    }

    #[test]
    fn a_remembered_token_still_fails_once_its_key_is_withdrawn_or_it_expires() {
        let signer = Signer::load_or_create(None, 60).unwrap();
        let verifier = signer.verifier().unwrap();
        let token = signer
            .issue(Uuid::nil(), "reader", &["reader".into()])
            .unwrap();
        verifier.verify(&token).unwrap();
        assert!(
            verifier.verify(&token).is_ok(),
            "verified again from memory"
        );

        // One character changed in the signature: not the remembered text, so checked.
        let mut forged = token.clone();
        let last = forged.pop().unwrap();
        forged.push(if last == 'A' { 'B' } else { 'A' });
        assert!(verifier.verify(&forged).is_err());

        // The keys rotate to another signer's: the remembered token goes with its key.
        let other = Signer::load_or_create(None, 60).unwrap();
        verifier.load_jwks(other.jwks_json()).unwrap();
        assert!(verifier.verify(&token).is_err());

        // A token that verified while fresh is refused once past its expiry (and the
        // leeway), though remembered.
        let short = Signer::from_key(&SigningKey::generate(&mut rand::rngs::OsRng), 0).unwrap();
        let verifier = short.verifier().unwrap();
        let token = short
            .issue(Uuid::nil(), "reader", &["reader".into()])
            .unwrap();
        verifier.verify(&token).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(6_100));
        assert!(verifier.verify(&token).is_err());
    }

    #[test]
    fn a_key_file_is_created_once_and_reused() {
        let dir = std::env::temp_dir().join(format!("quire-key-{}", Uuid::new_v4()));
        let path = dir.join("jwt.pem");
        let p = path.to_str().unwrap();
        let a = Signer::load_or_create(Some(p), 60).unwrap();
        let b = Signer::load_or_create(Some(p), 60).unwrap();
        assert_eq!(a.kid, b.kid);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
