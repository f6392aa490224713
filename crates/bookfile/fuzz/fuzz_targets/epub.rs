//! Fuzz target: an epub manuscript. Byte 0 of the input decides: 0 the rest is the whole
//! file (the zip checks); else the rest is one document of a valid epub (see
//! `epub_around`: a chapter, the package document or the nav document).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((first, rest)) = data.split_first() else {
        return;
    };
    let file = if *first == 0 {
        rest.to_vec()
    } else {
        quire_bookfile_fuzz::epub_around(*first, rest)
    };
    quire_bookfile_fuzz::run("manuscript.epub", &file);
});
