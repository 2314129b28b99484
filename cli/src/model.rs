//! `--embedder PATH`: a static model read from disk, never fetched.
//!
//! - a folder holding `model.safetensors` and `tokenizer.json` (and maybe
//!   `config.json`): a model2vec model as `save_pretrained` writes it (also
//!   in sentence-transformers' `0_StaticEmbedding/` sub-folder);
//! - `model.safetensors` itself: its `tokenizer.json` and `config.json` are
//!   the ones beside it;
//! - `A,B[,C]`: the model2vec files named one by one (by their names);
//! - any other file: word vectors in the GloVe or fastText text format.

use chunkscope::semantic::{EmbedderChoice, StaticModel};
use chunkscope::{Config, Resources};
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("--embedder: cannot read {}: {e}", path.display()))
}

fn name_of(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// The model2vec files `safetensors`, `tokenizer` and maybe `config`.
fn model2vec(
    name: &str,
    safetensors: &Path,
    tokenizer: &Path,
    config: Option<&Path>,
) -> Result<StaticModel, String> {
    let st = read(safetensors)?;
    let tok = read(tokenizer)?;
    let config = match config {
        Some(c) if c.exists() => Some(read(c)?),
        _ => None,
    };
    StaticModel::from_model2vec(name, &st, &tok, config.as_deref())
        .map_err(|e| format!("--embedder {name}: {e}"))
}

/// Reads the model `arg` names (see the module's doc).
pub fn load(arg: &str) -> Result<StaticModel, String> {
    if arg.contains(',') {
        let files: Vec<PathBuf> = arg.split(',').map(PathBuf::from).collect();
        let find = |want: &str| {
            files
                .iter()
                .find(|f| f.extension().is_some_and(|e| e == want))
        };
        let (Some(st), Some(tok)) = (
            find("safetensors"),
            files.iter().find(|f| name_of(f) == "tokenizer.json"),
        ) else {
            return Err(format!(
                "--embedder {arg}: name a model2vec model's files: a .safetensors file and tokenizer.json (and maybe config.json)"
            ));
        };
        let config = files.iter().find(|f| name_of(f) == "config.json");
        return model2vec(&name_of(st), st, tok, config.map(PathBuf::as_path));
    }
    let path = Path::new(arg);
    if path.is_dir() {
        for dir in [path.to_path_buf(), path.join("0_StaticEmbedding")] {
            let st = dir.join("model.safetensors");
            if st.exists() {
                let tok = [dir.join("tokenizer.json"), path.join("tokenizer.json")]
                    .into_iter()
                    .find(|t| t.exists())
                    .ok_or_else(|| format!("--embedder {arg}: the folder has model.safetensors but no tokenizer.json"))?;
                return model2vec(&name_of(path), &st, &tok, Some(&path.join("config.json")));
            }
        }
        return Err(format!(
            "--embedder {arg}: the folder holds no model.safetensors (a model2vec model: model.safetensors, tokenizer.json, config.json)"
        ));
    }
    if path.extension().is_some_and(|e| e == "safetensors") {
        let dir = path.parent().unwrap_or(Path::new("."));
        let tok = dir.join("tokenizer.json");
        if !tok.exists() {
            return Err(format!(
                "--embedder {arg}: no tokenizer.json beside it (a model2vec model needs both)"
            ));
        }
        return model2vec(&name_of(dir), path, &tok, Some(&dir.join("config.json")));
    }
    let bytes =
        std::fs::read(path).map_err(|e| format!("--embedder: cannot read the model {arg}: {e}"))?;
    StaticModel::from_text(&name_of(path), &bytes).map_err(|e| format!("--embedder {arg}: {e}"))
}

/// What `config`'s names resolve to: every tokenizer (tiktoken's tables,
/// built when first counted in), and the `--embedder` model read from disk,
/// held under the path it was named by.
pub fn resources(config: &Config) -> Result<Resources, String> {
    let mut resources = Resources::tiktoken();
    if let Some(EmbedderChoice::Named(path)) = config.semantic_config().map(|s| &s.embedder) {
        let model = load(path)?;
        resources
            .add_embedder(path.clone(), Arc::new(model))
            .map_err(|e| e.to_string())?;
    }
    Ok(resources)
}
