//! Fuzz target: a docx manuscript. Even first byte: the rest is the whole file (the zip
//! checks); odd: the rest is word/document.xml of a valid docx (the document reader).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    quire_bookfile_fuzz::run_whole_or_wrapped(
        "manuscript.docx",
        data,
        quire_bookfile_fuzz::docx_around,
    );
});
