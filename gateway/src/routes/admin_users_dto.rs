//! The JSON shapes of the admin's account actions (the user objects are the accounts
//! routes' own).

use serde::Deserialize;
use utoipa::ToSchema;

use crate::envelope::Failure;

/// The roles an account may hold.
pub const ROLES: [&str; 4] = ["reader", "writer", "publisher", "admin"];

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RolesBody {
    /// Every role the account is to hold; reader is always kept. Removing a role ends the
    /// account's sessions.
    #[schema(example = json!(["reader", "writer"]))]
    pub roles: Vec<String>,
}

impl RolesBody {
    /// The roles, each checked to be one of [`ROLES`], without repeats.
    pub fn check(self) -> Result<Vec<String>, Failure> {
        let mut roles: Vec<String> = Vec::with_capacity(self.roles.len());
        for role in self.roles {
            let role = role.trim().to_ascii_lowercase();
            if !ROLES.contains(&role.as_str()) {
                return Err(Failure::bad_request(
                    "invalid_role",
                    format!("roles: each must be one of {}", ROLES.join(", ")),
                ));
            }
            if !roles.contains(&role) {
                roles.push(role);
            }
        }
        Ok(roles)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roles(list: &[&str]) -> Result<Vec<String>, Failure> {
        RolesBody {
            roles: list.iter().map(|r| (*r).to_owned()).collect(),
        }
        .check()
    }

    #[test]
    fn known_roles_pass_once_and_others_are_refused_by_name() {
        assert_eq!(
            roles(&["writer", "Reader", "writer"]).unwrap(),
            ["writer", "reader"]
        );
        assert!(roles(&[]).unwrap().is_empty());
        let e = roles(&["reader", "king"]).unwrap_err().0.message;
        assert!(e.starts_with("roles:"), "{e}");
    }
}
