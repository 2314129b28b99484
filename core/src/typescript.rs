//! What the TypeScript declarations of the written forms share
//! ([`crate::Settings::typescript`], `Report::typescript`, the wasm crate's
//! worker messages): a union of the names an enum reads and writes, and the
//! check that a shipped declaration file is the one the types make.

/// `"a" | "b" | "c"`: the names, quoted as JSON quotes them.
pub fn union(names: impl IntoIterator<Item = &'static str>) -> String {
    names
        .into_iter()
        .map(|n| format!("{n:?}"))
        .collect::<Vec<_>>()
        .join(" | ")
}

/// Panics unless the file at `path` holds `made`, naming `regenerate`, the
/// command that writes it again; with `CHUNKSCOPE_WRITE_TYPES` set in the
/// environment, writes it first. For the tests that keep a shipped `.d.ts`
/// current.
pub fn assert_shipped(path: &str, made: &str, regenerate: &str) {
    if std::env::var_os("CHUNKSCOPE_WRITE_TYPES").is_some() {
        if let Err(e) = std::fs::write(path, made) {
            panic!("{path} could not be written: {e}");
        }
    }
    let shipped = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        shipped == made,
        "{path} is not what the types make: run CHUNKSCOPE_WRITE_TYPES=1 {regenerate}"
    );
}
