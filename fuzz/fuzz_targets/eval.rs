//! Evaluation input: a questions file (JSON Lines) and a document, scored
//! over the document's recursive chunks. No panic; every refusal says what
//! is wrong; every score is a share in [0, 1].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    chunkscope_fuzz::evaluate_and_check(data);
});
