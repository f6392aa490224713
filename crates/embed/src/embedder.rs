use std::path::Path;

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config};
use tokenizers::{PaddingParams, PaddingStrategy, Tokenizer, TruncationParams};

use crate::{Error, Result, files};

/// Length of every vector.
pub const DIMENSIONS: usize = 384;

/// Texts are cut after this many tokens (the length the model was trained on), special
/// tokens included.
pub const MAX_TOKENS: usize = 256;

/// all-MiniLM-L6-v2 on the CPU: text in, unit vector of [`DIMENSIONS`] floats out.
pub struct Embedder {
    model: BertModel,
    tokenizer: Tokenizer,
    device: Device,
}

impl Embedder {
    /// Loads `config.json`, `tokenizer.json` and `model.safetensors` from `dir`, refusing
    /// weights other than the pinned ones. Reads about 90 MB and hashes it: do it once at
    /// start-up.
    pub fn load(dir: &Path) -> Result<Self> {
        let device = Device::Cpu;
        let config_path = dir.join("config.json");
        let config: Config =
            serde_json::from_slice(&files::read(&config_path)?).map_err(|source| {
                Error::Config {
                    path: config_path,
                    source,
                }
            })?;
        let weights = files::read_pinned_weights(&dir.join("model.safetensors"))?;
        let vb = VarBuilder::from_buffered_safetensors(weights, DType::F32, &device)?;
        let model = BertModel::load(vb, &config)?;
        let tokenizer = tokenizer(&files::read(&dir.join("tokenizer.json"))?)?;
        Ok(Self {
            model,
            tokenizer,
            device,
        })
    }

    /// The unit vector of one text (no padding).
    pub fn embed(&self, text: &str) -> Result<Vec<f32>> {
        let mut vectors = self.embed_batch(&[text])?;
        vectors
            .pop()
            .ok_or_else(|| Error::Tokenizer("no vector for the text".into()))
    }

    /// The unit vectors of several texts in one pass, padded to the longest of them: the
    /// same vectors as one `embed` each (to float rounding), faster for many short texts.
    pub fn embed_batch(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let encodings = self
            .tokenizer
            .encode_batch(texts.to_vec(), true)
            .map_err(|e| Error::Tokenizer(e.to_string()))?;
        let len = encodings.iter().map(|e| e.len()).max().unwrap_or(0);
        let (mut ids, mut mask) = (Vec::with_capacity(texts.len() * len), Vec::new());
        for encoding in &encodings {
            ids.extend_from_slice(encoding.get_ids());
            mask.extend_from_slice(encoding.get_attention_mask());
        }
        let shape = (texts.len(), len);
        let ids = Tensor::from_vec(ids, shape, &self.device)?;
        let mask = Tensor::from_vec(mask, shape, &self.device)?;
        let hidden = self.model.forward(&ids, &ids.zeros_like()?, Some(&mask))?;
        Ok(mean_pool_normalised(&hidden, &mask)?.to_vec2::<f32>()?)
    }
}

/// The tokenizer file pads every text to 128 tokens and cuts it there: pad a batch to its
/// longest text instead, and cut at [`MAX_TOKENS`].
fn tokenizer(json: &[u8]) -> Result<Tokenizer> {
    let mut tokenizer = Tokenizer::from_bytes(json).map_err(|e| Error::Tokenizer(e.to_string()))?;
    let mut padding = tokenizer
        .get_padding()
        .cloned()
        .unwrap_or_else(PaddingParams::default);
    padding.strategy = PaddingStrategy::BatchLongest;
    tokenizer.with_padding(Some(padding));
    tokenizer
        .with_truncation(Some(TruncationParams {
            max_length: MAX_TOKENS,
            ..Default::default()
        }))
        .map_err(|e| Error::Tokenizer(e.to_string()))?;
    Ok(tokenizer)
}

/// Mean of the token vectors the mask keeps (padding left out), then L2 normalisation:
/// sentence-transformers' pooling for this model.
fn mean_pool_normalised(hidden: &Tensor, mask: &Tensor) -> candle_core::Result<Tensor> {
    let mask = mask.to_dtype(DType::F32)?.unsqueeze(2)?;
    let sum = hidden.broadcast_mul(&mask)?.sum(1)?;
    let mean = sum.broadcast_div(&mask.sum(1)?)?;
    let norm = mean
        .sqr()?
        .sum_keepdim(1)?
        .sqrt()?
        .clamp(1e-12f32, f32::MAX)?;
    mean.broadcast_div(&norm)
}
