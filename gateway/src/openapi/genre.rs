//! The `Genre` schema: the platform's genre taxonomy as an OpenAPI enum, built from
//! quire-genres itself, so the web app's generated types name exactly the genres the
//! analysis classifies into and cannot drift from them.

use std::borrow::Cow;

use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::{PartialSchema, ToSchema};

/// A genre of the taxonomy, by its canonical name. Only the document uses it: a route
/// reads the genre a client sends as text (the manuscript service matches synonyms too).
pub struct Genre;

impl PartialSchema for Genre {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some(
                "A genre of Quire's taxonomy, by its canonical name (the genres the analysis classifies into)",
            ))
            .enum_values(Some(quire_genres::GENRES.iter().copied()))
            .into()
    }
}

impl ToSchema for Genre {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("Genre")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_enum_is_the_taxonomy_in_its_order() {
        let schema = serde_json::to_value(Genre::schema()).unwrap();
        assert_eq!(schema["type"], "string");
        let names: Vec<&str> = schema["enum"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(names, quire_genres::GENRES);
    }
}
