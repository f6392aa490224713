//! The worker process, `quire-manuscript extract`: reads one request from stdin, extracts
//! it, writes the reply to stdout and exits. It starts no runtime, no telemetry and no
//! connection: it holds nothing but the upload, under the limits the service set on it.

use std::io::{Read, Write};
use std::process::ExitCode;

use bytes::Bytes;

use crate::uploads::extraction;
use crate::uploads::worker::wire::{self, Request};

/// Exit status of a worker that could not read its request or write its reply (the
/// service's fault, or a service gone): an extraction's own failure is a reply.
const BROKEN: u8 = 2;

/// Runs one extraction from stdin to stdout.
pub fn run() -> ExitCode {
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().lock().read_to_end(&mut input) {
        if e.kind() == std::io::ErrorKind::OutOfMemory {
            // As any allocation past the memory limit does: the service reads the abort.
            eprintln!("quire-manuscript extract: request not read: {e}");
            std::process::abort();
        }
        return broken(&format!("request not read: {e}"));
    }
    let request = match Request::decode(Bytes::from(input)) {
        Ok(request) => request,
        Err(e) => return broken(&e),
    };
    let result = extraction::extract(&request.files, request.split, request.max_text_chars);
    // The upload is no longer needed while the reply is written.
    drop(request);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if let Err(e) = wire::write_reply(result, &mut out) {
        return broken(&format!("reply not written: {e}"));
    }
    if let Err(e) = out.flush() {
        return broken(&format!("reply not written: {e}"));
    }
    ExitCode::SUCCESS
}

fn broken(why: &str) -> ExitCode {
    // stderr is all a worker has to tell: the service logs it.
    eprintln!("quire-manuscript extract: {why}");
    ExitCode::from(BROKEN)
}
