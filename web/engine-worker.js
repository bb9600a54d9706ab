/* The offline referee: the project's own Python engine (adjudicator) under Pyodide, in a Web Worker.
 *
 * The page posts {id, base, path, body, lang}: the same JSON body it would POST to the service at
 * `path`. The worker boots Pyodide from `base` once (its files come through the service worker's
 * cache when there is no signal), unpacks the engine archive, and answers with the service's own
 * JSON made by referee_local.answer (phone_engine/referee_local.py): the engine's parser, the
 * engine and the service's serializer. No rule is written in JavaScript.
 */
let engine = null;

async function boot(base) {
  const { loadPyodide } = await import(`${base}pyodide.mjs`);
  const lock = await (await fetch(`${base}pyodide-lock.json`)).json();
  const py = await loadPyodide({ indexURL: base, lockFileContents: lock, stdout: () => {}, stderr: () => {} });
  const archive = await (await fetch(`${base}referee.zip`)).arrayBuffer();
  py.unpackArchive(archive, 'zip', { extractDir: '/home/pyodide/referee' });
  py.runPython("import sys; sys.path.insert(0, '/home/pyodide/referee')");
  return py.pyimport('referee_local'); // loads and checks the four variants, as the service does at start
}

self.onmessage = async (event) => {
  const { id, base, path, body, lang } = event.data;
  try {
    if (!engine) engine = boot(base);
    const answer = (await engine).answer(path, body, lang);
    self.postMessage({ id, answer });
  } catch (error) {
    engine = null; // a failed boot is tried again on the next question
    self.postMessage({ id, error: String(error && error.message ? error.message : error) });
  }
};
