// A tiny model2vec model the end-to-end tests load from "local files": a
// WordPiece vocabulary of the topic words below with 3-dimensional vectors
// (cat words one way, tax words another, the rest a third), written as
// model2vec's save_pretrained writes them: model.safetensors (an F32
// `embeddings` tensor), tokenizer.json and config.json.

const CAT = ['cats', 'cat', 'purr', 'nap', 'naps', 'sun', 'day'];
const TAX = ['tax', 'forms', 'due', 'april', 'file', 'offices', 'close', 'noon'];
const OTHER = ['a', 'all', 'in', 'the', 'are', 'early', 'at', '.', ','];

export const VOCAB = ['[UNK]', ...CAT, ...TAX, ...OTHER];

function row(token) {
  if (CAT.includes(token)) return [1, 0.1, 0];
  if (TAX.includes(token)) return [0.1, 1, 0];
  if (token === '[UNK]') return [0, 0, 0];
  return [0, 0, 1];
}

/** The safetensors bytes of `rows` (arrays of numbers) as one F32 tensor. */
export function safetensors(rows, { dtype = 'F32', name = 'embeddings', lie = 0 } = {}) {
  const dims = rows[0].length;
  const data = new Float32Array(rows.flat());
  const bytes = data.byteLength;
  const header = JSON.stringify({
    __metadata__: { format: 'pt' },
    [name]: { dtype, shape: [rows.length, dims], data_offsets: [0, bytes + lie] },
  });
  const head = new TextEncoder().encode(header);
  const out = new Uint8Array(8 + head.length + bytes);
  new DataView(out.buffer).setBigUint64(0, BigInt(head.length), true);
  out.set(head, 8);
  out.set(new Uint8Array(data.buffer), 8 + head.length);
  return Buffer.from(out);
}

export const TOKENIZER = JSON.stringify({
  version: '1.0',
  truncation: null,
  padding: null,
  added_tokens: [{ id: 0, content: '[UNK]', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true }],
  normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
  pre_tokenizer: { type: 'BertPreTokenizer' },
  post_processor: null,
  decoder: null,
  model: {
    type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100,
    vocab: Object.fromEntries(VOCAB.map((t, i) => [t, i])),
  },
});

export const CONFIG = JSON.stringify({ max_length: 512, normalize: true, embedding_dtype: 'float32' });

/** The three files, as Playwright's setInputFiles takes them. */
export function model2vecFiles() {
  return [
    { name: 'model.safetensors', mimeType: 'application/octet-stream', buffer: safetensors(VOCAB.map(row)) },
    { name: 'tokenizer.json', mimeType: 'application/json', buffer: Buffer.from(TOKENIZER) },
    { name: 'config.json', mimeType: 'application/json', buffer: Buffer.from(CONFIG) },
  ];
}

/** The same vectors as GloVe text (`word v1 v2 v3` a line). */
export function gloveFile() {
  const lines = VOCAB.slice(1).map((t) => `${t} ${row(t).join(' ')}`);
  return { name: 'topics.txt', mimeType: 'text/plain', buffer: Buffer.from(lines.join('\n') + '\n') };
}

export { row };

/**
 * A model2vec model over the words of `text` (lowercased runs of letters and
 * digits), each with a deterministic 8-dimensional vector from its letters.
 */
export function modelOf(text) {
  const words = [...new Set((text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []))];
  const vocab = ['[UNK]', ...words, '.', ','];
  const vector = (w, i) => {
    if (i === 0) return new Array(8).fill(0);
    const v = new Array(8).fill(0);
    for (const [j, c] of [...w].entries()) v[(c.codePointAt(0) + j) % 8] += 1;
    return v;
  };
  const tokenizer = JSON.parse(TOKENIZER);
  tokenizer.model.vocab = Object.fromEntries(vocab.map((t, i) => [t, i]));
  return [
    { name: 'model.safetensors', mimeType: 'application/octet-stream', buffer: safetensors(vocab.map(vector)) },
    { name: 'tokenizer.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(tokenizer)) },
    { name: 'config.json', mimeType: 'application/json', buffer: Buffer.from(CONFIG) },
  ];
}
