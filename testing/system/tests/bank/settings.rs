//! `QUIRE_*` settings as the system tests hand them to a service: a child's environment,
//! or what an in-process service parses (the same list either way).

use serde::de::DeserializeOwned;

#[derive(Clone, Default)]
pub struct Settings(pub Vec<(String, String)>);

impl Settings {
    pub fn with(mut self, key: &str, value: impl Into<String>) -> Self {
        self.0.push((format!("QUIRE_{key}"), value.into()));
        self
    }

    pub fn parse<T: DeserializeOwned>(&self) -> T {
        envy::prefixed("QUIRE_")
            .from_iter(self.0.clone())
            .expect("the settings parse")
    }
}
