//! Password hashing with argon2id. Hashing is slow on purpose, so it runs on the
//! blocking pool and never stalls the async workers.

use argon2::Argon2;
use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};

use crate::error::{AuthError, CommonErrors, Result};

pub const MIN_LEN: usize = 8;
pub const MAX_LEN: usize = 128;

pub fn validate(password: &str) -> Result<()> {
    let n = password.chars().count();
    if n < MIN_LEN {
        return Err(AuthError::invalid(
            "password",
            format!("password: at least {MIN_LEN} characters"),
        ));
    }
    if n > MAX_LEN {
        return Err(AuthError::invalid(
            "password",
            format!("password: at most {MAX_LEN} characters"),
        ));
    }
    Ok(())
}

pub async fn hash(password: String) -> Result<String> {
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| AuthError::internal(format!("hash password: {e}")))
    })
    .await
    .map_err(|e| AuthError::internal(e.to_string()))?
}

pub async fn verify(password: String, stored: String) -> Result<bool> {
    tokio::task::spawn_blocking(move || {
        let parsed = PasswordHash::new(&stored)
            .map_err(|e| AuthError::internal(format!("stored hash unreadable: {e}")))?;
        Ok(Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok())
    })
    .await
    .map_err(|e| AuthError::internal(e.to_string()))?
}

#[cfg(test)]
mod tests {
    #[tokio::test]
    async fn a_hash_verifies_its_password_and_no_other() {
        let h = super::hash("correct horse".into()).await.unwrap();
        assert!(h.starts_with("$argon2id$"));
        assert!(
            super::verify("correct horse".into(), h.clone())
                .await
                .unwrap()
        );
        assert!(!super::verify("correct horsE".into(), h).await.unwrap());
    }

    #[test]
    fn short_and_huge_passwords_are_refused() {
        assert!(super::validate("1234567").is_err());
        assert!(super::validate(&"x".repeat(129)).is_err());
        assert!(super::validate("12345678").is_ok());
    }
}
