#!/usr/bin/env node
// The peer of bench/session_models: times models in ONNX Runtime 1.30
// (onnxruntime-node, CPU execution provider) the way session_models times
// them in the project's Session. bench/models.sh runs both.
//
//   node bench/session_models_ort.mjs DIR THREADS [NAME...]
//
// For each model (DIR/models.txt, or the names given), prints one line:
// "<name> <session creation ms> <median run ms> <runs>". The session uses
// THREADS intra-op threads and one inter-op thread; a run feeds
// DIR/<name>.input.npy (float32) to the model's first input. One warm-up
// run, then runs until a second has passed and at least three were made.
// When DIR/<name>.ours.npy exists (the Session's output, written by
// session_models), a fifth field is the largest difference between it and
// ONNX Runtime's first output, relative to the largest magnitude of the latter.

import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const here = path.dirname(new URL(import.meta.url).pathname);
const require = createRequire(path.join(here, '..', 'tests', 'interop', 'package.json'));

const USAGE = 'usage: node bench/session_models_ort.mjs DIR THREADS [NAME...]';

// A float32 .npy file (format 1.x or 2.x, C order, little-endian).
function readNpyFloat32(file) {
  const bytes = fs.readFileSync(file);
  const major = bytes[6];
  const headerLen = major === 1 ? bytes.readUInt16LE(8) : bytes.readUInt32LE(8);
  const start = (major === 1 ? 10 : 12) + headerLen;
  const header = bytes.subarray(major === 1 ? 10 : 12, start).toString('latin1');
  if (!header.includes("'<f4'")) throw new Error(`${file}: not a little-endian float32 array`);
  if (header.includes("'fortran_order': True")) throw new Error(`${file}: Fortran order`);
  const shape = header.match(/'shape': \(([^)]*)\)/)[1].split(',').map((s) => s.trim())
    .filter((s) => s.length > 0).map(Number);
  const data = new Float32Array(bytes.buffer.slice(bytes.byteOffset + start,
    bytes.byteOffset + bytes.length));
  return { shape, data };
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

async function main() {
  const args = process.argv.slice(2);
  if (args.length < 2 || args[0] === '--help' || args[0] === '-h') {
    console.log(USAGE);
    process.exit(args.length < 2 && args[0] !== '--help' && args[0] !== '-h' ? 2 : 0);
  }
  const [dir, threadArg, ...given] = args;
  const threads = Number(threadArg);
  const names = given.length > 0 ? given
    : fs.readFileSync(path.join(dir, 'models.txt'), 'latin1').split('\n').filter((s) => s);
  const ort = require('onnxruntime-node');
  for (const name of names) {
    const start = performance.now();
    const session = await ort.InferenceSession.create(path.join(dir, `${name}.onnx`), {
      executionProviders: ['cpu'],
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      logSeverityLevel: 3,
    });
    const loadMs = performance.now() - start;
    const { shape, data } = readNpyFloat32(path.join(dir, `${name}.input.npy`));
    const feeds = { [session.inputNames[0]]: new ort.Tensor('float32', data, shape) };
    await session.run(feeds);  // warm-up
    const times = [];
    const begin = performance.now();
    while (times.length < 3 || performance.now() - begin < 1000) {
      const t0 = performance.now();
      await session.run(feeds);
      times.push(performance.now() - t0);
    }
    const ours = path.join(dir, `${name}.ours.npy`);
    let diff = '';
    if (fs.existsSync(ours)) {
      const theirs = (await session.run(feeds))[session.outputNames[0]].data;
      const mine = readNpyFloat32(ours).data;
      let worst = mine.length === theirs.length ? 0 : Infinity;
      let scale = 0;
      for (let i = 0; i < theirs.length && i < mine.length; ++i) {
        worst = Math.max(worst, Math.abs(mine[i] - theirs[i]));
        scale = Math.max(scale, Math.abs(theirs[i]));
      }
      diff = ` ${(worst / (scale || 1)).toExponential(2)}`;
    }
    console.log(`${name} ${loadMs.toFixed(2)} ${median(times).toFixed(3)} ${times.length}${diff}`);
    await session.release();
  }
}

main().catch((e) => {
  console.error(e.message);
  process.exit(1);
});
