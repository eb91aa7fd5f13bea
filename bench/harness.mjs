// The timing harness shared by the benchmark drivers (run.mjs, sql.mjs, lake.mjs, write.mjs):
// command-line options, the DuckDB oracle, best-of-N timing of wall and process CPU time after
// a warm-up, the JSON answer of a tarn benchmark program, and markdown tables.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The repository's root folder.
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// option('--name', fallback): the argument after --name on the command line, else fallback.
const args = process.argv.slice(2);
export const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};

// The build folder holding the benchmark programs (--build, default build/).
export const buildDir = () => path.resolve(root, option('--build', 'build'));

// A connection to a new in-memory DuckDB (@duckdb/node-api, installed in tools/oracle) that
// uses `threads` threads.
const instances = [];  // kept alive as long as the process
export async function connectDuckDB(threads = 2) {
  const require = createRequire(path.join(root, 'tools/oracle/package.json'));
  const { DuckDBInstance } = require('@duckdb/node-api');
  const instance = await DuckDBInstance.create(':memory:');
  instances.push(instance);
  const con = await instance.connect();
  await con.run(`SET threads=${threads}`);
  return con;
}

// Runs `warmup` (default: `work`) once untimed, then `work` `reps` times, and returns the best
// wall time and, separately, the best process CPU time (user + system of every thread) in
// milliseconds, with the value `work` returned last. `setup`, when given, runs untimed before each
// run, the warm-up included.
export async function bestOf(work, { reps = 5, setup = null, warmup = work } = {}) {
  let best = Infinity;
  let bestCpu = Infinity;
  let value;
  for (let rep = 0; rep <= reps; rep++) {
    if (setup) setup();
    if (rep === 0) {
      value = await warmup();
      continue;
    }
    const start = process.hrtime.bigint();
    const cpuStart = process.cpuUsage();
    value = await work();
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e6);
    const cpu = process.cpuUsage(cpuStart);
    bestCpu = Math.min(bestCpu, (cpu.user + cpu.system) / 1000);
  }
  return { wall: best, cpu: bestCpu, value };
}

// Runs a tarn benchmark program and returns the JSON object of the last line it prints.
export function runJson(program, programArgs) {
  const out = execFileSync(program, programArgs, { encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop());
}

// Prints a markdown table: `header` names the columns, the first left-aligned and the others
// right-aligned (`lastLeft`: the last one left-aligned too); `rows` holds the cells as text.
export function printTable(header, rows, { lastLeft = false } = {}) {
  const align = header.map((_, i) => (i === 0 || (lastLeft && i === header.length - 1) ? '---' : '---:'));
  const line = (cells) => `| ${cells.join(' | ')} |`;
  console.log(line(header));
  console.log(`|${align.join('|')}|`);
  for (const cells of rows) console.log(line(cells));
}
