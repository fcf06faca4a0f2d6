// The reference GPT-2 encoder (npm's gpt-3-encoder, a port of OpenAI's encoder.py):
//   node gpt2_reference.js <module dir> <text file>   → the ids, space separated
const path = require('path');
const fs = require('fs');
const { encode } = require(path.resolve(process.argv[2]));
const text = fs.readFileSync(process.argv[3], 'utf-8');
process.stdout.write(encode(text).join(' ') + '\n');
