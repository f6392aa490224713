//! Fuzz target: a txt manuscript (encoding detection, headings, sections).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    quire_bookfile_fuzz::run("manuscript.txt", data);
});
