//! model2vec's static models, read from the user's files: `model.safetensors`
//! (the `embeddings` tensor, one row per token), `tokenizer.json` and,
//! optionally, `config.json` (`normalize`, `max_length`).
//!
//! A text's vector is what `StaticModel.encode` returns, computed the way
//! NumPy computes it: the text cut to `max_length × median token length`
//! chars, its token ids (at most `max_length`, unknown tokens dropped), the
//! rows summed in float32 in token order and divided by their count (for a
//! float16 model the sum is float32 and the mean rounded to float16), then,
//! when the config says `normalize`, divided by its float32 Euclidean norm
//! (NumPy's pairwise sum) plus 1e-32. A text without a known token is the
//! zero vector.

use super::hf_tokenizer::HfTokenizer;
use super::json::{self, Json};
use super::numpy;
use super::ModelError;

/// model2vec's `max_length` when the config names none.
const DEFAULT_MAX_LENGTH: usize = 512;
/// The most bytes a safetensors header may have (the format's own limit).
const MAX_HEADER_BYTES: usize = 100_000_000;

/// The element types an `embeddings` tensor may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dtype {
    F32,
    F16,
}

/// The token side of a static model: how a text becomes rows to average.
#[derive(Clone, Debug)]
pub(crate) struct TokenModel {
    pub(crate) tokenizer: HfTokenizer,
    pub(crate) dtype: Dtype,
    pub(crate) normalize: bool,
    pub(crate) max_length: Option<usize>,
    pub(crate) median_token_chars: usize,
}

/// Reads the `embeddings` tensor: its rows, columns, values (float16 widened
/// exactly to float32) and type.
pub(crate) fn read_safetensors(
    bytes: &[u8],
) -> Result<(usize, usize, Vec<f32>, Dtype), ModelError> {
    let bad = |reason: String| ModelError::BadSafetensors { reason };
    if bytes.len() < 8 {
        return Err(bad(format!(
            "{} bytes: too short for the 8-byte header length",
            bytes.len()
        )));
    }
    let n = u64::from_le_bytes(bytes[..8].try_into().unwrap_or_default());
    if n > MAX_HEADER_BYTES as u64 {
        return Err(bad(format!(
            "the header claims {n} bytes, over the format's limit of {MAX_HEADER_BYTES}"
        )));
    }
    let n = n as usize;
    let Some(header) = bytes.get(8..8 + n) else {
        return Err(bad(format!(
            "the header claims {n} bytes but the file has {} after the length: truncated",
            bytes.len() - 8
        )));
    };
    let header = std::str::from_utf8(header).map_err(|_| bad("the header is not UTF-8".into()))?;
    let header = json::parse(header).map_err(|e| bad(format!("the header is not JSON: {e}")))?;
    let data = &bytes[8 + n..];
    for quantized in ["weights", "mapping"] {
        if header.get(quantized).is_some() {
            return Err(ModelError::Unsupported {
                what: format!("a vocabulary-quantized model (it has a {quantized:?} tensor)"),
            });
        }
    }
    let t = header.get("embeddings").ok_or(ModelError::NoEmbeddings)?;
    let dtype = match t.get("dtype").and_then(Json::as_str) {
        Some("F32") => Dtype::F32,
        Some("F16") => Dtype::F16,
        other => {
            return Err(ModelError::UnsupportedDtype {
                dtype: other.unwrap_or("(none)").to_string(),
            })
        }
    };
    let shape: Vec<usize> = t
        .get("shape")
        .and_then(Json::as_array)
        .and_then(|s| s.iter().map(Json::as_usize).collect::<Option<Vec<_>>>())
        .ok_or_else(|| bad("the embeddings' shape is not a list of whole numbers".into()))?;
    let [rows, dims] = shape[..] else {
        return Err(bad(format!(
            "the embeddings have shape {shape:?}: a table of tokens × dimensions has two"
        )));
    };
    if dims == 0 || dims > super::MAX_DIMS {
        return Err(ModelError::BadDimension { dims });
    }
    if rows == 0 {
        return Err(ModelError::Empty);
    }
    let offsets: Vec<usize> = t
        .get("data_offsets")
        .and_then(Json::as_array)
        .and_then(|s| s.iter().map(Json::as_usize).collect::<Option<Vec<_>>>())
        .ok_or_else(|| bad("the embeddings' data_offsets are not two whole numbers".into()))?;
    let [begin, end] = offsets[..] else {
        return Err(bad(
            "the embeddings' data_offsets are not two whole numbers".into(),
        ));
    };
    let size = match dtype {
        Dtype::F32 => 4,
        Dtype::F16 => 2,
    };
    let want = rows.checked_mul(dims).and_then(|x| x.checked_mul(size));
    if begin > end || want != Some(end - begin) {
        return Err(bad(format!(
            "the embeddings' offsets {begin}..{end} do not hold {rows} × {dims} values of {size} bytes: the header lies"
        )));
    }
    if end > data.len() {
        return Err(ModelError::Truncated {
            expected: rows,
            found: (data.len().saturating_sub(begin)) / (dims * size),
        });
    }
    let raw = &data[begin..end];
    let values: Vec<f32> = match dtype {
        Dtype::F32 => raw
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect(),
        Dtype::F16 => raw
            .chunks_exact(2)
            .map(|b| f16_to_f32(u16::from_le_bytes([b[0], b[1]])))
            .collect(),
    };
    if let Some(i) = values.iter().position(|x| !x.is_finite()) {
        return Err(ModelError::BadNumber {
            line: i / dims + 1,
            value: values[i].to_string(),
        });
    }
    Ok((rows, dims, values, dtype))
}

/// Reads `tokenizer.json` and `config.json` for a table of `rows` vectors.
pub(crate) fn read_tokens(
    rows: usize,
    dtype: Dtype,
    tokenizer: &[u8],
    config: Option<&[u8]>,
) -> Result<TokenModel, ModelError> {
    let tok_err = |reason: String| ModelError::BadTokenizer { reason };
    let text = std::str::from_utf8(tokenizer)
        .map_err(|_| tok_err("tokenizer.json is not UTF-8".into()))?;
    let v = json::parse(text).map_err(|e| tok_err(format!("tokenizer.json is not JSON: {e}")))?;
    let tokenizer = HfTokenizer::from_json(&v).map_err(|reason| {
        if reason.contains("not supported") {
            ModelError::Unsupported { what: reason }
        } else {
            tok_err(reason)
        }
    })?;
    let tokens = tokenizer.tokens().len();
    if tokens != rows {
        return Err(ModelError::VocabMismatch { tokens, rows });
    }
    let (mut normalize, mut max_length) = (false, Some(DEFAULT_MAX_LENGTH));
    if let Some(config) = config {
        let bad = |reason: String| ModelError::BadConfig { reason };
        let text =
            std::str::from_utf8(config).map_err(|_| bad("config.json is not UTF-8".into()))?;
        let c = json::parse(text).map_err(|e| bad(format!("config.json is not JSON: {e}")))?;
        match c.get("normalize") {
            None | Some(Json::Null) => {}
            Some(Json::Bool(b)) => normalize = *b,
            Some(_) => return Err(bad("\"normalize\" is not true or false".into())),
        }
        match c.get("max_length") {
            None => {}
            Some(Json::Null) => max_length = None,
            Some(m) => {
                max_length = Some(
                    m.as_usize()
                        .ok_or_else(|| bad("\"max_length\" is not a whole number".into()))?,
                )
            }
        }
    }
    // int(np.median(lengths)): the mean of the two middle ones when even, truncated.
    let mut lengths: Vec<usize> = tokenizer
        .tokens()
        .iter()
        .map(|t| t.chars().count())
        .collect();
    lengths.sort_unstable();
    let mid = lengths.len() / 2;
    let median_token_chars = if lengths.len() % 2 == 1 {
        lengths[mid]
    } else {
        ((lengths[mid - 1] + lengths[mid]) as f64 / 2.0) as usize
    };
    Ok(TokenModel {
        tokenizer,
        dtype,
        normalize,
        max_length,
        median_token_chars,
    })
}

impl TokenModel {
    /// model2vec's vector of `text` (see the module's doc), written into `out`.
    pub(crate) fn encode(
        &self,
        values: &[f32],
        dims: usize,
        text: &str,
        ids: &mut Vec<u32>,
        out: &mut [f32],
    ) {
        self.ids(text, ids);
        out.fill(0.0);
        if ids.is_empty() {
            return;
        }
        for &id in ids.iter() {
            let row = &values[id as usize * dims..(id as usize + 1) * dims];
            for (o, &x) in out.iter_mut().zip(row) {
                *o += x;
            }
        }
        let count = ids.len() as f64;
        for o in out.iter_mut() {
            *o = self.round((f64::from(*o) / count) as f32);
        }
        if self.normalize {
            let squares: Vec<f32> = out.iter().map(|x| x * x).collect();
            let norm = numpy::sum(&squares).sqrt() + 1e-32;
            for o in out.iter_mut() {
                *o = self.round(*o / norm);
            }
        }
    }

    /// The ids `encode` averages: the text cut to `max_length` times the
    /// median token length in chars, tokenized, at most `max_length` ids,
    /// unknown ones dropped.
    pub(crate) fn ids(&self, text: &str, ids: &mut Vec<u32>) {
        let text = match self.max_length {
            Some(m) => {
                let keep = m.saturating_mul(self.median_token_chars);
                text.char_indices()
                    .nth(keep)
                    .map_or(text, |(i, _)| &text[..i])
            }
            None => text,
        };
        ids.clear();
        self.tokenizer.encode(text, ids);
        if let Some(m) = self.max_length {
            ids.truncate(m);
        }
        if let Some(unk) = self.tokenizer.unk {
            ids.retain(|&i| i != unk);
        }
    }

    fn round(&self, x: f32) -> f32 {
        match self.dtype {
            Dtype::F32 => x,
            Dtype::F16 => f16_to_f32(f32_to_f16(x)),
        }
    }
}

/// IEEE half to single: exact.
pub(crate) fn f16_to_f32(h: u16) -> f32 {
    let sign = u32::from(h >> 15) << 31;
    let exp = u32::from((h >> 10) & 0x1f);
    let man = u32::from(h & 0x3ff);
    let bits = match (exp, man) {
        (0, 0) => sign,
        (0, _) => {
            // Subnormal: value = man × 2^-24.
            let v = man as f32 * f32::from_bits(0x3380_0000);
            return if sign != 0 { -v } else { v };
        }
        (0x1f, 0) => sign | 0x7f80_0000,
        (0x1f, _) => sign | 0x7fc0_0000 | (man << 13),
        _ => sign | ((exp + 112) << 23) | (man << 13),
    };
    f32::from_bits(bits)
}

/// Single to half, rounding to nearest even (as NumPy's `astype(float16)`).
pub(crate) fn f32_to_f16(x: f32) -> u16 {
    let bits = x.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exp = ((bits >> 23) & 0xff) as i32;
    let man = bits & 0x7f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if man != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let m = man | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = m >> shift;
        let rest = m & ((1 << shift) - 1);
        let mid = 1 << (shift - 1);
        let round = rest > mid || (rest == mid && half & 1 == 1);
        return sign | (half + u32::from(round)) as u16;
    }
    let half = ((e as u32) << 10) | (man >> 13);
    let rest = man & 0x1fff;
    let round = rest > 0x1000 || (rest == 0x1000 && half & 1 == 1);
    sign | (half + u32::from(round)) as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_round_to_nearest_even() {
        for h in 0..=u16::MAX {
            let f = f16_to_f32(h);
            if f.is_nan() {
                continue;
            }
            assert_eq!(f32_to_f16(f), h, "{h:#x}");
        }
        // 1 + 2^-11 is halfway between 1 and the next half: ties to even (1).
        assert_eq!(f32_to_f16(1.0 + 2f32.powi(-11)), 0x3c00);
        assert_eq!(f32_to_f16(1.0 + 3.0 * 2f32.powi(-11)), 0x3c02);
        assert_eq!(f32_to_f16(65520.0), 0x7c00);
        assert_eq!(f16_to_f32(0x0001), 2f32.powi(-24));
    }
}
