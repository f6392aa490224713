//! Sign-In with Ethereum (EIP-4361). The server hands out a nonce, the wallet signs a
//! message naming our domain and that nonce (EIP-191 `personal_sign`), and the server
//! recovers the signer. A nonce works once and for five minutes; the first sign-in of
//! an address creates its account (while registration is open). A disabled account is
//! refused.

use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use quire_proto::auth::v1 as pb;
use rand::Rng;
use rand::distributions::Alphanumeric;
use redis::AsyncCommands;

use crate::accounts::{self, NewAccount};
use crate::db::schema::users;
use crate::error::{AuthError, CommonErrors, Result};
use crate::{AppState, access_settings, roles, sessions};

pub const NONCE_TTL_SECS: u64 = 300;

fn nonce_key(nonce: &str) -> String {
    format!("quire:siwe:nonce:{nonce}")
}

pub async fn new_nonce(state: &AppState) -> Result<pb::GetLoginNonceResponse> {
    let nonce: String = rand::rngs::OsRng
        .sample_iter(&Alphanumeric)
        .take(24)
        .map(char::from)
        .collect();
    let mut redis = state.redis.clone();
    let _: () = redis.set_ex(nonce_key(&nonce), 1, NONCE_TTL_SECS).await?;
    Ok(pb::GetLoginNonceResponse {
        nonce,
        expires_in_secs: NONCE_TTL_SECS as u32,
    })
}

fn parse_signature(hex_sig: &str) -> Result<[u8; 65]> {
    let raw = hex::decode(hex_sig.trim().trim_start_matches("0x"))
        .map_err(|_| AuthError::invalid("signature", "signature: hex expected"))?;
    raw.try_into()
        .map_err(|_| AuthError::invalid("signature", "signature: 65 bytes expected"))
}

pub async fn login(state: &AppState, wallet: pb::WalletSignature) -> Result<pb::TokenResponse> {
    if wallet.message.len() > 4096 {
        return Err(AuthError::invalid("message", "message: too long"));
    }
    let message: siwe::Message = wallet.message.parse().map_err(|e| {
        AuthError::invalid("message", format!("message: not an EIP-4361 message ({e})"))
    })?;
    let signature = parse_signature(&wallet.signature)?;
    if message.domain.as_str() != state.config.siwe_domain {
        return Err(AuthError::Siwe(format!(
            "the message is for {}, not for this site",
            message.domain
        )));
    }
    if !message.valid_now() {
        return Err(AuthError::Siwe(
            "the message has expired or is not valid yet".into(),
        ));
    }
    message
        .verify_eip191(&signature)
        .map_err(|_| AuthError::Siwe("the signature does not match the address".into()))?;
    // Last, and atomically: a nonce is spent only by a valid signature, and only once.
    let mut redis = state.redis.clone();
    let known: Option<u8> = redis.get_del(nonce_key(&message.nonce)).await?;
    if known.is_none() {
        return Err(AuthError::Siwe(
            "the nonce is unknown, expired or already used".into(),
        ));
    }

    let address = format!("0x{}", hex::encode(message.address));
    let mut conn = quire_kit::db::conn(&state.pool).await?;
    let existing: Option<uuid::Uuid> = users::table
        .filter(users::wallet_address.eq(&address))
        .select(users::id)
        .first(&mut conn)
        .await
        .optional()?;
    let tokens = match existing {
        Some(id) => sessions::open(state, &mut conn, id).await?,
        None => {
            // A first sign-in makes an account: a registration, refused while closed.
            access_settings::ensure_registration_open(&mut conn).await?;
            let short = format!("{}…{}", &address[..6], &address[address.len() - 4..]);
            let view = accounts::create(
                &mut conn,
                NewAccount {
                    email: None,
                    username: short,
                    password_hash: None,
                    wallet_address: Some(address.clone()),
                    roles: vec![roles::READER.to_owned()],
                    invite_code: None,
                },
            )
            .await?;
            sessions::issue(state, &mut conn, view, None).await?
        }
    };
    metrics::counter!("quire_auth_logins_total", "result" => "ok_wallet").increment(1);
    Ok(tokens)
}
