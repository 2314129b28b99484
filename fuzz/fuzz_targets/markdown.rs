//! The Markdown strategy under random text and configurations.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    chunkscope_fuzz::split_and_check(data, chunkscope::Strategy::Markdown);
});
