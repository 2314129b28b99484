// The npm package as a user installs it: imported by its name from
// target/npm/chunkscope (./x npm builds it), initialised in Node, splitting.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { dirname, join } from "node:path";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const dir = join(root, "target", "npm", "chunkscope");
const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
const entry = pathToFileURL(join(dir, pkg.exports["."].default)).href;
const api = await import(entry);
api.initSync({ module: readFileSync(join(dir, "chunkscope_wasm_bg.wasm")) });

const REFUND =
  "Refund policy\n\nRefunds take 5 days. They go to the original UPI id.\n" +
  "COD orders get store credit.\n\nContact us 24x7.";

/** Type-checks `program` (a TypeScript module) against the package's declarations:
 * the status and output of `tsc --strict`. */
async function typecheck(program) {
  const { mkdtempSync, writeFileSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { spawnSync } = await import("node:child_process");
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  const work = mkdtempSync(join(tmpdir(), "chunkscope-ts-"));
  writeFileSync(join(work, "use.mts"), program);
  const run = spawnSync(
    process.execPath,
    // wasm-bindgen's declarations use the DOM's types and `Symbol.dispose`.
    [tsc, "--noEmit", "--strict", "--target", "es2022", "--lib", "esnext,dom", "--module", "nodenext", "--moduleResolution", "nodenext", join(work, "use.mts")],
    { encoding: "utf8" },
  );
  rmSync(work, { recursive: true, force: true });
  return run;
}

test("the package names what it ships, and ships it", () => {
  const version = /^version = "(.*)"/m.exec(readFileSync(join(root, "Cargo.toml"), "utf8"))[1];
  assert.equal(pkg.name, "chunkscope");
  assert.equal(pkg.version, version);
  assert.equal(api.version(), version);
  for (const file of pkg.files) assert.ok(existsSync(join(dir, file)), file);
  const types = readFileSync(join(dir, pkg.types), "utf8");
  for (const name of ["split", "installTokenizer", "separatorPresets", "decodeReport", "version"]) {
    assert.match(types, new RegExp(`export function ${name}\\(`), name);
  }
});

test("a word-vector model file gives the semantic strategy its vectors", () => {
  // Each topic on its own axis: distances exactly 0, 1, 0 (as the native test pins).
  const model = new api.EmbeddingModel("toy", new TextEncoder().encode("cat 1 0\ndog 1 0\ntax 0 1\nfee 0 1\n"));
  assert.deepEqual([model.dims, model.words], [2, 4]);
  const report = api.splitWithModel("Cat cat. Dog dog. Tax tax. Fee fee.", { strategy: "semantic", size: 100, semantic: { buffer: 0 } }, model);
  assert.deepEqual(report.chunks.map((c) => [c.start, c.end]), [[0, 17], [18, 35]]);
  assert.deepEqual(report.trace.semantic.distances, [0, 1, 0]);
  assert.throws(() => new api.EmbeddingModel("bad", new TextEncoder().encode("cat 1 0\ndog 1\n")), /line 2/);
  assert.throws(() => api.splitWithModel("a. b.", { strategy: "recursive" }, model), /only one that embeds/);
});

test("splits the lesson's refund page into the lesson's chunks", () => {
  const report = api.split(REFUND, { size: 40, separators: ["\n\n", "\n", ". ", " ", ""] });
  assert.deepEqual(
    report.chunks.map((c) => [c.start, c.end, c.cut, c.text]),
    [
      [0, 13, "\n\n", "Refund policy"],
      [15, 35, ". ", "Refunds take 5 days."],
      [36, 67, "\n", "They go to the original UPI id."],
      [68, 96, "\n\n", "COD orders get store credit."],
      [98, 114, "end", "Contact us 24x7."],
    ],
  );
  assert.equal(report.checks.ok, true);
  for (const property of ["coverage", "max_size", "order", "overlap", "determinism"]) {
    assert.equal(report.checks[property].ok, true, property);
  }
  // Fixed 40-char windows of the same page cut "g|et" (not "Refunds", as
  // the lesson says) and start the third chunk mid-sentence.
  const fixed = api.split(REFUND, { strategy: "fixed", size: 40 });
  assert.deepEqual(
    fixed.chunks.map((c) => [c.start, c.end, c.cut]),
    [[0, 40, "window"], [40, 80, "window"], [80, 114, "end"]],
  );
  assert.equal(fixed.chunks[1].text, " go to the original UPI id.\nCOD orders g");
  assert.equal(fixed.chunks[2].text, "et store credit.\n\nContact us 24x7.");
});

test("semchunk through the JS API: the library's chunks, offsets and cuts on the refund page", () => {
  // semchunk.chunkerify(len, 40)(REFUND, offsets=True), recorded from semchunk 4.1.1.
  const report = api.split(REFUND, { strategy: "semchunk", size: 40 });
  assert.deepEqual(
    report.chunks.map((c) => [c.start, c.end, c.cut]),
    [[0, 13, "\n\n"], [15, 35, "(?<=\\.) "], [36, 67, "\n"], [68, 96, "\n\n"], [98, 114, "end"]],
  );
  assert.throws(
    () => api.split("naïve", { strategy: "semchunk", size: 1, unit: "bytes" }),
    /RecursionError/,
  );
});

test("chonkie-recursive through the JS API: RecursiveChunker's chunks on the refund page", () => {
  // RecursiveChunker(chunk_size=40).chunk(REFUND), recorded from chonkie 1.7.0.
  const report = api.split(REFUND, { strategy: "chonkie-recursive", size: 40 });
  assert.deepEqual(report.chunks.map((c) => [c.start, c.end]), [[0, 36], [36, 68], [68, 108], [108, 114]]);
  assert.throws(() => api.split(REFUND, { strategy: "chonkie-recursive", size: 40, overlap: 5 }), /no overlap/);
});

test("chonkie-token through the JS API: TokenChunker's windows on the refund page", () => {
  // TokenChunker(chunk_size=40, chunk_overlap=5).chunk(REFUND), recorded from chonkie 1.7.0.
  const report = api.split(REFUND, { strategy: "chonkie-token", size: 40, overlap: 5 });
  assert.deepEqual(report.chunks.map((c) => [c.start, c.end]), [[0, 40], [35, 75], [70, 110], [105, 114]]);
  assert.throws(() => api.split(REFUND, { strategy: "chonkie-token", size: 40, overlap: 40 }), /chunk_overlap must be less than chunk_size/);
});

test("chonkie-sentence through the JS API: SentenceChunker's chunks on the refund page", () => {
  // SentenceChunker(chunk_size=40, chunk_overlap=30).chunk(REFUND), recorded from chonkie 1.7.0:
  // the overlap walks back one sentence of 21 chars (22 with chonkie's +1).
  const report = api.split(REFUND, { strategy: "chonkie-sentence", size: 40, overlap: 30 });
  assert.deepEqual(report.chunks.map((c) => [c.start, c.end]), [[0, 36], [15, 36], [36, 68], [68, 98], [98, 114]]);
  assert.throws(() => api.split(REFUND, { strategy: "chonkie-sentence", size: 40, overlap: 40 }), /chunk_overlap must be less than chunk_size/);
});

test("llamaindex-sentence through the JS API: SentenceSplitter's chunks on the refund page", () => {
  // SentenceSplitter(chunk_size=20, chunk_overlap=8, tokenizer=list).split_text(REFUND),
  // recorded from llama-index-core 0.14.25 (offsets where its splits lie).
  const report = api.split(REFUND, { strategy: "llamaindex-sentence", size: 20, overlap: 8, unit: "chars" });
  assert.deepEqual(
    report.chunks.map((c) => [c.start, c.end]),
    [[0, 6], [7, 22], [23, 40], [36, 50], [44, 63], [60, 78], [72, 88], [83, 96], [98, 114]],
  );
  assert.deepEqual(report.chunks.map((c) => c.cut).slice(-2), ["sentence", "end"]);
  assert.throws(
    () => api.split(REFUND, { strategy: "llamaindex-sentence", size: 4, overlap: 5, unit: "chars" }),
    /larger than size/,
  );
});

test("llamaindex-token through the JS API: TokenTextSplitter's chunks on the refund page", () => {
  // TokenTextSplitter(chunk_size=20, chunk_overlap=8, tokenizer=list).split_text(REFUND),
  // recorded from llama-index-core 0.14.25 (offsets where its splits lie): words at
  // spaces, the overlap whole words kept from the end of the chunk before.
  const report = api.split(REFUND, { strategy: "llamaindex-token", size: 20, overlap: 8, unit: "chars" });
  assert.deepEqual(
    report.chunks.map((c) => [c.start, c.end]),
    [[0, 6], [7, 22], [23, 40], [36, 50], [44, 63], [60, 78], [72, 88], [89, 108], [106, 114]],
  );
  assert.deepEqual(report.chunks.map((c) => c.cut).slice(-2), [" ", "end"]);
  assert.throws(
    () => api.split(REFUND, { strategy: "llamaindex-token", size: 4, overlap: 5, unit: "chars" }),
    /larger than size \(4\), which LlamaIndex's TokenTextSplitter refuses/,
  );
});

test("llamaindex-markdown through the JS API: MarkdownNodeParser's nodes, a rebuilt header with no start_char_idx", () => {
  // MarkdownNodeParser().get_nodes_from_documents([Document(text=text)]), recorded
  // from llama-index-core 0.14.25: the "##\tUPI" line rebuilt as "## UPI", which
  // str.find does not find (start_char_idx None, -1 here).
  const text = "# Refunds\nWithin 5 days.\n##\tUPI\nInstant.\n## Cards\nsee # Refunds";
  const report = api.split(text, { strategy: "llamaindex-markdown", size: 400 });
  assert.deepEqual(
    report.chunks.map((c) => [c.start, c.end, c.cut, c.is_slice, c.start_index, c.metadata.header_path]),
    [[0, 24, "##", true, 0, "/"], [25, 40, "##", false, -1, "/Refunds/"], [41, 63, "end", true, 41, "/Refunds/"]],
  );
  assert.equal(report.chunks[1].text, "## UPI\nInstant.");
});

test("text-splitter through the JS API: the crate's chunks on the refund page, each cut named by its level", () => {
  // TextSplitter(40).chunk_indices(REFUND), recorded from semantic-text-splitter 0.33.1.
  const report = api.split(REFUND, { strategy: "text-splitter", size: 40 });
  assert.deepEqual(
    report.chunks.map((c) => [c.start, c.end, c.cut]),
    [[0, 13, "\n\n"], [15, 35, "sentence"], [36, 67, "\n"], [68, 96, "\n\n"], [98, 114, "end"]],
  );
  const markdown = api.split(REFUND, { strategy: "text-splitter-markdown", size: 40 });
  assert.deepEqual(markdown.chunks.map((c) => [c.start, c.end]), [[0, 13], [15, 35], [36, 67], [68, 96], [98, 114]]);
  assert.throws(
    () => api.split(REFUND, { strategy: "text-splitter", size: 40, overlap: 40 }),
    /The overlap is larger than or equal to the desired chunk capacity/,
  );
});

test("the README's examples give what the README says", () => {
  const { chunks } = api.split("Refund policy\n\nRefunds take 5 days.", {
    size: 20,
    separators: ["\n\n", "\n", ". ", " ", ""],
  });
  assert.deepEqual(
    chunks.map((c) => [c.index, c.start, c.end, c.len, c.cut, c.text]),
    [[0, 0, 13, 13, "\n\n", "Refund policy"], [1, 15, 35, 20, "end", "Refunds take 5 days."]],
  );
  assert.deepEqual(
    api.split("one two three four five six", { size: 10 }).chunks.map((c) => c.text),
    ["one two", "three", "four five", "six"],
  );
});

test("a bad configuration throws what to change", () => {
  assert.throws(() => api.split("abc", { size: 4, overlap: 4 }), /overlap \(4\) must be smaller than size \(4\)/);
  assert.throws(() => api.split("abc", "big"), /config must be an object/);
});

test("LangChain's classes, exactly", () => {
  // What langchain-text-splitters 1.1.3 gives for
  // RecursiveCharacterTextSplitter(chunk_size=3, chunk_overlap=0,
  // add_start_index=True).create_documents(["a b c d e f"]).
  const report = api.split("a b c d e f", { strategy: "langchain", size: 3, overlap: 0 });
  assert.deepEqual(
    report.chunks.map((c) => [c.text, c.start_index]),
    [["a b", 0], ["c", 4], ["d", 6], ["e", 8], ["f", 10]],
  );
});

test("TypeScript reads every strategy's real report as the shipped Report type", async () => {
  const rows = Array.from({ length: 12 }, (_, i) => `| ${i} | ${i * i} |\n`).join("");
  const md = `# Refunds\n\nRefunds take 5 days.\n\n## UPI\n\n| n | square |\n|---|---|\n${rows}`;
  // Each configuration brings fields of its own: overlap, sentences and
  // their candidates, heading paths and prefixes, table headers, metadata,
  // LangChain's section, is_slice and start_index, the semantic trace.
  const cases = [
    [REFUND, { size: 40, separators: ["\n\n", "\n", ". ", " ", ""] }],
    [REFUND, { strategy: "fixed", size: 12, overlap: 3 }],
    [REFUND, { size: 30, overlap: 8, separators: ["\n\n", { level: "sentence" }, " ", ""] }],
    [REFUND, { size: 25, separators: [{ pattern: "[.!?] ", regex: true }, ""] }],
    [REFUND, { strategy: "sentence", size: 40 }],
    [md, { strategy: "markdown", size: 60, heading_prefix: true, table_header: "repeat" }],
    [REFUND, { strategy: "langchain", size: 40 }],
    [REFUND, { strategy: "langchain-character", size: 10 }],
    [md, { strategy: "langchain-markdown", then_recursive: [] }],
    [REFUND, { strategy: "semantic", size: 60, semantic: { breakpoint: "gradient" } }],
    [REFUND, { strategy: "semchunk", size: 40 }],
    [REFUND, { strategy: "chonkie-recursive", size: 40, min_characters_per_chunk: 3 }],
    [REFUND, { strategy: "chonkie-token", size: 40, overlap: 5 }],
    [REFUND, { strategy: "chonkie-sentence", size: 40, overlap: 30 }],
    [REFUND, { strategy: "llamaindex-sentence", size: 40, unit: "chars" }],
    [REFUND, { strategy: "llamaindex-token", size: 40, overlap: 10, unit: "chars" }],
    [md.replace("## UPI", "##\tUPI"), { strategy: "llamaindex-markdown", size: 200 }],
    [REFUND, { strategy: "text-splitter", size: 40 }],
    [md, { strategy: "text-splitter-markdown", size: 40 }],
  ];
  const lines = cases.map(([text, config], i) => `const r${i}: Report = ${JSON.stringify(api.split(text, config))};`);
  const program = `import { split, type Report } from ${JSON.stringify(join(dir, "chunkscope_wasm.js"))};
${lines.join("\n")}
const report = split("text", { size: 4 });
const first: string = report.chunks[0].text;
const at: number = report.chunks[0].utf16_start;
// @ts-expect-error: a misspelt field of a chunk
report.chunks[0].txt;
// @ts-expect-error: a length is a number
const len: string = report.chunks[0].len;
// @ts-expect-error: an action the engine never records
const action: Report["trace"] = { depth: 1, nodes: [{ ...r0.trace!.nodes[0], action: "merge" }] };
export { first, at, len, action };
`;
  const run = await typecheck(program);
  assert.equal(run.status, 0, `tsc: ${run.stdout}${run.stderr}`);
  // Every strategy the shipped settings type names has its report read.
  const named = readFileSync(join(root, "npm", "settings.d.ts"), "utf8")
    .match(/strategy\?: ([^;]*);/)[1]
    .split(" | ")
    .filter((s) => s !== "null")
    .map((s) => JSON.parse(s));
  const covered = new Set(cases.map(([, config]) => config.strategy ?? "recursive"));
  assert.deepEqual(named.filter((s) => !covered.has(s)), [], "a strategy whose report is never read");
  assert.ok(named.length >= 16, `${named.length} strategies named`);
});

test("TypeScript reads a real reply of every kind as the shipped WorkerReply type", async () => {
  // The worker's handler, answered here: what it posts is kept.
  const replies = [];
  globalThis.postMessage = (message) => replies.push(message);
  const docs = [{ name: "refund.txt", text: REFUND }];
  const jsonl = JSON.stringify({ question: "How long do refunds take?", doc: "refund.txt", answers: [{ start: 28, end: 34 }] });
  const question = { question: "How long do refunds take?", doc: "refund.txt", answers: [{ start: 28, end: 34 }] };
  const requests = [
    { id: 1, text: REFUND, config: { size: 40 } },
    { id: 2, text: REFUND, config: { size: 40 }, encoding: "binary" },
    { id: 3, text: REFUND, detail: "determinism" },
    { id: 4, tokenizer: new Uint8Array([1, 2, 3]) },
    { id: 5, model: { name: "w.txt", files: [{ name: "w.txt", bytes: new TextEncoder().encode("cat 1 0\ndog 0 1\n").buffer }] } },
    { id: 6, model: null },
    { id: 7, questions: jsonl, docs },
    { id: 8, evaluate: { docs, questions: [question], config: { size: 40 }, top_k: 2 } },
    { id: 9, corpus: { docs, config: { size: 40 }, export: "csv" } },
    { id: 10, text: REFUND, config: { size: 10, overlap: 10 } },
  ];
  try {
    replies.push(api.readyMessage());
    for (const request of requests) api.answer(request);
  } finally {
    delete globalThis.postMessage;
  }
  const kinds = replies.map((r) => Object.keys(r).find((k) => !["id", "ms", "export"].includes(k)));
  assert.deepEqual(kinds, ["ready", "report", "report", "determinism", "error", "loaded", "loaded", "parsed", "evaluation", "corpus", "error"]);
  assert.ok(replies[2].report instanceof ArrayBuffer);
  // A buffer is written as one in the program; everything else as its JSON.
  const literal = (value) => (value instanceof ArrayBuffer ? "new ArrayBuffer(0)" : JSON.stringify(value));
  const written = (reply) => `{ ${Object.entries(reply).map(([k, v]) => `${JSON.stringify(k)}: ${literal(v)}`).join(", ")} }`;
  const lines = replies.map((reply, i) => `const m${i}: WorkerReply = ${written(reply)};`);
  const asked = requests
    .filter((r) => !r.tokenizer && !r.model)
    .map((request, i) => `const q${i}: WorkerRequest = ${JSON.stringify(request)};`);
  const program = `import type { WorkerReply, WorkerRequest } from ${JSON.stringify(join(dir, "chunkscope_wasm.js"))};
${lines.join("\n")}
${asked.join("\n")}
const tokens: WorkerRequest = { id: 4, tokenizer: new Uint8Array([1, 2, 3]) };
const model: WorkerRequest = { id: 5, model: { name: "w.txt", files: [{ name: "w.txt", bytes: new ArrayBuffer(8) }] } };
// @ts-expect-error: the text is a string
const wrong: WorkerRequest = { id: 1, text: 40 };
// @ts-expect-error: a detail that does not exist
const detail: WorkerRequest = { id: 1, text: "t", detail: "everything" };
// @ts-expect-error: an encoding that does not exist
const encoding: WorkerRequest = { id: 1, text: "t", encoding: "xml" };
// @ts-expect-error: an error's field is a string or null
const reply: WorkerReply = { id: 1, error: { message: "m", field: 3, separator: null } };
export { tokens, model, wrong, detail, encoding, reply };
`;
  const run = await typecheck(program);
  assert.equal(run.status, 0, `tsc: ${run.stdout}${run.stderr}`);
  assert.equal(lines.length, 11, "every reply was written");
});

test("TypeScript checks a configuration against the shipped types", async () => {
  // Every `@ts-expect-error` must meet an error, so each mistake below is one
  // the types catch; the rest must compile.
  const program = `import { split, type Settings } from ${JSON.stringify(join(dir, "chunkscope_wasm.js"))};
const lesson: Settings = {
  strategy: "recursive", size: 40, overlap: 0, unit: "chars", placement: "end", trim: true,
  separators: ["\\n\\n", { pattern: "\\\\d+", regex: true }, { level: "sentence" }, ""],
};
split("text", lesson);
split("text", null);
split("text", { strategy: "markdown", heading_prefix: true });
split("text", { strategy: "semantic", semantic: { breakpoint: "gradient", amount: 80, buffer: 1 } });
split("text", { strategy: "langchain-markdown", each_line: true, then_recursive: [] });
split("text", { strategy: "chonkie-recursive", min_characters_per_chunk: 3 });
// @ts-expect-error: a minimum is a number
split("text", { strategy: "chonkie-recursive", min_characters_per_chunk: "3" });
// @ts-expect-error: a misspelt field
split("text", { sise: 40 });
// @ts-expect-error: a strategy that does not exist
split("text", { strategy: "late" });
// @ts-expect-error: a unit that does not exist
split("text", { unit: "words" });
// @ts-expect-error: a size is a number
split("text", { size: "40" });
// @ts-expect-error: a level that does not exist
split("text", { separators: [{ level: "paragraph" }] });
// @ts-expect-error: a breakpoint that does not exist
split("text", { strategy: "semantic", semantic: { breakpoint: "mean" } });
`;
  const run = await typecheck(program);
  assert.equal(run.status, 0, `tsc: ${run.stdout}${run.stderr}`);
});
