// Expression speed: 20 expression shapes (casts, arithmetic, string, date and nested functions,
// CASE, LIKE, IN lists) each evaluated over every row of range(10000000) and folded by one
// aggregate, in tarn (bench_sql: tarn::Session in-process) and in DuckDB (@duckdb/node-api) in
// the same run. Both use 2 threads; each figure is the best of 5 after one warm-up, of wall time
// and, separately, of the process's CPU time (both threads added up). Before timing, the two
// answers are compared as text (tarn's through `tarn --format csv`).
//
//   node bench/expr.mjs [--build build] [--only NAME] [--threads 2] [--rows 10000000]
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { bestOf, buildDir, connectDuckDB, option, printTable, runJson } from './harness.mjs';

const build = buildDir();
const only = option('--only', null);
const threads = Number(option('--threads', '2'));
const rows = Number(option('--rows', '10000000'));
const benchSql = path.join(build, 'bench_sql');
const tarnShell = path.join(build, 'tarn');
for (const program of [benchSql, tarnShell]) {
  if (!existsSync(program)) throw new Error(`missing ${program}: build a release tree first`);
}

// Each shape: [name, aggregate over the expression, with `i` the BIGINT 0 .. rows - 1].
const shapes = [
  ['cast BIGINT to VARCHAR', `max(i::VARCHAR)`],
  ['cast VARCHAR to BIGINT', `sum(i::VARCHAR::BIGINT)`],
  ['cast DOUBLE to VARCHAR', `max((i / 7)::VARCHAR)`],
  ['cast BIGINT to DECIMAL, times a decimal', `sum(CAST(i % 100000 AS DECIMAL(12, 2)) * 1.5)`],
  ['cast DOUBLE to INTEGER', `sum((i * 0.37::DOUBLE)::INTEGER)`],
  ['integer arithmetic', `sum((i * 7 + 3) % 101 - i // 5)`],
  ['string concatenation', `max('name_' || (i % 50000))`],
  ['date plus integer', `max(DATE '2020-01-01' + (i % 2000)::INTEGER)`],
  ['year of a date', `sum(year(DATE '2000-01-01' + (i % 10000)::INTEGER))`],
  ['cast DATE to VARCHAR', `max(CAST(DATE '2020-01-01' + (i % 2000)::INTEGER AS VARCHAR))`],
  ['strftime of a date', `max(strftime(DATE '2020-01-01' + (i % 2000)::INTEGER, '%d/%m/%Y'))`],
  ['cast VARCHAR to DATE', `max(('2020-' || (i % 12 + 1) || '-' || (i % 28 + 1))::DATE)`],
  ['date_trunc of a timestamp', `max(date_trunc('month', TIMESTAMP '2020-01-01 00:00:00' + to_seconds(i)))`],
  ['CASE with three branches', `sum(CASE WHEN i % 3 = 0 THEN i WHEN i % 3 = 1 THEN -i ELSE 0 END)`],
  ['LIKE over integers as text', `count(*) FILTER (WHERE i::VARCHAR LIKE '%42%')`],
  ['IN list of 8 integers', `count(*) FILTER (WHERE i % 1000 IN (1, 7, 42, 99, 123, 512, 777, 999))`],
  ['upper of a substring', `max(upper(substr('abcdefghijklmnop' || i, 3, 10)))`],
  ['length of a replace', `sum(length(replace(i::VARCHAR, '1', 'one')))`],
  ['struct field and list element', `sum({'a': i, 'b': i % 7}.b + [i, i + 1, i + 2][2])`],
  ['greatest, coalesce and nullif', `sum(greatest(i % 7, i % 11, coalesce(nullif(i % 13, 0), 5)))`],
];

const con = await connectDuckDB(threads);
const queryOf = (aggregate) => `SELECT ${aggregate} FROM range(${rows}) t(i)`;
const answerOf = (aggregate) => `SELECT (${aggregate})::VARCHAR AS answer FROM range(${rows}) t(i)`;

async function duckAnswer(sql) {
  const result = await con.runAndReadAll(sql);
  return String(result.getRows()[0][0]);
}

function tarnAnswer(sql) {
  const out = execFileSync(tarnShell, ['--format', 'csv', '-c', sql], { encoding: 'utf8' });
  const lines = out.trim().split('\n');
  return lines[lines.length - 1].replace(/^"(.*)"$/, '$1');
}

const results = [];
for (const [name, aggregate] of shapes) {
  if (only && !name.includes(only)) continue;
  const [expected, actual] = [await duckAnswer(answerOf(aggregate)), tarnAnswer(answerOf(aggregate))];
  if (expected !== actual) throw new Error(`${name}: tarn answered ${actual}, DuckDB ${expected}`);
  const sql = queryOf(aggregate);
  const tarn = runJson(benchSql, ['--threads', String(threads), sql]);
  const duck = await bestOf(async () => (await con.runAndReadAll(sql)).getRows());
  results.push({ name, aggregate, tarn, duck });
  console.error(`${name}: tarn ${tarn.best_ms.toFixed(1)} ms (CPU ${tarn.best_cpu_ms.toFixed(1)}), ` +
                `DuckDB ${duck.wall.toFixed(1)} ms (CPU ${duck.cpu.toFixed(1)})`);
}

printTable(['shape', 'expression', 'tarn ms', 'DuckDB ms', 'wall ratio', 'tarn CPU ms', 'DuckDB CPU ms', 'CPU ratio'],
           results.map((r) => [r.name, `\`${r.aggregate}\``, r.tarn.best_ms.toFixed(1), r.duck.wall.toFixed(1),
                               (r.tarn.best_ms / r.duck.wall).toFixed(2), r.tarn.best_cpu_ms.toFixed(1),
                               r.duck.cpu.toFixed(1), (r.tarn.best_cpu_ms / r.duck.cpu).toFixed(2)]));
const ratios = results.map((r) => r.tarn.best_cpu_ms / r.duck.cpu);
const geomean = Math.exp(ratios.reduce((s, x) => s + Math.log(x), 0) / ratios.length);
console.log(`\nCPU ratio geometric mean: ${geomean.toFixed(2)}`);
