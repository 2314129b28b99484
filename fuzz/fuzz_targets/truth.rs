//! Every strategy's trace against the text: cut labels, absent and splitting
//! separators, packing reasons, nothing lost (the checks of core/tests/truth.rs).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    chunkscope_fuzz::split_and_check_the_trace(data);
});
