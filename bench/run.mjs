// Runs tarn and DuckDB on the same data in the same run and prints the ratios as a markdown
// table. Both use 2 threads; each measurement is the best of 5 after one warm-up.
//
//   node bench/run.mjs [--build build] [--work /tmp/tarn-bench] [--only NAME]
//
// Wall times and, for full scans, process CPU times (both threads added up) are reported.
// The generated 10M-row, 8-column table and the 5M-row table of the selective scans are written
// once into the work folder (the second by DuckDB and, a copy, by tarn).
import { existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { bestOf, buildDir, connectDuckDB, option, printTable, root, runJson } from './harness.mjs';

const build = buildDir();
const work = option('--work', '/tmp/tarn-bench');
const only = option('--only', null);
mkdirSync(work, { recursive: true });

const flights = path.join(root, 'tools/oracle/node_modules/vega-datasets/data/flights-3m.parquet');
const lineitem = path.resolve(root, '../shared/data/tpch-sf0.1/lineitem.parquet');
const gen10m = path.join(work, 'gen10m.parquet');

const con = await connectDuckDB(2);

// Best wall time and, separately, best process CPU time (user + system of every thread).
const duckBest = (sql) => bestOf(async () => { await con.run(sql); });
const tarnBench = (...benchArgs) => runJson(path.join(build, 'tarn_bench'), benchArgs);

if (!existsSync(gen10m)) {
  console.error(`generating ${gen10m} ...`);
  await con.run(`COPY (
    SELECT i AS id,
           (i * 7919) % 1000003 AS amount,
           ((i * 31) % 100000) / 100.0 :: DOUBLE AS price,
           DATE '2000-01-01' + CAST(i % 9000 AS INTEGER) AS day,
           TIMESTAMP '2020-01-01' + to_microseconds(i * 1000) AS ts,
           ['red', 'green', 'blue', 'cyan', 'magenta', 'yellow', 'black', 'white'][1 + i % 8] AS color,
           md5(CAST(i AS VARCHAR)) AS token,
           sqrt(i) :: DOUBLE AS score
    FROM range(10000000) t(i)) TO '${gen10m}' (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE 122880)`);
}

const decodeAll = (file) => `SELECT min(COLUMNS(*)), max(COLUMNS(*)) FROM read_parquet('${file}')`;
const rows = [];
async function compare(name, duckSql, tarnArgs, extra = () => '') {
  if (only && !name.includes(only)) return;
  const { wall: duck, cpu: duckCpu } = await duckBest(duckSql);
  const tarn = tarnBench(...tarnArgs);
  const tarnCpu = tarn.best_cpu_ms ?? NaN;
  rows.push({ name, tarn: tarn.best_ms, duck, ratio: tarn.best_ms / duck, tarnCpu, duckCpu,
              note: extra(tarn) });
  console.error(`${name}: tarn ${tarn.best_ms.toFixed(1)} ms (CPU ${tarnCpu.toFixed(1)}), ` +
                `DuckDB ${duck.toFixed(1)} ms (CPU ${duckCpu.toFixed(1)})`);
}

await compare('scan flights-3m (all columns)', decodeAll(flights), ['scan', flights]);
await compare('scan lineitem SF0.1 (all columns)', decodeAll(lineitem), ['scan', lineitem]);
await compare('scan generated 10M x 8 (all columns)', decodeAll(gen10m), ['scan', gen10m]);

const duckOut = path.join(work, 'duck-write.parquet');
const tarnOut = path.join(work, 'tarn-write.parquet');
if (!only || 'write generated 10M x 8 (snappy, 122880-row groups)'.includes(only)) {
  await con.run(`CREATE OR REPLACE TABLE gen AS SELECT * FROM read_parquet('${gen10m}')`);
}
await compare('write generated 10M x 8 (snappy, 122880-row groups)',
  `COPY gen TO '${duckOut}' (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE 122880)`,
  ['write', gen10m, tarnOut, 'snappy', '122880'],
  (t) => `tarn ${(t.bytes / 1e6).toFixed(1)} MB, DuckDB ${(statSync(duckOut).size / 1e6).toFixed(1)} MB`);

// Selective scans with positions: 5M rows in 41 row groups (122,880 rows each), sorted by id.
// gen5m-duck.parquet is DuckDB's file; gen5m-tarn.parquet holds the same rows written by tarn
// (its default writes a page index for the sorted columns). Both engines read both files.
const gen5mDuck = path.join(work, 'gen5m-duck.parquet');
const gen5mTarn = path.join(work, 'gen5m-tarn.parquet');
const wantsSelective = !only || 'positions selective filter page index'.split(' ').some((w) => only.includes(w));
if (wantsSelective && !existsSync(gen5mDuck)) {
  console.error(`generating ${gen5mDuck} ...`);
  await con.run(`COPY (
    SELECT i AS id,
           (i * 7919) % 1000003 AS amount,
           ((i * 31) % 100000) / 100.0 :: DOUBLE AS price,
           DATE '2000-01-01' + CAST(i // 2000 AS INTEGER) AS day,
           md5(CAST(i AS VARCHAR)) AS token
    FROM range(5000000) t(i)) TO '${gen5mDuck}' (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE 122880)`);
}
if (wantsSelective && !existsSync(gen5mTarn)) {
  tarnBench('write', gen5mDuck, gen5mTarn, 'snappy', '122880');
}
const positionsSql = (file, where) =>
  `SELECT count(*), sum(file_row_number) FROM read_parquet('${file}', file_row_number=true) WHERE ${where}`;
const filterSql = (file, where) =>
  `SELECT min(COLUMNS(*)), max(COLUMNS(*)) FROM read_parquet('${file}') WHERE ${where}`;
const selectiveWhere = 'id >= 2500000 AND id < 2510000';  // 10,000 rows inside one row group
const clusteredWhere = 'day = DATE \'2003-06-01\'';     // 2,000 rows, day is clustered
const pruneNote = (t) => `${t.rows} rows; ${t.row_groups_pruned} row groups and ${t.pages_pruned} pages pruned, ${t.rows_decoded} rows decoded`;
for (const [label, file] of [['DuckDB file', gen5mDuck], ['tarn file', gen5mTarn]]) {
  await compare(`positions: ${selectiveWhere}, ${label} (5M rows, 41 row groups)`,
    positionsSql(file, selectiveWhere), ['positions', file, selectiveWhere], pruneNote);
  await compare(`positions: ${clusteredWhere}, ${label}`,
    positionsSql(file, clusteredWhere), ['positions', file, clusteredWhere], pruneNote);
  await compare(`filter all columns: ${selectiveWhere}, ${label}`,
    filterSql(file, selectiveWhere), ['filter', file, selectiveWhere], pruneNote);
}
await compare(`filter all columns: ${selectiveWhere}, tarn file, page index off`,
  filterSql(gen5mTarn, selectiveWhere), ['filter', gen5mTarn, selectiveWhere, 'noindex'], pruneNote);

// CPU columns: tarn_bench reports CPU for full scans only (other modes print n/a).
const cpuText = (v) => (Number.isFinite(v) ? v.toFixed(1) : 'n/a');
printTable(['benchmark', 'tarn ms', 'DuckDB ms', 'tarn/DuckDB', 'tarn CPU ms', 'DuckDB CPU ms',
            'CPU ratio', 'notes'],
           rows.map((r) => [r.name, r.tarn.toFixed(1), r.duck.toFixed(1), r.ratio.toFixed(2),
                            cpuText(r.tarnCpu), cpuText(r.duckCpu),
                            Number.isFinite(r.tarnCpu) ? (r.tarnCpu / r.duckCpu).toFixed(2) : 'n/a',
                            r.note]),
           { lastLeft: true });
