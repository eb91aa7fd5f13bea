// Expression speed: 20 expression shapes (casts, arithmetic, string, date and nested functions,
// CASE, LIKE, IN lists) each evaluated over every row of range(10000000) and folded by one
// aggregate, in tarn (bench_sql: tarn::Session in-process) and in DuckDB (@duckdb/node-api) in
// the same run. Both use 2 threads; each figure is the best of 5 after one warm-up, of wall time
// and, separately, of the process's CPU time (both threads added up). Before timing, the two
// answers are compared as text (tarn's through `tarn --format csv`).
//
// Two lake shapes follow, over a generated 5-column table (id BIGINT, k INTEGER, v DOUBLE,
// s VARCHAR, d DATE) of `rows` rows:
//   CREATE TABLE AS:  tarn's CTAS into a lake on local disk (rows generated, written as Parquet,
//                     committed), against DuckDB's COPY of the same SELECT to one Parquet file
//                     (snappy, 122,880-row groups: DuckLake's defaults). This DuckDB has no
//                     ducklake extension (only npm is reachable), so COPY is the file work
//                     DuckLake would do, without its catalog;
//   lake scan:        an aggregate over every column after 1% of the rows were deleted and 1%
//                     updated, against DuckDB reading the same data files with the same delete
//                     files anti-joined on (file name, file_row_number).
//
//   node bench/expr.mjs [--build build] [--only NAME] [--threads 2] [--rows 10000000]
//                       [--work /tmp/tarn-expr-bench]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { bestOf, buildDir, connectDuckDB, option, printTable, runJson } from './harness.mjs';

const build = buildDir();
const only = option('--only', null);
const threads = Number(option('--threads', '2'));
const rows = Number(option('--rows', '10000000'));
const work = path.resolve(option('--work', '/tmp/tarn-expr-bench'));
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

function tarnRows(sql) {
  const out = execFileSync(tarnShell, ['--format', 'csv', '-c', sql], { encoding: 'utf8' });
  return out.trim().split('\n').slice(1).map((line) => line.split(',').map((v) => v.replace(/^"(.*)"$/, '$1')));
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

// The lake shapes.
const columns = `i AS id, (i % 1000)::INTEGER AS k, i * 0.5 AS v, 'name_' || (i % 50000) AS s, ` +
                `DATE '2020-01-01' + (i % 2000)::INTEGER AS d`;
const generate = `SELECT ${columns} FROM range(${rows}) t(i)`;
const everyColumn = 'count(*), sum(id), sum(k), sum(v), max(s), max(d)';
const attach = (lake) => `ATTACH 'ducklake:${lake}/catalog.sqlite' AS l (DATA_PATH '${lake}/data/')`;
const answerText = (row) => row.map((v) => String(v)).join(',');

if (!only || 'CREATE TABLE AS'.includes(only)) {
  const lake = path.join(work, 'ctas');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(lake, { recursive: true });
  const copyFile = path.join(work, 'duckdb-ctas.parquet');
  const copy = `COPY (${generate}) TO '${copyFile}' (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE 122880)`;
  const tarn = runJson(benchSql, ['--threads', String(threads), '--setup', attach(lake),
                                  '--each', 'DROP TABLE IF EXISTS l.t', `CREATE TABLE l.t AS ${generate}`]);
  const duck = await bestOf(async () => { await con.run(copy); });
  const duckAnswerRow = (await con.runAndReadAll(`SELECT ${everyColumn} FROM '${copyFile}'`)).getRows()[0];
  const tarnAnswerRow = tarnRows(`${attach(lake)}; SELECT ${everyColumn} FROM l.t`)[0];
  if (answerText(duckAnswerRow) !== tarnAnswerRow.join(',')) {
    throw new Error(`CREATE TABLE AS: tarn's table holds ${tarnAnswerRow}, DuckDB's file ${duckAnswerRow}`);
  }
  results.push({ name: 'CREATE TABLE AS, 5 columns', aggregate: 'CREATE TABLE l.t AS SELECT …', tarn, duck });
  console.error(`CREATE TABLE AS: tarn ${tarn.best_ms.toFixed(1)} ms (CPU ${tarn.best_cpu_ms.toFixed(1)}), ` +
                `DuckDB ${duck.wall.toFixed(1)} ms (CPU ${duck.cpu.toFixed(1)})`);
}

if (!only || 'lake scan'.includes(only)) {
  const lake = path.join(work, 'scan');
  rmSync(lake, { recursive: true, force: true });
  mkdirSync(lake, { recursive: true });
  execFileSync(tarnShell, ['-c', `${attach(lake)}; CREATE TABLE l.t AS ${generate}; ` +
                                 'DELETE FROM l.t WHERE id % 100 = 0; UPDATE l.t SET v = v + 1 WHERE id % 100 = 1']);
  const files = tarnRows(`${attach(lake)}; SELECT data_file, coalesce(delete_file, '') FROM ducklake_list_files('l', 't')`);
  const list = (paths) => `[${paths.map((p) => `'${p}'`).join(', ')}]`;
  const withDeletes = files.filter(([, del]) => del !== '');
  const without = files.filter(([, del]) => del === '');
  const parts = [];
  if (withDeletes.length > 0) {
    parts.push(`SELECT f.id, f.k, f.v, f.s, f.d FROM read_parquet(${list(withDeletes.map(([data]) => data))}, ` +
               `filename = true, file_row_number = true) f ANTI JOIN read_parquet(${list(withDeletes.map(([, del]) => del))}) x ` +
               `ON x.file_path = f.filename AND x.pos = f.file_row_number`);
  }
  if (without.length > 0) parts.push(`SELECT id, k, v, s, d FROM read_parquet(${list(without.map(([data]) => data))})`);
  const duckSql = `SELECT ${everyColumn} FROM (${parts.join(' UNION ALL ')})`;
  const tarnSql = `SELECT ${everyColumn} FROM l.t`;
  const duckAnswerRow = (await con.runAndReadAll(duckSql)).getRows()[0];
  const tarnAnswerRow = tarnRows(`${attach(lake)}; ${tarnSql}`)[0];
  if (answerText(duckAnswerRow) !== tarnAnswerRow.join(',')) {
    throw new Error(`lake scan: tarn answered ${tarnAnswerRow}, DuckDB ${duckAnswerRow}`);
  }
  const tarn = runJson(benchSql, ['--threads', String(threads), '--setup', attach(lake), tarnSql]);
  const duck = await bestOf(async () => (await con.runAndReadAll(duckSql)).getRows());
  results.push({ name: 'lake scan, 1% deleted and 1% updated', aggregate: `SELECT ${everyColumn} FROM l.t`, tarn, duck });
  console.error(`lake scan: tarn ${tarn.best_ms.toFixed(1)} ms (CPU ${tarn.best_cpu_ms.toFixed(1)}), ` +
                `DuckDB ${duck.wall.toFixed(1)} ms (CPU ${duck.cpu.toFixed(1)})`);
}

printTable(['shape', 'expression', 'tarn ms', 'DuckDB ms', 'wall ratio', 'tarn CPU ms', 'DuckDB CPU ms', 'CPU ratio'],
           results.map((r) => [r.name, `\`${r.aggregate}\``, r.tarn.best_ms.toFixed(1), r.duck.wall.toFixed(1),
                               (r.tarn.best_ms / r.duck.wall).toFixed(2), r.tarn.best_cpu_ms.toFixed(1),
                               r.duck.cpu.toFixed(1), (r.tarn.best_cpu_ms / r.duck.cpu).toFixed(2)]));
const ratios = results.map((r) => r.tarn.best_cpu_ms / r.duck.cpu);
const geomean = Math.exp(ratios.reduce((s, x) => s + Math.log(x), 0) / ratios.length);
console.log(`\nCPU ratio geometric mean: ${geomean.toFixed(2)}`);
