// Run phone_engine/cut.py under the Pyodide the phone runs, at build time (scripts/build-engine-archive).
//
//   node phone_engine/cut.mjs RUNTIME_DIR STAGE_DIR
//
// RUNTIME_DIR is the npm package pyodide (its whole standard library); STAGE_DIR holds referee/ (the
// engine's files as staged by the build) and receives stdlib/ and referee/ small, and cut.json.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const [runtime, stage] = process.argv.slice(2).map((p) => resolve(p));
const { loadPyodide } = await import(`${runtime}/pyodide.mjs`);
const py = await loadPyodide({
  indexURL: `${runtime}/`,
  env: { PYTHONDONTWRITEBYTECODE: '1' },
  stdout: (line) => process.stderr.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
});
py.FS.mkdirTree('/stage');
py.FS.mount(py.FS.filesystems.NODEFS, { root: stage }, '/stage');
const cut = readFileSync(new URL('./cut.py', import.meta.url), 'utf8');
try {
  py.runPython(`${cut}\nimport json as _json\n_json.dumps(main('/stage/referee', '/stage/out'))`);
} catch (error) {
  process.stderr.write(`${String(error.message || error)}\n`);
  process.exit(1);
}
process.stdout.write(readFileSync(`${stage}/out/cut.json`, 'utf8'));
