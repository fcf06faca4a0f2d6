// bench_tokenize's peer: npm's tiktoken (OpenAI's tokenizer, its Rust core as WebAssembly, GPT-2's
// ranks bundled), one process kept for the whole benchmark run.
//
//   node tiktoken_peer.js <tiktoken dir> <text file> [<text file> …]
//
// Reads each file as UTF-8 into a string (as a tiktoken user holds text), encodes the first file
// once (V8 compiles the WebAssembly to its optimising tier), then prints "ready" and answers one
// line per request on stdin:
//   "<i>"  encodes input i once with encode_ordinary; prints "<ns> <cpu_us> <tokens> <checksum>":
//          the wall-clock nanoseconds of that call alone (process.hrtime), the CPU time the
//          process spent in it (process.cpuUsage, user + system, every thread of node), the
//          number of ids and their FNV-1a checksum (computed after the clocks stop;
//          bench_tokenize compares it with its own ids')
// and ends at end of input.
const path = require('path');
const fs = require('fs');
const readline = require('readline');
const { get_encoding } = require(path.resolve(process.argv[2]));

const enc = get_encoding('gpt2');
const texts = process.argv.slice(3).map((f) => fs.readFileSync(f, 'utf-8'));
if (texts.length > 0)
    enc.encode_ordinary(texts[0]);

function checksum(ids) {
    let h = 2166136261;
    for (let k = 0; k < ids.length; ++k)
        h = Math.imul(h ^ ids[k], 16777619) >>> 0;
    return h;
}

const lines = readline.createInterface({ input: process.stdin, terminal: false });
lines.on('line', (line) => {
    const i = Number(line);
    if (!Number.isInteger(i) || i < 0 || i >= texts.length) {
        process.stdout.write('error no input ' + line + '\n');
        return;
    }
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    const ids = enc.encode_ordinary(texts[i]);
    const t1 = process.hrtime.bigint();
    const c = process.cpuUsage(c0);
    process.stdout.write(`${t1 - t0} ${c.user + c.system} ${ids.length} ${checksum(ids)}\n`);
});
lines.on('close', () => enc.free());
process.stdout.write('ready\n');
