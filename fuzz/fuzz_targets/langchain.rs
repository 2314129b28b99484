//! The LangChain engine (and its Python-regex matcher) under random text,
//! separators and arguments.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    chunkscope_fuzz::langchain_split_and_check(data);
});
