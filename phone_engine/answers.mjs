// The phone's engine, as built, answering a list of questions under Node: what the tests compare with
// the service's answers (tests/test_offline_engine_answers.py).
//
//   node phone_engine/answers.mjs BUILD_DIR QUESTIONS.json > ANSWERS.json
//
// QUESTIONS.json is a list of {path, body, lang}. The engine is started by the phone's own code
// (web/engine-worker.js) from the built files (BUILD_DIR, as /web/engine/<version>/ serves them): first
// afresh, as on the phone's first start, answering every tenth question; then its memory snapshot is
// kept and a second engine starts from it, as on every later start, and answers them all. Printed:
// {"fresh": [...], "restored": [...], "seconds": {...}}, each answer the JSON text the worker posts
// (null for a question the fresh engine was not asked).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

// The page's worker is a module of the page (web/, no package.json there): Node before 20.19 would read a
// .js file as CommonJS, so its text is imported as a module as it is (it imports nothing itself).
const worker = readFileSync(new URL('../web/engine-worker.js', import.meta.url));
const { keepWake, startEngine } = await import(`data:text/javascript;base64,${worker.toString('base64')}`);

const [build, questionsFile] = process.argv.slice(2).map((p) => resolve(p));
const questions = JSON.parse(readFileSync(questionsFile, 'utf8'));
const { loadPyodide } = await import(`${build}/pyodide.mjs`);
// Node's Buffer is a view on a shared pool: the engine gets bytes of its own.
const referee = new Uint8Array(readFileSync(`${build}/referee.zip`));
const seconds = {};

function answerAll(started, every = 1) {
  return questions.map(({ path, body, lang }, i) => {
    if (i % every) return null;
    try {
      return started.engine.answer(path, JSON.stringify(body), lang);
    } catch (error) {
      return JSON.stringify({ error: String(error.message || error).split('\n').slice(-4).join('\n') });
    }
  });
}

function timed(name, work) {
  const t0 = performance.now();
  const out = work();
  seconds[name] = (performance.now() - t0) / 1000;
  return out;
}

try {
  let t0 = performance.now();
  const fresh = await startEngine({ loadPyodide, indexURL: `${build}/`, referee, snapshot: null });
  seconds.start_afresh = (performance.now() - t0) / 1000;
  const freshAnswers = timed('answers_afresh', () => answerAll(fresh, 10));
  const snapshot = timed('wake_and_snapshot', () => keepWake(fresh));
  t0 = performance.now();
  const restored = await startEngine({ loadPyodide, indexURL: `${build}/`, referee, snapshot });
  seconds.start_from_snapshot = (performance.now() - t0) / 1000;
  const restoredAnswers = timed('answers_from_snapshot', () => answerAll(restored));
  process.stdout.write(JSON.stringify({ fresh: freshAnswers, restored: restoredAnswers, seconds, snapshot_bytes: snapshot.length }));
} catch (error) {
  process.stderr.write(`${String(error.message || error).slice(-3000)}\n`);
  process.exit(1);
}
