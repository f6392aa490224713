//! What the run needs before its clock starts (not timed): readers and a writer made the
//! way a person makes them (e-mail code, registration, log-in; the writer adds and takes
//! the writer role, as the web app's become-a-writer page does) and the shop's books.
//! The gateway's per-address limits on codes and log-ins apply here as to anyone: a 429
//! is waited out as its Retry-After says.

use std::future::Future;
use std::time::Duration;

use anyhow::{Context, anyhow, bail};
use serde_json::{Value, json};

use super::api::{Api, Call, CallError};
use super::mail::Mailbox;

pub struct User {
    pub email: String,
    pub uid: String,
    pub token: String,
}

#[derive(Clone)]
pub struct Book {
    pub id: String,
    pub title: String,
    pub price: f64,
}

/// Retries `call` after each 429 for as long as the gateway asks, up to two minutes.
async fn patient<F, Fut>(what: &str, mut call: F) -> anyhow::Result<Value>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<Value, CallError>>,
{
    let mut waited = 0;
    loop {
        match call().await {
            Ok(v) => return Ok(v),
            Err(e) => match e.retry_after() {
                Some(secs) if waited < 120 => {
                    eprintln!(
                        "[smoke] set-up: {what} is rate limited by the gateway; waiting {secs}s as it asks"
                    );
                    tokio::time::sleep(Duration::from_secs(secs)).await;
                    waited += secs;
                }
                _ => return Err(anyhow!("{what}: {e}")),
            },
        }
    }
}

/// Registers a new user through the e-mail code and logs them in.
pub async fn register(api: &Api, mail: &Mailbox, role: &str) -> anyhow::Result<User> {
    let tag = uuid::Uuid::new_v4().simple().to_string();
    let email = format!("smoke-{role}-{}@smoke.quire.test", &tag[..12]);
    let username = format!("smoke{role}{}", &tag[..12]);
    let password = format!("Smoke-{tag}!");
    let since = mail.mark()?;
    patient("sending the code", || {
        api.call(Call::post("/send_verify_email").query("email", &email))
    })
    .await?;
    let code = mail.code_for(&email, since).await?;
    patient("checking the code", || {
        api.call(
            Call::post("/check_verify_code")
                .query("email", &email)
                .query("verify_code", &code),
        )
    })
    .await?;
    patient("registering", || {
        api.call(Call::post("/register/").json(json!({
            "email": email, "password": password, "username": username, "verify_code": code,
        })))
    })
    .await?;
    let data = patient("logging in", || {
        api.call(Call::post("/login/").json(json!({"email": email, "password": password})))
    })
    .await?;
    let token = data["access_token"]
        .as_str()
        .ok_or_else(|| anyhow!("the log-in of {email} gave no access_token: {data}"))?;
    let uid = data["user"]["user_id"]
        .as_str()
        .ok_or_else(|| anyhow!("the log-in of {email} named no user_id: {data}"))?;
    Ok(User {
        email,
        uid: uid.to_owned(),
        token: token.to_owned(),
    })
}

/// A reader with an open wallet (the web app opens it at the first log-in).
pub async fn reader(api: &Api, mail: &Mailbox) -> anyhow::Result<User> {
    let user = register(api, mail, "reader").await?;
    api.call(
        Call::post("/wallet/open")
            .token(&user.token)
            .json(json!({})),
    )
    .await
    .with_context(|| format!("opening the wallet of {}", user.email))?;
    Ok(user)
}

/// A writer: a new user who added the writer role and switched to it.
pub async fn writer(api: &Api, mail: &Mailbox) -> anyhow::Result<User> {
    let mut user = register(api, mail, "writer").await?;
    api.call(
        Call::post("/users/add-role/")
            .token(&user.token)
            .json(json!({"role": "writer"})),
    )
    .await?;
    let data = api
        .call(
            Call::post("/users/me/switch-role/")
                .token(&user.token)
                .json(json!({"new_role": "writer"})),
        )
        .await?;
    user.token = data["access_token"]
        .as_str()
        .ok_or_else(|| anyhow!("switching to writer gave no access_token: {data}"))?
        .to_owned();
    Ok(user)
}

/// Every book of the shop, as its listing pages give them.
pub async fn books(api: &Api) -> anyhow::Result<Vec<Book>> {
    let mut books = Vec::new();
    for page in 1.. {
        let data = api
            .call(
                Call::post("/get_all_books/")
                    .form(vec![("page", page.to_string()), ("page_size", "50".into())]),
            )
            .await?;
        let result = data["result"]
            .as_array()
            .ok_or_else(|| anyhow!("get_all_books answered no result list: {data}"))?;
        for b in result {
            books.push(Book {
                id: b["id"].as_str().unwrap_or_default().to_owned(),
                title: b["title"].as_str().unwrap_or_default().to_owned(),
                price: b["price"].as_f64().unwrap_or(0.0),
            });
        }
        let total = data["total"].as_u64().unwrap_or(0);
        if result.is_empty() || books.len() as u64 >= total || page >= 40 {
            break;
        }
    }
    books.retain(|b| !b.id.is_empty());
    if books.is_empty() {
        bail!(
            "the shop lists no book: start the stack with its demo shop (QUIRE_DEMO=1, the default)"
        );
    }
    if !books.iter().any(|b| b.price > 0.0) {
        bail!("the shop has no priced book to buy");
    }
    Ok(books)
}
