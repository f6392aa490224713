//! Fuzz target: the pdf guard in front of lopdf (filter chains and their budget,
//! predictors, object and cross-reference streams, the object census). Even first byte:
//! the rest is the whole file; odd: the rest describes the page content stream of a valid
//! pdf (`pdf_stream_kit`: zlib layers, dictionary entries, data). Run with a memory limit
//! (deploy/local/fuzz.sh sets -rss_limit_mb): a bomb the guard lets through is a finding.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    quire_bookfile_fuzz::run_whole_or_wrapped(
        "manuscript.pdf",
        data,
        quire_bookfile_fuzz::pdf_stream_kit,
    );
});
