//! What the admin tests share: the admin routes, settings changes, the merged audit log,
//! and finding an action in it.

use serde_json::{Value, json};

use crate::catalog_support::User;
use crate::support::TestApp;

/// Every admin route of issue 19: (method, path, JSON body).
pub fn admin_routes(user_id: &str) -> Vec<(&'static str, String, Option<Value>)> {
    vec![
        ("GET", "/api/admin/dashboard".into(), None),
        ("GET", "/api/admin/settings".into(), None),
        (
            "PUT",
            "/api/admin/settings".into(),
            Some(json!({"trial_percent": 50})),
        ),
        ("GET", "/api/admin/audit".into(), None),
        (
            "POST",
            format!("/api/admin/users/{user_id}/disable"),
            Some(json!({})),
        ),
        (
            "POST",
            format!("/api/admin/users/{user_id}/enable"),
            Some(json!({})),
        ),
        (
            "PUT",
            format!("/api/admin/users/{user_id}/roles"),
            Some(json!({"roles": ["reader", "writer"]})),
        ),
    ]
}

impl TestApp {
    /// A request of any method, with an optional JSON body and token.
    pub async fn call(
        &self,
        method: &str,
        path: &str,
        body: Option<Value>,
        token: Option<&str>,
    ) -> (u16, Value) {
        let mut rb = self.http.request(method.parse().unwrap(), self.url(path));
        if let Some(b) = body {
            rb = rb.json(&b);
        }
        if let Some(t) = token {
            rb = rb.bearer_auth(t);
        }
        self.send(rb).await
    }

    /// A publisher, logged in.
    pub async fn publisher(&self) -> User {
        self.user_with(&["reader", "publisher"]).await
    }

    /// A second admin, logged in.
    pub async fn other_admin(&self) -> User {
        self.user_with(&["reader", "admin"]).await
    }

    /// Changes settings as `admin`; answers every setting after the change.
    pub async fn change_settings(&self, admin: &User, change: Value) -> Value {
        let (s, body) = self
            .put("/api/admin/settings", change.clone(), Some(&admin.token))
            .await;
        assert_eq!(s, 200, "{change}: {body}");
        body["data"].clone()
    }

    /// The admin view of every setting.
    pub async fn admin_settings(&self, admin: &User) -> Value {
        let (s, body) = self.get("/api/admin/settings", Some(&admin.token)).await;
        assert_eq!(s, 200, "{body}");
        body["data"].clone()
    }

    /// The newest page of the merged audit log.
    pub async fn audit(&self, admin: &User) -> Value {
        let (s, body) = self.get("/api/admin/audit", Some(&admin.token)).await;
        assert_eq!(s, 200, "{body}");
        assert_eq!(body["data"]["unavailable"], json!([]), "{body}");
        assert_eq!(body["data"]["chain_intact"], true, "{body}");
        body["data"].clone()
    }

    /// The newest audit entry of `action` on `target`, which `admin` must have written.
    pub async fn audited(&self, admin: &User, action: &str, target: &str) -> Value {
        let page = self.audit(admin).await;
        let entry = page["entries"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["action"] == action && e["target"] == target)
            .unwrap_or_else(|| panic!("no {action} of {target} in {page}"))
            .clone();
        assert_eq!(entry["actor_id"], admin.id.as_str(), "{entry}");
        assert!(
            entry["id"].is_string() && entry["at"].is_string(),
            "{entry}"
        );
        assert!(entry["service"].is_string(), "{entry}");
        entry
    }
}
