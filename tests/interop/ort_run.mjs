#!/usr/bin/env node
// Runs one ONNX model in ONNX Runtime (npm onnxruntime-node, CPU execution
// provider, one thread) with inputs and outputs as numpy .npy files.
//
//   node ort_run.mjs MODEL.onnx OUT_DIR [INPUT.npy ...]
//   node ort_run.mjs --batch JOBS.txt
//
// With --batch, each line of JOBS.txt is one run, its fields separated by
// tabs: MODEL.onnx, OUT_DIR, then the inputs. One process then serves many
// small models (start-up is most of a small run's time). A run that fails
// writes OUT_DIR/error.txt (its exit code, a space, the message) and the
// batch goes on; the exit code is 0 unless the batch itself is unusable.
//
// Inputs bind positionally to the model's inputs (session.inputNames). Output
// i is written as OUT_DIR/output_<i>.npy. A sequence output would be written
// as OUT_DIR/output_<i>_<j>.npy per element plus OUT_DIR/output_<i>.seq
// holding the element count, but onnxruntime-node cannot return non-tensor
// values (see exit code 3).
//
// Exit codes: 0 success, 1 error (message on stderr), 2 usage error,
// 3 the model has a non-tensor (sequence, map, optional) input or output,
// which the Node.js binding of ONNX Runtime cannot pass.

import fs from 'node:fs';
import path from 'node:path';

const USAGE = `usage: node ort_run.mjs MODEL.onnx OUT_DIR [INPUT.npy ...]
       node ort_run.mjs --batch JOBS.txt
       node ort_run.mjs --version | --help

Runs MODEL.onnx in ONNX Runtime (onnxruntime-node, CPU, one thread). The .npy
inputs bind to the model's inputs in order; output i is written to
OUT_DIR/output_<i>.npy (OUT_DIR is created if needed).

.npy support: format 1.0 (2.0 and 3.0 read too), C order, little-endian;
dtypes float16/32/64, int8/16/32/64, uint8/16/32/64, bool ('|b1') and
unicode strings ('<U').

Options:
  --batch F    run every line of F (tab-separated MODEL, OUT_DIR, INPUT...);
               a failed run writes OUT_DIR/error.txt ("<exit code> <message>")
  --help       this text
  --version    print the onnxruntime-node version

Exit codes: 0 ok, 1 error, 2 usage, 3 non-tensor (sequence/map/optional)
input or output, which onnxruntime-node cannot pass.
`;

const EXIT_ERROR = 1;
const EXIT_USAGE = 2;
const EXIT_NON_TENSOR = 3;

class ExitError extends Error {
  constructor(message, code = EXIT_ERROR) {
    super(message);
    this.code = code;
  }
}

// ---- .npy ----

// numpy descr (without byte order) -> ORT tensor type, typed array, item size.
const DTYPES = {
  f2: { ort: 'float16', array: Uint16Array, size: 2 },
  f4: { ort: 'float32', array: Float32Array, size: 4 },
  f8: { ort: 'float64', array: Float64Array, size: 8 },
  i1: { ort: 'int8', array: Int8Array, size: 1 },
  i2: { ort: 'int16', array: Int16Array, size: 2 },
  i4: { ort: 'int32', array: Int32Array, size: 4 },
  i8: { ort: 'int64', array: BigInt64Array, size: 8 },
  u1: { ort: 'uint8', array: Uint8Array, size: 1 },
  u2: { ort: 'uint16', array: Uint16Array, size: 2 },
  u4: { ort: 'uint32', array: Uint32Array, size: 4 },
  u8: { ort: 'uint64', array: BigUint64Array, size: 8 },
  b1: { ort: 'bool', array: Uint8Array, size: 1 },
};
const ORT_TO_DESCR = {};
for (const [code, d] of Object.entries(DTYPES)) {
  ORT_TO_DESCR[d.ort] = (d.size === 1 ? '|' : '<') + code;
}

const NPY_MAGIC = Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]);  // \x93NUMPY

function parseHeader(header, file) {
  const descr = /'descr'\s*:\s*'([^']*)'/.exec(header);
  const fortran = /'fortran_order'\s*:\s*(True|False)/.exec(header);
  const shape = /'shape'\s*:\s*\(([^)]*)\)/.exec(header);
  if (!descr || !fortran || !shape) {
    throw new ExitError(`${file}: malformed .npy header: ${header.trim()}`);
  }
  if (fortran[1] === 'True') {
    throw new ExitError(`${file}: fortran_order True is not supported (C order only)`);
  }
  const dims = shape[1]
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
    .map((s) => {
      if (!/^\d+L?$/.test(s)) throw new ExitError(`${file}: bad dimension '${s}' in .npy shape`);
      return Number.parseInt(s, 10);
    });
  return { descr: descr[1], dims };
}

function readNpy(file, ort) {
  let bytes;
  try {
    bytes = fs.readFileSync(file);
  } catch (e) {
    throw new ExitError(`cannot read input ${file}: ${e.message}`);
  }
  if (bytes.length < 10 || !bytes.subarray(0, 6).equals(NPY_MAGIC)) {
    throw new ExitError(`${file}: not a .npy file (bad magic)`);
  }
  const major = bytes[6];
  let headerLen;
  let headerStart;
  if (major === 1) {
    headerLen = bytes.readUInt16LE(8);
    headerStart = 10;
  } else if (major === 2 || major === 3) {
    if (bytes.length < 12) throw new ExitError(`${file}: truncated .npy header`);
    headerLen = bytes.readUInt32LE(8);
    headerStart = 12;
  } else {
    throw new ExitError(`${file}: unsupported .npy format version ${major}.${bytes[7]}`);
  }
  const dataStart = headerStart + headerLen;
  if (bytes.length < dataStart) throw new ExitError(`${file}: truncated .npy header`);
  const header = bytes.subarray(headerStart, dataStart).toString(major === 3 ? 'utf8' : 'latin1');
  const { descr, dims } = parseHeader(header, file);
  const count = dims.reduce((a, b) => a * b, 1);
  const data = bytes.subarray(dataStart);

  const order = descr[0];
  const code = descr.slice(1);
  if (order === '>') throw new ExitError(`${file}: big-endian dtype '${descr}' is not supported`);
  if (!['<', '|', '='].includes(order)) throw new ExitError(`${file}: unsupported dtype '${descr}'`);

  if (code[0] === 'U') {
    const width = Number.parseInt(code.slice(1), 10);
    if (!(width >= 0)) throw new ExitError(`${file}: unsupported dtype '${descr}'`);
    if (data.length < count * width * 4) throw new ExitError(`${file}: truncated .npy data`);
    const strings = [];
    for (let i = 0; i < count; ++i) {
      let s = '';
      for (let k = 0; k < width; ++k) {
        const cp = data.readUInt32LE((i * width + k) * 4);
        if (cp === 0) break;
        s += String.fromCodePoint(cp);
      }
      strings.push(s);
    }
    return new ort.Tensor('string', strings, dims);
  }

  const d = DTYPES[code];
  if (!d) throw new ExitError(`${file}: unsupported dtype '${descr}'`);
  if (data.length < count * d.size) {
    throw new ExitError(`${file}: truncated .npy data (${data.length} bytes for ${count} elements of '${descr}')`);
  }
  // Copy into a fresh, aligned buffer.
  const array = new d.array(count);
  new Uint8Array(array.buffer).set(data.subarray(0, count * d.size));
  return new ort.Tensor(d.ort, array, dims);
}

function npyBytes(tensor, what) {
  const dims = tensor.dims.map(Number);
  let descr;
  let body;
  if (tensor.type === 'string') {
    const strings = Array.from(tensor.data, (s) => Array.from(s));  // code points
    const width = Math.max(1, ...strings.map((s) => s.length));
    body = Buffer.alloc(strings.length * width * 4);
    strings.forEach((s, i) => {
      s.forEach((ch, k) => body.writeUInt32LE(ch.codePointAt(0), (i * width + k) * 4));
    });
    descr = `<U${width}`;
  } else {
    descr = ORT_TO_DESCR[tensor.type];
    if (!descr) throw new ExitError(`${what}: element type '${tensor.type}' has no .npy dtype here`);
    const data = tensor.data;
    body = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  }
  const shape = dims.length === 1 ? `(${dims[0]},)` : `(${dims.join(', ')})`;
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shape}, }`;
  // Pad with spaces so that the data starts at a multiple of 64, ending in '\n'.
  const total = 10 + header.length + 1;
  header += ' '.repeat((64 - (total % 64)) % 64) + '\n';
  if (header.length > 0xffff) throw new ExitError(`${what}: .npy header too long for format 1.0`);
  const prefix = Buffer.alloc(10);
  NPY_MAGIC.copy(prefix, 0);
  prefix[6] = 1;
  prefix[7] = 0;
  prefix.writeUInt16LE(header.length, 8);
  return Buffer.concat([prefix, Buffer.from(header, 'latin1'), body]);
}

function writeFile(file, bytes) {
  try {
    fs.writeFileSync(file, bytes);
  } catch (e) {
    throw new ExitError(`cannot write ${file}: ${e.message}`);
  }
}

// ---- main ----

async function loadOrt() {
  try {
    return await import('onnxruntime-node');
  } catch (e) {
    const dir = path.dirname(new URL(import.meta.url).pathname);
    throw new ExitError(
      `cannot load onnxruntime-node (${e.message}).\n` +
        `Install it with: (cd ${dir} && npm ci --ignore-scripts), or run scripts/install-deps.sh`);
  }
}

function isTensor(value, ort) {
  return value instanceof ort.Tensor ||
    (value && typeof value === 'object' && 'dims' in value && 'type' in value && 'data' in value);
}

// Runs one model: loads it, binds the .npy inputs, writes the outputs.
async function runOne(ort, modelPath, outDir, inputFiles) {
  if (!fs.existsSync(modelPath)) throw new ExitError(`model ${modelPath} does not exist`);
  let session;
  try {
    session = await ort.InferenceSession.create(modelPath, {
      executionProviders: ['cpu'],
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      logSeverityLevel: 3,
    });
  } catch (e) {
    throw new ExitError(`ONNX Runtime cannot load ${modelPath}: ${e.message}`);
  }

  try {
    const nonTensor = [
      ...session.inputMetadata.filter((m) => m.isTensor === false).map((m) => `input '${m.name}'`),
      ...session.outputMetadata.filter((m) => m.isTensor === false).map((m) => `output '${m.name}'`),
    ];
    if (nonTensor.length > 0) {
      throw new ExitError(
        `${modelPath}: ${nonTensor.join(', ')} not a tensor (sequence, map or optional); ` +
          'the Node.js binding of ONNX Runtime (onnxruntime-node) only passes tensors',
        EXIT_NON_TENSOR);
    }

    if (inputFiles.length !== session.inputNames.length) {
      throw new ExitError(
        `${modelPath} has ${session.inputNames.length} input(s) [${session.inputNames.join(', ')}] ` +
          `but ${inputFiles.length} .npy file(s) were given`);
    }
    const feeds = {};
    inputFiles.forEach((file, i) => {
      feeds[session.inputNames[i]] = readNpy(file, ort);
    });

    let results;
    try {
      results = await session.run(feeds);
    } catch (e) {
      const code = /Non tensor type/i.test(e.message) ? EXIT_NON_TENSOR : EXIT_ERROR;
      throw new ExitError(`ONNX Runtime failed to run ${modelPath}: ${e.message}`, code);
    }

    try {
      fs.mkdirSync(outDir, { recursive: true });
    } catch (e) {
      throw new ExitError(`cannot create ${outDir}: ${e.message}`);
    }
    session.outputNames.forEach((name, i) => {
      const value = results[name];
      if (Array.isArray(value)) {
        value.forEach((item, j) => {
          if (!isTensor(item, ort)) {
            throw new ExitError(`output '${name}' element ${j} is not a tensor`, EXIT_NON_TENSOR);
          }
          writeFile(path.join(outDir, `output_${i}_${j}.npy`), npyBytes(item, `output '${name}'[${j}]`));
        });
        writeFile(path.join(outDir, `output_${i}.seq`), `${value.length}\n`);
      } else if (isTensor(value, ort)) {
        writeFile(path.join(outDir, `output_${i}.npy`), npyBytes(value, `output '${name}'`));
      } else {
        throw new ExitError(`output '${name}' is not a tensor (got ${typeof value})`, EXIT_NON_TENSOR);
      }
    });
  } finally {
    await session.release();
  }
}

async function runBatch(ort, jobsFile) {
  let text;
  try {
    text = fs.readFileSync(jobsFile, 'utf8');
  } catch (e) {
    throw new ExitError(`cannot read ${jobsFile}: ${e.message}`);
  }
  for (const line of text.split('\n')) {
    if (line.length === 0) continue;
    const [modelPath, outDir, ...inputFiles] = line.split('\t');
    if (!outDir) throw new ExitError(`${jobsFile}: a line needs MODEL and OUT_DIR: '${line}'`, EXIT_USAGE);
    try {
      await runOne(ort, modelPath, outDir, inputFiles);
    } catch (e) {
      fs.mkdirSync(outDir, { recursive: true });
      const code = e instanceof ExitError ? e.code : EXIT_ERROR;
      writeFile(path.join(outDir, 'error.txt'), `${code} ${e instanceof ExitError ? e.message : e.stack ?? e}`);
    }
  }
}

async function main(argv) {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (argv.includes('--version')) {
    const ort = await loadOrt();
    process.stdout.write(`onnxruntime-node ${ort.env.versions.node ?? ort.env.versions.common}\n`);
    return 0;
  }
  if (argv[0] === '--batch') {
    if (argv.length !== 2) throw new ExitError(`--batch takes one file\n${USAGE}`, EXIT_USAGE);
    const ort = await loadOrt();
    ort.env.logLevel = 'error';
    await runBatch(ort, argv[1]);
    return 0;
  }
  const unknown = argv.find((a) => a.startsWith('--'));
  if (unknown) throw new ExitError(`unknown option ${unknown}\n${USAGE}`, EXIT_USAGE);
  if (argv.length < 2) throw new ExitError(`expected MODEL.onnx and OUT_DIR\n${USAGE}`, EXIT_USAGE);
  const [modelPath, outDir, ...inputFiles] = argv;

  const ort = await loadOrt();
  ort.env.logLevel = 'error';
  await runOne(ort, modelPath, outDir, inputFiles);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`ort_run: ${e instanceof ExitError ? e.message : e.stack ?? e}\n`);
    process.exit(e instanceof ExitError ? e.code : EXIT_ERROR);
  });
