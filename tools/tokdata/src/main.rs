//! Writes the rank tables of cl100k_base and o200k_base as the `.tokens`
//! files the browser build fetches (see `chunkscope_tokens`):
//!
//! ```text
//! cargo run -p chunkscope-tokdata --release -- OUT_DIR
//! ```
//!
//! The tables come from tiktoken-rs's embedded data, so this needs no network.
//! Each file is read back and checked before the next is written, so a file on
//! disk is always one the library accepts.

#![forbid(unsafe_code)]

#[cfg(target_arch = "wasm32")]
fn main() {
    // The rank tables come from tiktoken-rs, which the library only uses natively.
    eprintln!("chunkscope-tokdata is a native tool");
}

#[cfg(not(target_arch = "wasm32"))]
use chunkscope_tokens::{Encoding, Tokenizer};
#[cfg(not(target_arch = "wasm32"))]
use std::path::{Path, PathBuf};
#[cfg(not(target_arch = "wasm32"))]
use std::process::ExitCode;

#[cfg(not(target_arch = "wasm32"))]
fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let (Some(out_dir), None) = (args.next(), args.next()) else {
        eprintln!("usage: chunkscope-tokdata OUT_DIR");
        return ExitCode::from(2);
    };
    match write_all(&PathBuf::from(out_dir)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Writes and checks both files; the error says which step failed.
#[cfg(not(target_arch = "wasm32"))]
fn write_all(out_dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(out_dir)
        .map_err(|e| format!("cannot create {}: {e}", out_dir.display()))?;
    for encoding in Encoding::ALL {
        let tokenizer = Tokenizer::load(encoding).map_err(|e| e.to_string())?;
        let data = tokenizer.to_data();
        let check = Tokenizer::from_data(&data).map_err(|e| format!("{encoding}: {e}"))?;
        if check.to_data() != data {
            return Err(format!("{encoding}: the data does not read back the same"));
        }
        let path = out_dir.join(encoding.data_file());
        std::fs::write(&path, &data)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        println!(
            "{}: {} tokens, {} bytes",
            path.display(),
            tokenizer.vocabulary_size(),
            data.len()
        );
    }
    Ok(())
}
