//! Headers on every response that keep other sites from framing the shop and browsers
//! from guessing content types. The access token lives in local storage (as the spec
//! wants), so a script injected into the page could take it: the policy allows scripts
//! from our own origin only (no inline script, no eval), nothing may frame us, and no
//! plugin content runs.
//!
//! What the web app needs beyond `'self'`: epub.js shows a book in a sandboxed frame
//! built from `blob:` URLs with the book's own styles (inline and `blob:`), pdf.js runs
//! a worker and may decode images with WebAssembly, covers and fonts may be `data:`.

use actix_web::middleware::DefaultHeaders;

pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; \
script-src 'self' 'wasm-unsafe-eval'; \
style-src 'self' 'unsafe-inline' blob:; \
img-src 'self' data: blob:; \
font-src 'self' data: blob:; \
connect-src 'self'; \
worker-src 'self' blob:; \
frame-src 'self' blob:; \
child-src 'self' blob:; \
media-src 'self' blob:; \
object-src 'none'; \
base-uri 'self'; \
form-action 'self'; \
frame-ancestors 'none'";

/// The middleware (a handler may still set its own value of any of these).
pub fn headers() -> DefaultHeaders {
    DefaultHeaders::new()
        .add(("Content-Security-Policy", CONTENT_SECURITY_POLICY))
        .add(("X-Content-Type-Options", "nosniff"))
        .add(("X-Frame-Options", "DENY"))
        .add(("Referrer-Policy", "strict-origin-when-cross-origin"))
        .add((
            "Permissions-Policy",
            "camera=(), microphone=(), geolocation=(), payment=()",
        ))
}
