//! The four roles and who may give them to whom.

pub const READER: &str = "reader";
pub const WRITER: &str = "writer";
pub const PUBLISHER: &str = "publisher";
pub const ADMIN: &str = "admin";

/// In display order.
pub const ALL: [&str; 4] = [READER, WRITER, PUBLISHER, ADMIN];

pub fn is_role(name: &str) -> bool {
    ALL.contains(&name)
}

/// Roles a user may add to their own account; admin is only granted by an admin.
pub fn is_self_service(name: &str) -> bool {
    matches!(name, READER | WRITER | PUBLISHER)
}

pub fn describe(name: &str) -> &'static str {
    match name {
        READER => "Finds, buys and reads books",
        WRITER => "Uploads manuscripts, prices and publishes books",
        PUBLISHER => "Curates a selection of books",
        ADMIN => "Runs the platform",
        _ => "",
    }
}

/// Sorts roles into display order and drops unknown names.
pub fn ordered(mut roles: Vec<String>) -> Vec<String> {
    roles.retain(|r| is_role(r));
    roles.sort_by_key(|r| ALL.iter().position(|a| a == r));
    roles.dedup();
    roles
}
