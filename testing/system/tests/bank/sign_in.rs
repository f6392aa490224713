//! The bank's users sign in with Ethereum (EIP-4361) as a browser wallet does: no password
//! to hash, where argon2id takes a second or more per user in a debug build.

use k256::ecdsa::SigningKey;
use sha3::{Digest, Keccak256};

/// The host the messages name (auth's `QUIRE_SIWE_DOMAIN`).
pub const DOMAIN: &str = "bank.quire.test";

/// An Ethereum account's key.
pub struct EthAccount(SigningKey);

impl EthAccount {
    pub fn new() -> Self {
        Self(SigningKey::random(&mut rand::rngs::OsRng))
    }

    /// The sign-in message for `nonce`, naming the account's checksummed address.
    pub fn message(&self, nonce: &str) -> String {
        let public = self.0.verifying_key().to_encoded_point(false);
        let hash = Keccak256::digest(&public.as_bytes()[1..]);
        let address = siwe::eip55(hash[12..].try_into().unwrap());
        let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        [
            &format!("{DOMAIN} wants you to sign in with your Ethereum account:"),
            &address,
            "",
            "Open an account at the bank",
            "",
            &format!("URI: http://{DOMAIN}"),
            "Version: 1",
            "Chain ID: 1",
            &format!("Nonce: {nonce}"),
            &format!("Issued At: {now}"),
        ]
        .join("\n")
    }

    /// `message` signed as `personal_sign` does (EIP-191): r, s and v, in hex.
    pub fn sign(&self, message: &str) -> String {
        let digest = Keccak256::new()
            .chain_update(format!("\x19Ethereum Signed Message:\n{}", message.len()))
            .chain_update(message);
        let (signature, v) = self.0.sign_digest_recoverable(digest).unwrap();
        let mut rsv = signature.to_bytes().to_vec();
        rsv.push(27 + v.to_byte());
        format!("0x{}", hex::encode(rsv))
    }
}
