//! Fuzz target: a pdf manuscript. Even first byte: the rest is the whole file; odd: the
//! rest is the content stream of a valid one-page pdf (the text layer reader).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    quire_bookfile_fuzz::run_whole_or_wrapped(
        "manuscript.pdf",
        data,
        quire_bookfile_fuzz::pdf_around,
    );
});
