//! Raw DEFLATE (RFC 1951) through the browser's own `CompressionStream` and
//! `DecompressionStream` (`"deflate-raw"`), so the page carries no compressor
//! of its own. Both are asynchronous: a promise per call.
//!
//! Any valid raw DEFLATE stream inflates the same whichever compressor made
//! it, so links packed before (by a compressor compiled into the page) open
//! exactly as they did.

use js_sys::{Array, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, ReadableStream, ReadableStreamDefaultReader, ReadableWritablePair};

/// The raw DEFLATE format's name for both streams.
const FORMAT: &str = "deflate-raw";

// web-sys offers these two only as unstable APIs; their constructors are all
// the page needs.
#[wasm_bindgen]
extern "C" {
    type CompressionStream;
    #[wasm_bindgen(constructor, catch)]
    fn new(format: &str) -> Result<CompressionStream, JsValue>;

    type DecompressionStream;
    #[wasm_bindgen(constructor, catch)]
    fn new(format: &str) -> Result<DecompressionStream, JsValue>;
}

/// `bytes` as a stream, piped through `transform`.
fn piped(bytes: &[u8], transform: &JsValue) -> Result<ReadableStream, JsValue> {
    let parts = Array::of1(&Uint8Array::from(bytes));
    let blob = Blob::new_with_u8_array_sequence(&parts)?;
    Ok(blob
        .stream()
        .pipe_through(transform.unchecked_ref::<ReadableWritablePair>()))
}

/// Reads `stream` to its end, or stops (and cancels it) once it has given more
/// than `limit` bytes: `None` then.
async fn read_all(stream: ReadableStream, limit: usize) -> Result<Option<Vec<u8>>, JsValue> {
    let reader: ReadableStreamDefaultReader = stream.get_reader().unchecked_into();
    let mut out = Vec::new();
    loop {
        let step = JsFuture::from(reader.read()).await?;
        if Reflect::get(&step, &"done".into())?.is_truthy() {
            return Ok(Some(out));
        }
        let part: Uint8Array = Reflect::get(&step, &"value".into())?.unchecked_into();
        if out.len() + part.length() as usize > limit {
            let _ = reader.cancel();
            return Ok(None);
        }
        let at = out.len();
        out.resize(at + part.length() as usize, 0);
        part.copy_to(&mut out[at..]);
    }
}

/// `bytes` compressed as raw DEFLATE.
pub async fn pack(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let run = async {
        let transform = CompressionStream::new(FORMAT)?;
        read_all(piped(bytes, &transform)?, usize::MAX).await
    };
    match run.await {
        Ok(Some(packed)) => Ok(packed),
        _ => Err("this browser could not compress the link".into()),
    }
}

/// The raw DEFLATE stream `packed` inflated, if it is valid and inflates to at
/// most `limit` bytes; otherwise `Ok(None)` for too large, and `Err` for a
/// damaged stream.
pub async fn unpack(packed: &[u8], limit: usize) -> Result<Option<Vec<u8>>, ()> {
    let run = async {
        let transform = DecompressionStream::new(FORMAT)?;
        read_all(piped(packed, &transform)?, limit).await
    };
    run.await.map_err(|_| ())
}
