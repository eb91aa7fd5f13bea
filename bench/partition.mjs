// Partitioned writes and reads: tarn inserting N rows (default 10M) into a lake table
// partitioned by (region, year(d)) and reading back one partition, against DuckDB writing the
// same rows with COPY … (FORMAT parquet, PARTITION_BY (region, year)) and reading that
// partition with hive partitioning, in the same run. Both sides use 2 threads; each figure is
// the best of 5 after one warm-up (tarn: bench_sql in-process, the table recreated untimed
// before every insert; DuckDB: @duckdb/node-api, the folder removed untimed before every COPY).
// The answers of the two reads are compared before anything is printed.
//
//   node bench/partition.mjs [--build build] [--work /tmp/tarn-partition-bench] [--rows 10000000]
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { bestOf, buildDir, connectDuckDB, option, printTable, runJson } from './harness.mjs';

const build = buildDir();
const work = option('--work', '/tmp/tarn-partition-bench');
const rows = Number(option('--rows', '10000000'));
const benchSql = path.join(build, 'bench_sql');

rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });

// 4 regions x 5 years (2020-2024) = 20 partitions.
const source = `SELECT i AS id, ['eu', 'us', 'ap', 'sa'][1 + i % 4] AS region,
  DATE '2020-01-01' + (i % 1827)::INTEGER AS d, i * 0.5 AS v FROM range(${rows}) r(i)`;

// tarn: the lake table, recreated before each insert.
const attach = `ATTACH 'ducklake:sqlite:${work}/lake.db' AS lake (DATA_PATH '${work}/files',
  DATA_INLINING_ROW_LIMIT 0); USE lake`;
const recreate = `DROP TABLE IF EXISTS t;
  CREATE TABLE t (id BIGINT, region VARCHAR, d DATE, v DOUBLE);
  ALTER TABLE t SET PARTITIONED BY (region, year(d))`;
const tarnInsert = runJson(benchSql, ['--setup', attach, '--each', recreate,
                                      `INSERT INTO t ${source}`]);
const tarnReadSql = `SELECT count(*), sum(v) FROM t WHERE region = 'eu' AND
  d >= DATE '2023-01-01' AND d < DATE '2024-01-01'`;
const tarnRead = runJson(benchSql, ['--setup', attach, tarnReadSql]);
// The partition's answer through the tarn program (bench_sql counts rows only).
const tarnCsv = execFileSync(path.join(build, 'tarn'), [
  '--format', 'csv', '-c', attach.split(';')[0], '-c', 'USE lake', '-c', tarnReadSql,
], { encoding: 'utf8' }).trim().split('\n').pop().split(',').map(Number);

// DuckDB: the same rows as hive folders.
const con = await connectDuckDB(2);
const dir = path.join(work, 'duckdb');
const copy = `COPY (SELECT id, region, d, v, year(d) AS year FROM (${source}))
  TO '${dir}' (FORMAT parquet, PARTITION_BY (region, year))`;
const duckInsert = await bestOf(() => con.run(copy), {
  setup: () => rmSync(dir, { recursive: true, force: true }),
});
const duckReadSql = `SELECT count(*), sum(v) FROM read_parquet('${dir}/**/*.parquet',
  hive_partitioning = true) WHERE region = 'eu' AND year = 2023`;
const duckRead = await bestOf(async () => (await con.runAndReadAll(duckReadSql)).getRows());

const expected = (await con.runAndReadAll(duckReadSql)).getRows()[0].map(Number);
if (tarnCsv[0] !== expected[0] || Math.abs(tarnCsv[1] - expected[1]) > 1e-9 * Math.abs(expected[1])) {
  throw new Error(`partition answers differ: tarn ${tarnCsv}, DuckDB ${expected}`);
}

const ratio = (a, b) => `${(a / b).toFixed(2)}x`;
printTable(['step', 'tarn ms', 'DuckDB ms', 'tarn / DuckDB', 'tarn CPU ms', 'DuckDB CPU ms'], [
  [`insert ${rows.toLocaleString('en-US')} rows`, tarnInsert.best_ms.toFixed(0),
   duckInsert.wall.toFixed(0), ratio(tarnInsert.best_ms, duckInsert.wall),
   tarnInsert.best_cpu_ms.toFixed(0), duckInsert.cpu.toFixed(0)],
  ['read one partition', tarnRead.best_ms.toFixed(1), duckRead.wall.toFixed(1),
   ratio(tarnRead.best_ms, duckRead.wall), tarnRead.best_cpu_ms.toFixed(1),
   duckRead.cpu.toFixed(1)],
]);
