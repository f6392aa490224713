//! The JSON shapes of sign-in through an OpenID Connect provider, as the browser sees them
//! and as the OpenAPI document describes them. A finished sign-in answers a `TokenOut`,
//! exactly as a password login does.

use quire_proto::auth::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Serialize, ToSchema)]
pub struct OidcConfigOut {
    /// Whether sign-in through a provider is offered at all.
    pub enabled: bool,
    /// What the button names: "Sign in with <display_name>" (empty while not enabled).
    pub display_name: String,
}

impl From<pb::OidcConfig> for OidcConfigOut {
    fn from(c: pb::OidcConfig) -> Self {
        Self {
            enabled: c.enabled,
            display_name: c.display_name,
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct OidcStartBody {
    /// Where the provider sends the browser back; one of the addresses the site is
    /// configured with (`<origin>/platform/login/oidc`).
    #[schema(format = "uri", max_length = 2048)]
    pub redirect_uri: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct OidcStartOut {
    /// The provider's page to send the browser to.
    #[schema(format = "uri")]
    pub authorization_url: String,
    /// Comes back with the browser; keep it to check it is the one sent. Single use,
    /// valid 10 minutes.
    pub state: String,
}

impl From<pb::StartOidcLoginResponse> for OidcStartOut {
    fn from(r: pb::StartOidcLoginResponse) -> Self {
        Self {
            authorization_url: r.authorization_url,
            state: r.state,
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct OidcFinishBody {
    /// The `state` the provider sent back.
    #[schema(max_length = 2048)]
    pub state: String,
    /// The `code` the provider sent back.
    #[schema(max_length = 2048)]
    pub code: String,
}
