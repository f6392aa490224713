//! Rotating auth's signing key signs nobody out: the key due next is published before it
//! signs, so a verifier's cached JWKS already holds it, and the key it replaced stays
//! published while its tokens live. Keys lie as the Kubernetes Secret mounts them:
//! `jwt-ed25519.pem` (current), `jwt-ed25519.next.pem`, `jwt-ed25519.previous.pem`.

use std::path::PathBuf;
use std::time::Duration;

use ed25519_dalek::SigningKey;
use ed25519_dalek::pkcs8::EncodePrivateKey;
use quire_auth::tokens::{self, Signer};
use quire_kit::caller::{Caller, TokenVerifier};
use quire_kit::jwks::Keys;
use quire_proto::auth::v1 as pb;
use quire_proto::auth::v1::auth_service_client::AuthServiceClient;
use tonic::service::Interceptor;
use uuid::Uuid;

use crate::support::{TestApp, USER_PASSWORD, User, req, settings, suffix};

/// The folder a Secret is mounted at, removed when dropped.
struct KeyDir(PathBuf);

impl KeyDir {
    /// A folder with `current`, and `next` and `previous` when given.
    fn holding(
        current: &SigningKey,
        next: Option<&SigningKey>,
        previous: Option<&SigningKey>,
    ) -> Self {
        let dir = Self(std::env::temp_dir().join(format!("quire-jwt-{}", suffix())));
        std::fs::create_dir_all(&dir.0).unwrap();
        let current_path = dir.current();
        for (path, key) in [
            (current_path.clone(), Some(current)),
            (tokens::next_key_path(&current_path), next),
            (tokens::previous_key_path(&current_path), previous),
        ] {
            if let Some(key) = key {
                std::fs::write(path, pem(key)).unwrap();
            }
        }
        dir
    }

    fn current(&self) -> PathBuf {
        self.0.join("jwt-ed25519.pem")
    }

    fn current_str(&self) -> String {
        self.current().to_string_lossy().into_owned()
    }

    fn next(&self) -> PathBuf {
        tokens::next_key_path(&self.current())
    }

    fn load(&self) -> anyhow::Result<Signer> {
        Signer::load_or_create(Some(&self.current_str()), 600)
    }
}

impl Drop for KeyDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn new_key() -> SigningKey {
    SigningKey::generate(&mut rand::rngs::OsRng)
}

fn pem(key: &SigningKey) -> String {
    key.to_pkcs8_pem(Default::default()).unwrap().to_string()
}

fn kid(key: &SigningKey) -> String {
    tokens::key_id(&key.verifying_key())
}

fn kid_of(token: &str) -> String {
    TokenVerifier::kid_of(token).expect("the token names its key")
}

/// The kids a JWKS document publishes, in order.
fn kids_in(jwks_json: &str) -> Vec<String> {
    let jwks: serde_json::Value = serde_json::from_str(jwks_json).unwrap();
    jwks["keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["kid"].as_str().unwrap().to_owned())
        .collect()
}

fn sorted(mut kids: Vec<String>) -> Vec<String> {
    kids.sort();
    kids
}

async fn jwks_of(url: &str) -> Result<String, tonic::Status> {
    let mut client = AuthServiceClient::new(quire_kit::grpc::channel(url).unwrap());
    Ok(client
        .get_jwks(pb::GetJwksRequest {})
        .await?
        .into_inner()
        .jwks_json)
}

/// Whom `auth` takes `user` for.
async fn me_at(auth: &TestApp, user: &User) -> Result<Uuid, tonic::Status> {
    let me = auth
        .client()
        .get_me(req(pb::GetMeRequest {}, Some(user)))
        .await?
        .into_inner();
    Ok(me.user_id.parse().unwrap())
}

/// What a service's identity interceptor makes of `token`, with the keys it holds.
fn caller_through(keys: &Keys, token: &str) -> Result<Caller, tonic::Status> {
    let mut request = tonic::Request::new(());
    request
        .metadata_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    let request = keys.interceptor().call(request)?;
    Ok(request.extensions().get::<Caller>().unwrap().clone())
}

#[tokio::test(flavor = "multi_thread")]
async fn rotating_the_signing_key_while_replicas_restart_one_by_one_signs_nobody_out() {
    let (a, b, c) = (new_key(), new_key(), new_key());
    let id = suffix();

    // Before the rotation: A signs, B is published as the next key.
    let before = KeyDir::holding(&a, Some(&b), None);
    let old = TestApp::spawn_on(&id, Some(&before.current_str())).await;
    let user = old.user(&[]).await;
    assert_eq!(kid_of(&user.access), kid(&a));

    // A service fetches the JWKS once, from a replica that still signs with A.
    let keys = Keys::new(&old.url).unwrap();
    assert_eq!(keys.fetch().await.unwrap(), 2, "current and next published");
    assert!(keys.verifier.knows(&kid(&b)), "the next key is known ahead");

    // The operator rotates (B signs, A is previous, C is the new next) and one replica
    // restarts with it while the other still runs the old keys.
    let after = KeyDir::holding(&b, Some(&c), Some(&a));
    let new = TestApp::spawn_on(&id, Some(&after.current_str())).await;
    let again = new.login(&user.email, USER_PASSWORD).await.unwrap();
    assert_eq!(
        kid_of(&again.access),
        kid(&b),
        "the new replica signs with B"
    );
    assert_eq!(
        sorted(kids_in(&jwks_of(&new.url).await.unwrap())),
        sorted(vec![kid(&a), kid(&b), kid(&c)])
    );

    // Each replica accepts what the other signed.
    assert_eq!(me_at(&old, &again).await.unwrap(), user.id);
    assert_eq!(me_at(&new, &user).await.unwrap(), user.id);

    // The old replica is gone and the service fetches nothing more: what it verifies now,
    // it verifies with the JWKS it fetched before the rotation. (No fetch is tried: once
    // the old port is free, another test's server may take it and answer.)
    let old_url = old.url.clone();
    drop(old);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    while jwks_of(&old_url).await.is_ok() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the old replica stops"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(
        caller_through(&keys, &again.access).unwrap().user_id(),
        user.id
    );
    assert_eq!(
        caller_through(&keys, &user.access).unwrap().user_id(),
        user.id
    );

    // A refresh token from before the rotation still works, and its new access token
    // (signed with B) passes the old cache too.
    let refreshed = new.refresh(&user.refresh).await.unwrap();
    assert_eq!(kid_of(&refreshed.access_token), kid(&b));
    assert_eq!(
        caller_through(&keys, &refreshed.access_token)
            .unwrap()
            .user_id(),
        user.id
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn auth_refuses_to_start_when_the_next_key_is_the_current_one() {
    let a = new_key();
    let dir = KeyDir::holding(&a, Some(&a), None);
    let (common, config) = settings(&suffix(), Some(&dir.current_str()));
    let error = quire_auth::Application::build(common, config)
        .await
        .err()
        .expect("auth must not start");
    let message = format!("{error:#}");
    assert!(
        message.contains("the next jwt key is the current key"),
        "{message}"
    );
}

#[test]
fn the_jwks_lists_exactly_the_configured_keys_with_distinct_kids() {
    let (a, b, c) = (new_key(), new_key(), new_key());

    let only = KeyDir::holding(&a, None, None).load().unwrap();
    assert_eq!(kids_in(only.jwks_json()), vec![kid(&a)]);

    let dir = KeyDir::holding(&b, Some(&c), Some(&a));
    let signer = dir.load().unwrap();
    let kids = kids_in(signer.jwks_json());
    assert_eq!(kids, vec![kid(&b), kid(&c), kid(&a)]);
    assert_eq!(signer.kid(), kid(&b), "only the current key signs");
    let token = signer
        .issue(Uuid::nil(), "reader", &["reader".into()], Uuid::now_v7())
        .unwrap();
    assert_eq!(kid_of(&token), kid(&b));

    // What the previous key signed verifies while it is published, and not after.
    let by_a = only
        .issue(Uuid::nil(), "reader", &["reader".into()], Uuid::now_v7())
        .unwrap();
    signer.verifier().unwrap().verify(&by_a).unwrap();
    let retired = KeyDir::holding(&b, Some(&c), None).load().unwrap();
    assert_eq!(kids_in(retired.jwks_json()), vec![kid(&b), kid(&c)]);
    assert!(retired.verifier().unwrap().verify(&by_a).is_err());
}

#[test]
fn a_malformed_next_key_stops_auth_with_an_error_naming_its_file() {
    let dir = KeyDir::holding(&new_key(), None, None);
    std::fs::write(dir.next(), "-----BEGIN PRIVATE KEY-----\nnot a key\n").unwrap();
    let message = format!(
        "{:#}",
        dir.load().err().expect("a malformed key is refused")
    );
    assert!(
        message.contains(&*dir.next().to_string_lossy()),
        "{message}"
    );
    assert!(message.contains("not an Ed25519 key in PEM"), "{message}");
}

#[test]
fn the_same_key_twice_is_refused_whichever_roles_it_plays() {
    let (a, b) = (new_key(), new_key());
    for (dir, says) in [
        (
            KeyDir::holding(&a, Some(&a), None),
            "the next jwt key is the current key",
        ),
        (
            KeyDir::holding(&a, Some(&b), Some(&a)),
            "the previous jwt key is the current key",
        ),
        (
            KeyDir::holding(&a, Some(&b), Some(&b)),
            "the previous jwt key is the next key",
        ),
    ] {
        let message = format!("{:#}", dir.load().err().expect("a repeated key is refused"));
        assert!(message.contains(says), "{message}");
    }
}

#[test]
fn an_empty_next_entry_publishes_no_next_key() {
    let a = new_key();
    let dir = KeyDir::holding(&a, None, None);
    std::fs::write(dir.next(), "\n").unwrap();
    assert_eq!(kids_in(dir.load().unwrap().jwks_json()), vec![kid(&a)]);
}

#[test]
fn a_missing_current_key_is_not_replaced_while_a_next_key_waits() {
    let b = new_key();
    let dir = KeyDir::holding(&new_key(), Some(&b), None);
    std::fs::remove_file(dir.current()).unwrap();
    let message = format!("{:#}", dir.load().err().expect("no key is made up"));
    assert!(message.contains("is missing while"), "{message}");
    assert!(!dir.current().exists(), "no new current key was written");
}
