//! quire-genres: the genre taxonomy of the platform, in one place. The classifier
//! (quire-analysis) classifies into it, the assistant (quire-chat) understands and ranks
//! by it, the pricing priors (quire-pricing) are one per genre of it, and the gateway
//! serves it to the web app as the `Genre` enum of its OpenAPI document.
//!
//! - [`GENRES`]: the canonical names, in a fixed order (a genre's id is its index).
//! - [`canonical_genre`] and [`genre_id`]: the genre a name or synonym means, ignoring
//!   case, spacing and punctuation ("sci-fi" is "Science Fiction").
//!
//! It must never do I/O or know any service: it is a table and pure functions over it,
//! the same answer for the same name everywhere. Renaming or reordering a genre changes
//! what every part of the platform says, and the classifier's training files follow the
//! order of [`GENRES`] (a test in quire-analysis checks).
#![forbid(unsafe_code)]

mod taxonomy;

pub use taxonomy::{GENRES, canonical_genre, genre_id};
