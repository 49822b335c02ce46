// Reference ids for the tokenizer tests: npm's gpt-3-encoder (OpenAI's GPT-2
// encoder in JavaScript) on hard texts. Writes tests/data/gpt2/cases.tsv:
//     (cd /tmp && npm pack gpt-3-encoder@1.1.4 && tar xzf gpt-3-encoder-1.1.4.tgz)
//     node tests/tools/bpe_reference.mjs /tmp/package > tests/data/gpt2/cases.tsv
import { createRequire } from 'module';
const require = createRequire(import.meta.url);
const { encode } = require(process.argv[2]);
const cases = [
  'Hello world', 'I\'m sure you\'re right, they\'ll say we\'ve done it; she\'d know it\'s his.',
  'DON\'T SHOUT\'S \'s \'t \'re \'ve \'m \'ll \'d \'x', 'a\'\'s b\'\'\'t',
  'two  spaces,   three,    four', '   leading', 'trailing   ', 'a \n b', '\n\n\nthree newlines',
  'tab\tand\t\ttabs', 'mixed \t\n \t space runs \n\n  end  ', ' ', '  ', '\n',
  'digits 0 12 345 6789 3.14159 1,000,000 2024-12-02', 'Arabic-Indic ٣٤٥ and fullwidth １２３',
  'ⅫⅠ roman numerals, ½ and ² superscripts', '你好，世界！这是一个测试。', '日本語のテキストです。',
  '한국어 문장입니다', 'Ελληνικά και русский текст', 'emoji 😀👍🏽 and 👨‍👩‍👧‍👦 family and 🏳️‍🌈 flag',
  'combining e\u0301 vs é, café, naïve, z\u0334\u0322a\u0336l\u0337g\u0338o\u0335',
  'punctuation!!! ... ?! (parens) [brackets] {braces} <html><body>',
  'non-breaking\u00a0space and ideographic\u3000space and zero\u200bwidth',
  'https://example.org/path?query=1&x=2#frag', 'snake_case camelCase kebab-case ALLCAPS',
  'The quick brown fox jumps over the lazy dog. '.repeat(3), 'Déjà vu — “quotes” ‘single’ «guillemets»',
  'math: x² + y² = z², ∑ᵢ aᵢ, ∞ ≠ 0', 'a\u0300\u0301\u0302 stacked marks',
];
for (const text of cases) console.log(`${JSON.stringify(text)}\t${encode(text).join(',')}`);
