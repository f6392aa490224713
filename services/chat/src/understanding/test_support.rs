//! What the unit tests of the parts share: running one part over an utterance.

use super::negation;
use super::request::Request;
use super::text::{Token, tokenize};

/// The request `part` makes of `utterance`, negation marked first when `negate` (as the
/// parts after negation see it).
pub(crate) fn run(utterance: &str, negate: bool, part: fn(&mut [Token], &mut Request)) -> Request {
    let mut tokens = tokenize(utterance);
    if negate {
        negation::mark(&mut tokens);
    }
    let mut request = Request::default();
    part(&mut tokens, &mut request);
    request
}
