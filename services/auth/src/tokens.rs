//! Access tokens (Ed25519-signed JWTs with a `kid`), the JWKS that verifies them, and
//! the opaque refresh-token secrets (only their SHA-256 is stored).
//!
//! Keys rotate without signing anyone out. Beside the current key (`QUIRE_JWT_KEY_FILE`,
//! say `jwt-ed25519.pem`) auth publishes the next one (`jwt-ed25519.next.pem`), so every
//! verifier already holds it when a rotation makes it current, and the previous one
//! (`jwt-ed25519.previous.pem`), so tokens it signed still verify until they expire.
//! Only the current key ever signs.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ed25519_dalek::pkcs8::{DecodePrivateKey, DecodePublicKey, EncodePrivateKey};
use ed25519_dalek::{SigningKey, VerifyingKey};
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

/// The file beside the current key `path` that holds the key due to replace it.
pub fn next_key_path(path: &Path) -> PathBuf {
    beside(path, "next")
}

/// The file beside the current key `path` that holds the key it replaced.
pub fn previous_key_path(path: &Path) -> PathBuf {
    beside(path, "previous")
}

/// `dir/stem.<role>.ext` for `dir/stem.ext`.
fn beside(path: &Path, role: &str) -> PathBuf {
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    let name = match path.extension() {
        Some(ext) => format!("{stem}.{role}.{}", ext.to_string_lossy()),
        None => format!("{stem}.{role}"),
    };
    path.with_file_name(name)
}

/// The `kid` of a key: the first 8 bytes of the SHA-256 of its public key, in hex. Tokens
/// in use name kids made this way, so changing it would sign everyone out.
pub fn key_id(key: &VerifyingKey) -> String {
    hex::encode(&Sha256::digest(key.to_bytes())[..8])
}

impl Signer {
    /// Loads the current key (PKCS#8 PEM) at `path` and the next and previous keys beside
    /// it when present. The current key is created (mode 0600) when missing, unless a
    /// next or previous key waits: then the rotation was half done, and a new key would
    /// sign tokens no verifier knows. `None` makes an ephemeral key.
    pub fn load_or_create(path: Option<&str>, ttl_secs: u32) -> anyhow::Result<Self> {
        let Some(path) = path else {
            tracing::warn!("QUIRE_JWT_KEY_FILE unset: tokens are signed with an ephemeral key");
            return Self::new(
                &SigningKey::generate(&mut rand::rngs::OsRng),
                None,
                None,
                ttl_secs,
            );
        };
        let path = Path::new(path);
        let (next_path, previous_path) = (next_key_path(path), previous_key_path(path));
        let next = read_public(&next_path)?;
        let previous = read_public(&previous_path)?;
        let current = match read_text(path)? {
            Some(pem) => SigningKey::from_pkcs8_pem(&pem).map_err(|e| {
                anyhow::anyhow!(
                    "jwt key {}: not an Ed25519 private key in PKCS#8 PEM: {e}",
                    path.display()
                )
            })?,
            None if next.is_some() || previous.is_some() => bail!(
                "jwt key {} is missing while {} or {} exists: a rotation moves the next \
                 key to the current one; no new key is made that verifiers do not know",
                path.display(),
                next_path.display(),
                previous_path.display()
            ),
            None if path.exists() => bail!("jwt key {} is empty", path.display()),
            None => create(path)?,
        };
        let signer = Self::new(&current, next.as_ref(), previous.as_ref(), ttl_secs)
            .with_context(|| format!("jwt keys beside {}", path.display()))?;
        if next.is_none() {
            tracing::warn!(
                path = %next_path.display(),
                "no next jwt key: rotating the signing key will sign every user out"
            );
        }
        tracing::info!(
            kid = signer.kid,
            next_kid = next.as_ref().map(key_id),
            previous_kid = previous.as_ref().map(key_id),
            "jwt signing keys loaded"
        );
        Ok(signer)
    }

    /// Signs with `current` and publishes it with `next` and `previous`; refuses a key
    /// given twice (a rotation that forgot to bring a new next key, say).
    pub fn new(
        current: &SigningKey,
        next: Option<&VerifyingKey>,
        previous: Option<&VerifyingKey>,
        ttl_secs: u32,
    ) -> anyhow::Result<Self> {
        let mut published = vec![("current", current.verifying_key())];
        published.extend(next.map(|k| ("next", *k)));
        published.extend(previous.map(|k| ("previous", *k)));
        let kids: Vec<String> = published.iter().map(|(_, k)| key_id(k)).collect();
        for (i, kid) in kids.iter().enumerate() {
            if let Some(j) = kids[..i].iter().position(|other| other == kid) {
                bail!(
                    "the {} jwt key is the {} key (kid {kid}): each must be a different key",
                    published[i].0,
                    published[j].0
                );
            }
        }
        let pem = current
            .to_pkcs8_pem(Default::default())
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        let encoding = EncodingKey::from_ed_pem(pem.as_bytes())?;
        let keys: Vec<serde_json::Value> = published
            .iter()
            .zip(&kids)
            .map(|((_, key), kid)| {
                serde_json::json!({
                    "kty": "OKP", "crv": "Ed25519", "alg": "EdDSA", "use": "sig",
                    "kid": kid, "x": URL_SAFE_NO_PAD.encode(key.to_bytes()),
                })
            })
            .collect();
        Ok(Self {
            kid: kids[0].clone(),
            encoding,
            jwks_json: serde_json::json!({ "keys": keys }).to_string(),
            ttl_secs,
        })
    }

    /// The `kid` of the key that signs.
    pub fn kid(&self) -> &str {
        &self.kid
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

    /// Signs an access token acting as `role`, of the session `sid` (its refresh family).
    pub fn issue(&self, user_id: Uuid, role: &str, roles: &[String], sid: Uuid) -> Result<String> {
        let now = chrono::Utc::now().timestamp();
        let claims = Claims {
            sub: user_id,
            role: role.to_owned(),
            roles: roles.to_vec(),
            // Time-ordered: the gateway reads from it when the token was issued, to the
            // millisecond (`Claims::issued_at_ms`), against a password reset's end of sessions.
            jti: Uuid::now_v7(),
            sid: Some(sid),
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

/// The text of `path`; `None` when it is missing or blank (a Kubernetes Secret entry left
/// empty between rotations).
fn read_text(path: &Path) -> anyhow::Result<Option<String>> {
    match std::fs::read_to_string(path) {
        Ok(text) if text.trim().is_empty() => Ok(None),
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(anyhow::anyhow!("jwt key {}: {e}", path.display())),
    }
}

/// A next or previous key: only its public half is published, so either the private key
/// (what the rotation will move) or its public key will do.
fn read_public(path: &Path) -> anyhow::Result<Option<VerifyingKey>> {
    let Some(pem) = read_text(path)? else {
        return Ok(None);
    };
    if let Ok(key) = SigningKey::from_pkcs8_pem(&pem) {
        return Ok(Some(key.verifying_key()));
    }
    VerifyingKey::from_public_key_pem(&pem)
        .map(Some)
        .map_err(|e| {
            anyhow::anyhow!(
                "jwt key {}: not an Ed25519 key in PEM (PKCS#8 private or SPKI public): {e}",
                path.display()
            )
        })
}

fn create(path: &Path) -> anyhow::Result<SigningKey> {
    let key = SigningKey::generate(&mut rand::rngs::OsRng);
    let pem = key
        .to_pkcs8_pem(Default::default())
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    write_private(path, pem.as_bytes())
        .with_context(|| format!("create jwt key {}", path.display()))?;
    tracing::info!(path = %path.display(), "created a new jwt signing key");
    Ok(key)
}

#[cfg(unix)]
fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
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
fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
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
            .issue(
                Uuid::nil(),
                "writer",
                &["reader".into(), "writer".into()],
                Uuid::now_v7(),
            )
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
            .issue(Uuid::nil(), "reader", &["reader".into()], Uuid::now_v7())
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
        let short =
            Signer::new(&SigningKey::generate(&mut rand::rngs::OsRng), None, None, 0).unwrap();
        let verifier = short.verifier().unwrap();
        let token = short
            .issue(Uuid::nil(), "reader", &["reader".into()], Uuid::now_v7())
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
