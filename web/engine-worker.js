/* The offline referee: the project's own Python engine (adjudicator) under Pyodide, in a Web Worker.
 *
 * The page posts {id, base, cache, path, body, lang}: the same JSON body it would POST to the service
 * at `path`; the worker answers {id, answer} with the service's own JSON, made by
 * referee_local.answer (phone_engine/referee_local.py): the engine's parser, the engine and the
 * service's serializer. No rule is written in JavaScript. {id, base, cache, lang} alone wakes the engine
 * and has it rule once (phone_engine/wake.py `once`: a started interpreter answers its first question
 * slower than the next), answered {id, awake}: the page says "ready" only then, so the first question
 * asked after it comes at a warm answer's speed. With `prepare` it keeps the snapshot below (answered
 * {id, prepared}).
 *
 * Waking in a second: the first start of the engine (Pyodide's interpreter, the engine imported, the
 * four variants loaded and their citations checked, one question of each kind asked in each language,
 * phone_engine/wake.py) takes seconds, so its result is kept: a memory snapshot of the interpreter,
 * stored in the engine's cache (`cache`, beside the files the service worker serves from it). Every
 * later start loads that snapshot instead of starting afresh. A snapshot this browser cannot load is
 * dropped and the engine starts afresh (and keeps a new one).
 *
 * The engine's Python files come as one stored zip (referee.zip), written into Pyodide's file
 * system before Python starts; the standard library as the zip Pyodide reads (python_stdlib.zip).
 * startEngine() and keepWake() are exported for Node, where phone_engine/answers.mjs runs this very
 * code against the built engine in the tests.
 */
const REFEREE_DIR = '/home/pyodide/referee';
const SNAPSHOT = 'snapshot.bin';

/** Write the files of a stored (uncompressed) zip into Pyodide's file system, under `dir`. */
export function unpackStored(FS, bytes, dir) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = bytes.length - 22;
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end -= 1;
  if (end < 0) throw new Error('referee.zip is not a zip');
  const names = new TextDecoder();
  let at = view.getUint32(end + 16, true);
  for (let i = view.getUint16(end + 10, true); i > 0; i -= 1) {
    if (view.getUint32(at, true) !== 0x02014b50) throw new Error('referee.zip: a broken directory');
    const stored = view.getUint16(at + 10, true) === 0;
    const size = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const local = view.getUint32(at + 42, true);
    const name = names.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    if (name.endsWith('/')) continue;
    if (!stored) throw new Error(`referee.zip: ${name} is compressed`);
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const path = `${dir}/${name}`;
    FS.mkdirTree(path.slice(0, path.lastIndexOf('/')));
    FS.writeFile(path, bytes.subarray(start, start + size));
  }
}

/**
 * Start the engine: from `snapshot` (the bytes keepWake() gave) when there is one, else afresh (and
 * then ready to keep a snapshot). `loadPyodide` is the runtime's,
 * `indexURL` where its files are, `referee` the bytes of referee.zip. Resolves to {py, engine, restored}.
 * Pyodide sizes the interpreter's memory to the snapshot itself.
 */
export async function startEngine({ loadPyodide, indexURL, referee, snapshot }) {
  const options = {
    indexURL,
    env: { PYTHONDONTWRITEBYTECODE: '1' }, // nothing to gain from writing .pyc files into memory
    stdout: () => {},
    stderr: () => {},
    fsInit: (FS) => unpackStored(FS, referee, REFEREE_DIR), // before Python starts, also under a snapshot
  };
  if (snapshot) options._loadSnapshot = snapshot;
  else options._makeSnapshot = true;
  const py = await loadPyodide(options);
  if (!snapshot) py.runPython(`import sys; sys.path.insert(0, '${REFEREE_DIR}')`);
  // Afresh, this loads and checks the four variants, as the service does when it starts.
  return { py, engine: py.pyimport('referee_local'), restored: Boolean(snapshot) };
}

/** Ask the wake's questions (every kind, every language), then the interpreter's memory snapshot. */
export function keepWake(started) {
  started.py.pyimport('wake').wake();
  return started.py.makeMemorySnapshot();
}

// ---- in the browser -------------------------------------------------------------------------------

let started = null; // Promise of {py, engine, restored}
let kept = false; // a snapshot is in the cache

async function bytesOf(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

async function boot(base, cacheName) {
  const cache = await caches.open(cacheName);
  // The interpreter's WebAssembly is compiled at once, straight from the cache (not streamed through the
  // service worker, which halves its reading), while the rest loads; Pyodide is handed the compiled module.
  const compiling = WebAssembly.compileStreaming(cache.match(`${base}pyodide.asm.wasm`));
  const [{ loadPyodide }, referee, stored] = await Promise.all([
    import(`${base}pyodide.mjs`), bytesOf(`${base}referee.zip`), cache.match(base + SNAPSHOT)]);
  if (stored) {
    try {
      const [snapshot, module] = await Promise.all([stored.arrayBuffer(), compiling]);
      const engine = await withModule(module, () => startEngine({
        loadPyodide, indexURL: base, referee, snapshot: new Uint8Array(snapshot) }));
      kept = true;
      return engine;
    } catch (e) {
      await cache.delete(base + SNAPSHOT); // made by another browser build, or damaged: start afresh
    }
  }
  const module = await compiling;
  return withModule(module, () => startEngine({ loadPyodide, indexURL: base, referee, snapshot: null }));
}

/**
 * Run `start` with WebAssembly.instantiateStreaming answering from `module`: Pyodide instantiates its
 * interpreter with that call (on the file it fetches itself), and this worker compiled the same file
 * already. Only for the start; the call is the browser's own again afterwards.
 */
async function withModule(module, start) {
  const own = WebAssembly.instantiateStreaming;
  WebAssembly.instantiateStreaming = async (source, imports) => ({ module, instance: await WebAssembly.instantiate(module, imports) });
  try {
    return await start();
  } finally {
    WebAssembly.instantiateStreaming = own;
  }
}

async function keepSnapshot(base, cacheName) {
  if (kept) return;
  const engine = await started;
  await new Promise((resolve) => { setTimeout(resolve, 0); }); // questions waiting already go first
  if (engine.restored || kept) return;
  const bytes = keepWake(engine);
  const cache = await caches.open(cacheName);
  await cache.put(base + SNAPSHOT, new Response(bytes, { headers: { 'Content-Type': 'application/octet-stream' } }));
  kept = true;
}

if (typeof WorkerGlobalScope !== 'undefined' && globalThis instanceof WorkerGlobalScope) {
  self.onmessage = async (event) => {
    const { id, base, cache, path, body, lang, prepare } = event.data;
    let engine;
    try {
      if (!started) started = boot(base, cache);
      engine = await started;
    } catch (error) {
      started = null; // a failed start is tried again on the next question
      self.postMessage({ id, error: String(error && error.message ? error.message : error) });
      return;
    }
    try {
      if (prepare) {
        await keepSnapshot(base, cache);
        self.postMessage({ id, prepared: true });
      } else if (path) {
        self.postMessage({ id, answer: engine.engine.answer(path, body, lang) });
      } else {
        engine.py.pyimport('wake').once(lang || 'en');
        self.postMessage({ id, awake: true });
      }
    } catch (error) { // the engine stays: a question it could not answer, or a snapshot not kept
      self.postMessage({ id, error: String(error && error.message ? error.message : error) });
    }
  };
}
