//! The configured identity provider: its settings, the HTTP client that talks to it, and its
//! discovery document with its signing keys, fetched once per process and again after a
//! failure (or when a token names a key the cached set lacks: the provider rotated them).

use std::sync::Arc;
use std::time::Duration;

use anyhow::{anyhow, bail};
use openidconnect::core::{CoreClient, CoreProviderMetadata};
use openidconnect::reqwest;
use openidconnect::{
    ClientId, ClientSecret, EndpointMaybeSet, EndpointNotSet, EndpointSet, IssuerUrl, RedirectUrl,
};
use secrecy::ExposeSecret;
use tokio::sync::Mutex;

use super::error::OidcError;
use crate::config::OidcSettings;

/// A client built from the provider's discovery document: the authorization endpoint is
/// always known, the token and user-info endpoints are checked when used.
pub type DiscoveredClient = CoreClient<
    EndpointSet,
    EndpointNotSet,
    EndpointNotSet,
    EndpointNotSet,
    EndpointMaybeSet,
    EndpointMaybeSet,
>;

pub struct OidcProvider {
    issuer: IssuerUrl,
    client_id: ClientId,
    client_secret: Option<ClientSecret>,
    redirect_uris: Vec<RedirectUrl>,
    display_name: String,
    http: reqwest::Client,
    discovered: Mutex<Option<Arc<DiscoveredClient>>>,
}

fn non_empty(s: Option<&str>) -> Option<&str> {
    s.map(str::trim).filter(|s| !s.is_empty())
}

/// An error with its causes, for the log.
pub fn chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

impl OidcProvider {
    /// `None` while no issuer is set; an error for an issuer without the rest.
    pub fn from_settings(s: &OidcSettings) -> anyhow::Result<Option<Self>> {
        let Some(issuer) = non_empty(s.oidc_issuer.as_deref()) else {
            return Ok(None);
        };
        let issuer = IssuerUrl::new(issuer.to_owned())
            .map_err(|e| anyhow!("QUIRE_OIDC_ISSUER: not a URL ({e})"))?;
        let client_id = non_empty(s.oidc_client_id.as_deref())
            .ok_or_else(|| anyhow!("QUIRE_OIDC_CLIENT_ID is required with QUIRE_OIDC_ISSUER"))?;
        let client_secret = s
            .oidc_client_secret
            .as_ref()
            .and_then(|secret| non_empty(Some(secret.expose_secret())).map(str::to_owned))
            .map(ClientSecret::new);
        let redirect_uris = s
            .oidc_redirect_uris
            .split(',')
            .filter_map(|u| non_empty(Some(u)))
            .map(|u| {
                RedirectUrl::new(u.to_owned())
                    .map_err(|e| anyhow!("QUIRE_OIDC_REDIRECT_URIS: {u} is not a URL ({e})"))
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        if redirect_uris.is_empty() {
            bail!("QUIRE_OIDC_REDIRECT_URIS is required with QUIRE_OIDC_ISSUER");
        }
        let http = reqwest::ClientBuilder::new()
            // Following a redirect would let a provider's answer send us anywhere (SSRF).
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(Duration::from_secs(5))
            .timeout(Duration::from_secs(15))
            .build()?;
        Ok(Some(Self {
            issuer,
            client_id: ClientId::new(client_id.to_owned()),
            client_secret,
            redirect_uris,
            display_name: non_empty(Some(&s.oidc_display_name))
                .unwrap_or("your identity provider")
                .to_owned(),
            http,
            discovered: Mutex::new(None),
        }))
    }

    pub fn display_name(&self) -> &str {
        &self.display_name
    }

    pub fn issuer(&self) -> &IssuerUrl {
        &self.issuer
    }

    pub fn http(&self) -> &reqwest::Client {
        &self.http
    }

    /// The configured redirect URI that `uri` is, exactly.
    pub fn redirect_uri(&self, uri: &str) -> Option<&RedirectUrl> {
        self.redirect_uris.iter().find(|r| r.as_str() == uri)
    }

    /// The client, discovering the provider on first use or after [`Self::forget`].
    pub async fn client(&self) -> Result<Arc<DiscoveredClient>, OidcError> {
        let mut cached = self.discovered.lock().await;
        if let Some(client) = cached.as_ref() {
            return Ok(client.clone());
        }
        let client = Arc::new(self.discover().await?);
        *cached = Some(client.clone());
        Ok(client)
    }

    /// Fetches the discovery document and the keys again, whatever is cached.
    pub async fn rediscover(&self) -> Result<Arc<DiscoveredClient>, OidcError> {
        let mut cached = self.discovered.lock().await;
        *cached = None;
        let client = Arc::new(self.discover().await?);
        *cached = Some(client.clone());
        Ok(client)
    }

    /// Drops the cached document, so the next sign-in fetches it again (after the
    /// provider failed to answer: it may have moved its endpoints).
    pub async fn forget(&self) {
        *self.discovered.lock().await = None;
    }

    async fn discover(&self) -> Result<DiscoveredClient, OidcError> {
        let metadata = CoreProviderMetadata::discover_async(self.issuer.clone(), &self.http)
            .await
            .map_err(|e| {
                OidcError::Unavailable(format!("discovery of {}: {}", *self.issuer, chain(&e)))
            })?;
        Ok(CoreClient::from_provider_metadata(
            metadata,
            self.client_id.clone(),
            self.client_secret.clone(),
        ))
    }
}
