//! quire-chat: Quinn, the book assistant. A reader says in their own words what they feel
//! like reading ("something cosy", "a mystery under $5", "shorter", "more like the
//! second"); the service understands it as a structured request, answers with a search
//! query or one clarifying question, and (in later parts) recommends the books that fit,
//! each with a reason. It will own the `chat` schema (conversations: messages, what was
//! asked, what was shown).
//!
//! This first part is [`understanding`]: a pure, deterministic function from the previous
//! request, the books last shown and one utterance to the new request and the kind of
//! reply. It has no state of its own, reads no clock, file or random source, and needs no
//! network or model.
//!
//! It must never panic on any text a reader sends (callers refuse input over 500
//! characters, but every function here takes any string), send what a reader says
//! anywhere (no network, no hosted model unless an operator names one), invent a genre
//! outside the platform's taxonomy, or answer the same words differently twice.
#![forbid(unsafe_code)]
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used))]

pub mod understanding;

/// The name Quinn introduces itself by unless an admin sets another.
pub const DEFAULT_NAME: &str = "Quinn";

/// The longest utterance callers accept, in characters.
pub const MAX_INPUT_CHARS: usize = 500;
