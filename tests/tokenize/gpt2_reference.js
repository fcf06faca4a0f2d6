// The reference GPT-2 encoder: npm's tiktoken (OpenAI's tokenizer; GPT-2's ranks ship with it).
//   node gpt2_reference.js <tiktoken dir> <text file> [<text file> …]
// prints, per file, one line of its ids (space separated). The text is read as UTF-8, so a file
// must be valid UTF-8 (tiktoken encodes strings); "<|endoftext|>" is ordinary text here, as in
// encoder.py (encode_ordinary).
const path = require('path');
const fs = require('fs');
const { get_encoding } = require(path.resolve(process.argv[2]));
const enc = get_encoding('gpt2');
for (const file of process.argv.slice(3)) {
    const text = fs.readFileSync(file, 'utf-8');
    process.stdout.write(Array.from(enc.encode_ordinary(text)).join(' ') + '\n');
}
enc.free();
