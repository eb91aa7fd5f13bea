// Reading a DuckLake lake: tarn's table scan (bench_lake scan) against DuckDB reading the same
// Parquet files directly, with the delete files anti-joined on (file name, file_row_number).
// Both use 2 threads; each measurement is the best of 5 after one warm-up, in the same run.
//
//   node bench/lake.mjs [--build build-rel] [--work /tmp/tarn-lake-bench] [--rows 10000000]
//
// The lake (10 files, ~1% of the rows deleted through delete files) is generated once by
// `bench_lake gen` into the work folder, and its state after a 1% UPDATE (an embedded-row-id
// file plus replaced delete files, `bench_lake update`) next to it. The answers of both sides
// are compared before timing. The point read after the update is timed three ways: the first
// query of a fresh process without sidecars (the row summary is derived from the update's
// file), the first query of a fresh process after `bench_lake publish` (the summary comes from
// the .rowsum sidecar), and warm (best of 5, summaries cached in the process). tarn's CPU time
// (user+sys per timed run) is printed as well.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { bestOf, buildDir, connectDuckDB, option, printTable, root, runJson } from './harness.mjs';

const build = buildDir();
const work = option('--work', '/tmp/tarn-lake-bench');
const rows = option('--rows', '10000000');
const fixture = path.resolve(root, '../shared/fixtures/ducklake/inlined/catalog.sqlite');
const lake = path.join(work, `lake-${rows}`);
const bench = path.join(build, 'bench_lake');
mkdirSync(work, { recursive: true });

if (!existsSync(path.join(lake, 'catalog.sqlite'))) {
  console.error(`generating ${lake} ...`);
  console.error(execFileSync(bench, ['gen', lake, rows, fixture], { encoding: 'utf8' }).trim());
}

if (!existsSync(path.join(lake, 'catalog-updated.sqlite'))) {
  console.error(execFileSync(bench, ['update', lake], { encoding: 'utf8' }).trim());
}
rmSync(path.join(lake, 'main/il/ducklake-update.parquet.rowsum'), { force: true });

const con = await connectDuckDB(2);
const files = `read_parquet('${lake}/main/il/ducklake-[0-9].parquet', filename=true, file_row_number=true)`;
const deletes = `read_parquet('${lake}/main/il/ducklake-*-delete.parquet')`;
const live = `(SELECT d.* FROM ${files} d ANTI JOIN ${deletes} x
               ON x.file_path = d.filename AND x.pos = d.file_row_number)`;
// After the update: the base files minus the new delete files, plus the update's file.
const deletes4 = `read_parquet('${lake}/main/il/ducklake-*-delete-4.parquet')`;
const live4 = `(SELECT d.id, d.k, d.v, d.s FROM ${files} d ANTI JOIN ${deletes4} x
                ON x.file_path = d.filename AND x.pos = d.file_row_number
                UNION ALL SELECT id, k, v, s FROM read_parquet('${lake}/main/il/ducklake-update.parquet'))`;

async function duckRun(sql) {
  const reader = await con.runAndReadAll(sql);
  return reader.getRows()[0].map((v) => (v === null ? null : Number(v)));
}
async function duckBest(sql) {
  return (await bestOf(async () => { await con.run(sql); })).wall;
}
function tarn(query, catalog = 'catalog.sqlite') {
  return runJson(bench, ['scan', lake, query, '5', catalog]);
}

const queries = [
  { name: 'full aggregate: count(*), sum(k), sum(v)', query: 'agg',
    sql: `SELECT count(*), sum(k), sum(v) FROM ${live}`,
    same: (t, d) => t.count === d[0] && t.int_sum === d[1] && Math.abs(t.double_sum - d[2]) < 1e-3 * Math.abs(d[2]) },
  { name: 'selective filter k = 7, projecting rowid', query: 'filter',
    sql: `SELECT count(*), sum(id) FROM ${live} WHERE k = 7`,
    same: (t, d) => t.count === d[0] && t.int_sum === d[1] },
  { name: 'point read of 3 rowids', query: 'point',
    sql: `SELECT count(*), sum(id), sum(k) FROM ${live} WHERE id IN (123, 4567891, 9876543)`,
    same: (t, d) => t.count === d[0] && t.int_sum === (d[1] ?? 0) && t.double_sum === (d[2] ?? 0) },
  { name: 'point read of 3 rowids after a 1% update (cold, no sidecar)', query: 'point',
    catalog: 'catalog-updated.sqlite', cold: true,
    sql: `SELECT count(*), sum(id), sum(k) FROM ${live4} WHERE id IN (123, 4567891, 9876543)`,
    same: (t, d) => t.count === d[0] && t.int_sum === (d[1] ?? 0) && t.double_sum === (d[2] ?? 0) },
  { name: 'point read of 3 rowids after a 1% update (cold, sidecar published)', query: 'point',
    catalog: 'catalog-updated.sqlite', cold: true, publish: true,
    sql: `SELECT count(*), sum(id), sum(k) FROM ${live4} WHERE id IN (123, 4567891, 9876543)`,
    same: (t, d) => t.count === d[0] && t.int_sum === (d[1] ?? 0) && t.double_sum === (d[2] ?? 0) },
  { name: 'point read of 3 rowids after a 1% update (warm)', query: 'point',
    catalog: 'catalog-updated.sqlite',
    sql: `SELECT count(*), sum(id), sum(k) FROM ${live4} WHERE id IN (123, 4567891, 9876543)`,
    same: (t, d) => t.count === d[0] && t.int_sum === (d[1] ?? 0) && t.double_sum === (d[2] ?? 0) },
];

const lines = [];
for (const q of queries) {
  if (q.publish) {
    console.error(execFileSync(bench, ['publish', lake, q.catalog], { encoding: 'utf8' }).trim());
  }
  const answer = await duckRun(q.sql);
  const t = tarn(q.query, q.catalog);
  if (!q.same(t, answer)) {
    console.error(`${q.name}: answers differ: tarn ${JSON.stringify(t)}, DuckDB ${JSON.stringify(answer)}`);
    process.exitCode = 1;
  }
  const duck = await duckBest(q.sql);
  const ms = q.cold ? t.first_ms : t.best_ms;
  const cpu = q.cold ? '' : t.cpu_ms.toFixed(1);
  console.error(`${q.name}: tarn ${ms.toFixed(1)} ms (cpu ${cpu}), DuckDB ${duck.toFixed(1)} ms`);
  lines.push([q.name, ms.toFixed(1), cpu, duck.toFixed(1), (ms / duck).toFixed(3)]);
}
printTable(['query', 'tarn ms', 'tarn CPU ms', 'DuckDB ms', 'tarn/DuckDB'], lines);
