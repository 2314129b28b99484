//! Hostile model2vec files: each is refused with its own typed error and a
//! message that says which file and what, never a panic.

use chunkscope::semantic::{Embedder, ModelError, StaticModel, Vector, MAX_DIMS};

/// A safetensors file with one tensor `name` of `dtype`, `shape`, the given
/// offsets and `data` bytes after the header.
fn safetensors(
    name: &str,
    dtype: &str,
    shape: &[usize],
    offsets: (usize, usize),
    data: &[u8],
) -> Vec<u8> {
    let header = format!(
        r#"{{"__metadata__":{{"format":"pt"}},"{name}":{{"dtype":"{dtype}","shape":{shape:?},"data_offsets":[{},{}]}}}}"#,
        offsets.0, offsets.1
    );
    let mut out = (header.len() as u64).to_le_bytes().to_vec();
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(data);
    out
}

fn f32s(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|x| x.to_le_bytes()).collect()
}

const TOKENIZER: &str = r###"{"added_tokens":[],"normalizer":{"type":"BertNormalizer","lowercase":true},
"pre_tokenizer":{"type":"BertPreTokenizer"},
"model":{"type":"WordPiece","unk_token":"[UNK]","continuing_subword_prefix":"##","max_input_chars_per_word":100,
"vocab":{"[UNK]":0,"cat":1,"dog":2,"##s":3}}}"###;

fn good() -> Vec<u8> {
    let values = [9.0, 9.0, 1.0, 0.0, 0.0, 1.0, 0.5, 0.5];
    safetensors("embeddings", "F32", &[4, 2], (0, 32), &f32s(&values))
}

fn load(st: &[u8], tok: &str, config: Option<&str>) -> Result<StaticModel, ModelError> {
    StaticModel::from_model2vec("m", st, tok.as_bytes(), config.map(str::as_bytes))
}

#[test]
fn a_good_model_reads_and_averages_its_tokens() {
    let m = load(&good(), TOKENIZER, Some(r#"{"normalize": false}"#)).unwrap();
    assert_eq!((m.dims(), m.words(), m.format()), (2, 4, "model2vec"));
    // "Cats" → cat ##s: (1,0) and (0.5,0.5); "bird" is unknown and dropped.
    assert_eq!(m.token_ids("Cats bird"), Some(vec![1, 3]));
    let v = m.embed(&["Cats bird".into(), "bird".into()]).unwrap();
    assert_eq!(v[0], Vector::Dense(vec![0.75, 0.25]));
    assert_eq!(v[1], Vector::Dense(vec![0.0, 0.0]));
    // normalize: (0.75, 0.25) / |(0.75, 0.25)| in float32.
    let n = load(&good(), TOKENIZER, Some(r#"{"normalize": true}"#)).unwrap();
    let Vector::Dense(v) = &n.embed(&["cats".into()]).unwrap()[0] else {
        panic!()
    };
    let norm = (0.75f32 * 0.75 + 0.25 * 0.25).sqrt();
    assert_eq!(v, &vec![f64::from(0.75 / norm), f64::from(0.25 / norm)]);
    assert!(m
        .name()
        .contains("model2vec, 4 WordPiece tokens, 2 dimensions"));
}

#[test]
fn float16_tables_are_read_exactly() {
    // 1.0 = 0x3c00, 0.5 = 0x3800, -2 = 0xc000, 0.25 = 0x3400
    let halves: Vec<u8> = [0u16, 0, 0x3c00, 0x3800, 0xc000, 0x3400, 0x3c00, 0x3c00]
        .iter()
        .flat_map(|h| h.to_le_bytes())
        .collect();
    let st = safetensors("embeddings", "F16", &[4, 2], (0, 16), &halves);
    let m = load(&st, TOKENIZER, None).unwrap();
    let v = m.embed(&["cat dog".into()]).unwrap();
    // mean of (1, 0.5) and (-2, 0.25) = (-0.5, 0.375), exact in float16.
    assert_eq!(v[0], Vector::Dense(vec![-0.5, 0.375]));
}

/// Whether an error is the one a case expects.
type Expect = fn(&ModelError) -> bool;

#[test]
fn hostile_safetensors_are_refused_with_a_typed_error() {
    let data = f32s(&[0.0; 8]);
    let cases: Vec<(&str, Vec<u8>, Expect)> = vec![
        ("empty", vec![], |e| {
            matches!(e, ModelError::BadSafetensors { .. })
        }),
        ("truncated header", good()[..20].to_vec(), |e| {
            matches!(e, ModelError::BadSafetensors { .. })
        }),
        ("truncated data", good()[..good().len() - 5].to_vec(), |e| {
            matches!(
                e,
                ModelError::Truncated {
                    expected: 4,
                    found: 3
                }
            )
        }),
        (
            "huge header length",
            {
                let mut b = good();
                b[..8].copy_from_slice(&u64::MAX.to_le_bytes());
                b
            },
            |e| matches!(e, ModelError::BadSafetensors { .. }),
        ),
        (
            "header not JSON",
            {
                let mut b = good();
                b[8] = b'x';
                b
            },
            |e| matches!(e, ModelError::BadSafetensors { .. }),
        ),
        (
            "no embeddings",
            safetensors("weight", "F32", &[4, 2], (0, 32), &data),
            |e| *e == ModelError::NoEmbeddings,
        ),
        (
            "wrong dtype",
            safetensors("embeddings", "I8", &[4, 2], (0, 8), &data),
            |e| matches!(e, ModelError::UnsupportedDtype { dtype } if dtype == "I8"),
        ),
        (
            "bf16",
            safetensors("embeddings", "BF16", &[4, 2], (0, 16), &data),
            |e| matches!(e, ModelError::UnsupportedDtype { .. }),
        ),
        (
            "offsets lie",
            safetensors("embeddings", "F32", &[4, 2], (0, 30), &data),
            |e| matches!(e, ModelError::BadSafetensors { reason } if reason.contains("lies")),
        ),
        (
            "shape lies",
            safetensors("embeddings", "F32", &[400_000_000_000, 2], (0, 32), &data),
            |e| matches!(e, ModelError::BadSafetensors { .. }),
        ),
        (
            "three dimensions",
            safetensors("embeddings", "F32", &[2, 2, 2], (0, 32), &data),
            |e| matches!(e, ModelError::BadSafetensors { .. }),
        ),
        (
            "too many dims",
            safetensors(
                "embeddings",
                "F32",
                &[1, MAX_DIMS + 1],
                (0, 4 * (MAX_DIMS + 1)),
                &data,
            ),
            |e| matches!(e, ModelError::BadDimension { .. }),
        ),
        (
            "not finite",
            safetensors(
                "embeddings",
                "F32",
                &[4, 2],
                (0, 32),
                &f32s(&[0.0, f32::NAN, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
            ),
            |e| matches!(e, ModelError::BadNumber { line: 1, .. }),
        ),
        (
            "dims mismatch",
            safetensors("embeddings", "F32", &[2, 4], (0, 32), &data),
            |e| *e == ModelError::VocabMismatch { tokens: 4, rows: 2 },
        ),
        (
            "quantized",
            {
                let header = r#"{"embeddings":{"dtype":"F32","shape":[4,2],"data_offsets":[0,32]},"mapping":{"dtype":"I64","shape":[0],"data_offsets":[32,32]}}"#;
                let mut b = (header.len() as u64).to_le_bytes().to_vec();
                b.extend_from_slice(header.as_bytes());
                b.extend_from_slice(&data);
                b
            },
            |e| matches!(e, ModelError::Unsupported { .. }),
        ),
    ];
    for (what, bytes, expected) in cases {
        let e = load(&bytes, TOKENIZER, None).expect_err(what);
        assert!(expected(&e), "{what}: {e:?}");
        assert!(!e.to_string().is_empty());
    }
}

#[test]
fn hostile_tokenizers_and_configs_are_refused_with_a_typed_error() {
    let e = |tok: &str, config: Option<&str>| load(&good(), tok, config).unwrap_err();
    assert!(matches!(e("{", None), ModelError::BadTokenizer { .. }));
    assert!(matches!(e("[]", None), ModelError::BadTokenizer { .. }));
    let bpe = TOKENIZER.replace("\"WordPiece\"", "\"BPE\"");
    let err = e(&bpe, None);
    assert!(matches!(err, ModelError::Unsupported { .. }), "{err:?}");
    assert!(err.to_string().contains("\"BPE\""), "{err}");
    let precompiled = TOKENIZER.replace("\"BertNormalizer\"", "\"Precompiled\"");
    assert!(e(&precompiled, None).to_string().contains("Precompiled"));
    let bytelevel = TOKENIZER.replace("\"BertPreTokenizer\"", "\"ByteLevel\"");
    assert!(matches!(
        e(&bytelevel, None),
        ModelError::Unsupported { .. }
    ));
    let gap = TOKENIZER.replace("\"##s\":3", "\"##s\":7");
    assert!(matches!(e(&gap, None), ModelError::BadTokenizer { .. }));
    let deep = "[".repeat(10_000);
    assert!(matches!(e(&deep, None), ModelError::BadTokenizer { .. }));
    assert!(matches!(
        e(TOKENIZER, Some("{\"normalize\": 3}")),
        ModelError::BadConfig { .. }
    ));
    assert!(matches!(
        e(TOKENIZER, Some("nope")),
        ModelError::BadConfig { .. }
    ));
    assert!(matches!(
        load(&good(), "\u{0}\u{ff}", None),
        Err(ModelError::BadTokenizer { .. })
    ));
}
