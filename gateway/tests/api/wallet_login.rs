use k256::ecdsa::SigningKey;
use serde_json::json;
use sha3::{Digest, Keccak256};

use crate::support::{TestApp, assert_failure};

struct Wallet {
    key: SigningKey,
}

impl Wallet {
    fn new() -> Self {
        Self {
            key: SigningKey::random(&mut rand::rngs::OsRng),
        }
    }

    fn address(&self) -> [u8; 20] {
        let point = self.key.verifying_key().to_encoded_point(false);
        let hash = Keccak256::digest(&point.as_bytes()[1..]);
        hash[12..].try_into().unwrap()
    }

    /// EIP-191 personal_sign, as a browser wallet does it.
    fn personal_sign(&self, message: &str) -> String {
        let prefixed = format!("\x19Ethereum Signed Message:\n{}{message}", message.len());
        let hash = Keccak256::digest(prefixed.as_bytes());
        let (sig, rec) = self.key.sign_prehash_recoverable(&hash).unwrap();
        let mut bytes = sig.to_bytes().to_vec();
        bytes.push(rec.to_byte() + 27);
        format!("0x{}", hex::encode(bytes))
    }

    fn message(&self, domain: &str, nonce: &str) -> String {
        format!(
            "{domain} wants you to sign in with your Ethereum account:\n{}\n\nSign in to Quire\n\nURI: http://{domain}\nVersion: 1\nChain ID: 1\nNonce: {nonce}\nIssued At: {}",
            siwe::eip55(&self.address()),
            chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
        )
    }
}

/// Posts a signed SIWE message to the login route.
async fn sign_in(app: &TestApp, message: &str, signature: &str) -> (u16, serde_json::Value) {
    app.post(
        "/api/login/",
        json!({"wallet": {"message": message, "signature": signature}}),
        None,
    )
    .await
}

async fn nonce(app: &TestApp) -> String {
    let (s, body) = app.get("/api/login/nonce", None).await;
    assert_eq!(s, 200, "{body}");
    body["data"]["nonce"].as_str().unwrap().to_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_wallet_signs_in_once_per_nonce_and_keeps_its_account() {
    let app = TestApp::spawn().await;
    let wallet = Wallet::new();
    let message = wallet.message("localhost:8080", &nonce(&app).await);
    let signature = wallet.personal_sign(&message);
    let (s, body) = sign_in(&app, &message, &signature).await;
    assert_eq!(s, 200, "{body}");
    let user = &body["data"]["user"];
    assert_eq!(
        user["wallet_address"],
        format!("0x{}", hex::encode(wallet.address()))
    );
    assert_eq!(user["email"], serde_json::Value::Null);
    let token = body["data"]["access_token"].as_str().unwrap();
    assert_eq!(app.get("/api/users/me/", Some(token)).await.0, 200);

    // The same signed message again: the nonce is spent.
    let (s, body) = sign_in(&app, &message, &signature).await;
    assert_failure(
        s,
        &body,
        401,
        Some("Sign-in with Ethereum failed: the nonce is unknown, expired or already used"),
    );

    // A new nonce signs in to the same account.
    let message = wallet.message("localhost:8080", &nonce(&app).await);
    let (s, again) = sign_in(&app, &message, &wallet.personal_sign(&message)).await;
    assert_eq!(s, 200, "{again}");
    assert_eq!(again["data"]["user"]["user_id"], user["user_id"]);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_signature_from_another_address_is_refused_and_leaves_the_nonce_usable() {
    let app = TestApp::spawn().await;
    let victim = Wallet::new();
    let attacker = Wallet::new();
    let message = victim.message("localhost:8080", &nonce(&app).await);
    let forged = attacker.personal_sign(&message);
    let (s, body) = sign_in(&app, &message, &forged).await;
    assert_failure(
        s,
        &body,
        401,
        Some("Sign-in with Ethereum failed: the signature does not match the address"),
    );
    let (s, _) = sign_in(&app, &message, &victim.personal_sign(&message)).await;
    assert_eq!(s, 200);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_message_for_another_site_or_an_invented_nonce_is_refused() {
    let app = TestApp::spawn().await;
    let wallet = Wallet::new();
    let message = wallet.message("evil.example", &nonce(&app).await);
    let (s, body) = sign_in(&app, &message, &wallet.personal_sign(&message)).await;
    assert_failure(s, &body, 401, None);
    assert!(
        body["message"].as_str().unwrap().contains("evil.example"),
        "{body}"
    );

    let message = wallet.message("localhost:8080", "inventedNonce12345");
    let (s, body) = sign_in(&app, &message, &wallet.personal_sign(&message)).await;
    assert_failure(s, &body, 401, None);

    let (s, body) = sign_in(&app, "hello", "0x00").await;
    assert_failure(s, &body, 400, None);
}
