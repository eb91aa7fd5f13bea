// Runs the same SQL queries in tarn (bench_sql: tarn::Session in-process) and in DuckDB
// (@duckdb/node-api) over the same files in the same run, and prints the ratios as a markdown
// table. Both use 2 threads; each measurement is the best of 5 after one warm-up, of wall time
// and, separately, of the process's CPU time (both threads added up: on a shared machine it
// shows the work each engine does, where wall time also shows waiting for a core). Before
// timing, the two engines' row counts are compared (the answers themselves are checked by
// tests/sql's differential tests).
//
//   node bench/sql.mjs [--build build] [--only NAME] [--threads 2]
import { existsSync } from 'node:fs';
import path from 'node:path';
import { bestOf, buildDir, connectDuckDB, option, printTable, root, runJson } from './harness.mjs';

const build = buildDir();
const only = option('--only', null);
const threads = Number(option('--threads', '2'));

const flights = path.join(root, 'tools/oracle/node_modules/vega-datasets/data/flights-3m.parquet');
const lineitem = path.resolve(root, '../shared/data/tpch-sf0.1/lineitem.parquet');
const orders = path.resolve(root, '../shared/data/tpch-sf0.1/orders.parquet');
for (const file of [flights, lineitem, orders]) {
  if (!existsSync(file)) throw new Error(`missing benchmark input ${file}`);
}
const benchSql = path.join(build, 'bench_sql');
if (!existsSync(benchSql)) throw new Error(`missing ${benchSql}: build a release tree first`);

const con = await connectDuckDB(threads);

function duckBest(sql) {
  return bestOf(async () => {
    const result = await con.runAndReadAll(sql);  // materializes every row, as tarn drains them
    result.getRows();
  }, { warmup: () => con.run(sql) });
}

const tarnBest = (sql) => runJson(benchSql, ['--threads', String(threads), sql]);

async function duckRows(sql) {
  const result = await con.runAndReadAll(sql);
  return result.getRows().length;
}

// min and max of every column: decodes every value of the file.
async function minMaxAll(file) {
  const described = await con.runAndReadAll(`DESCRIBE SELECT * FROM '${file}'`);
  const names = described.getRows().map((r) => r[0]);
  return `SELECT count(*), ${names.map((n) => `min(${n}), max(${n})`).join(', ')} FROM '${file}'`;
}

const F = `'${flights}'`;
const L = `'${lineitem}'`;
const O = `'${orders}'`;
const queries = [
  ['full aggregate: flights-3m min/max of every column', await minMaxAll(flights)],
  ['full aggregate: lineitem min/max of every column', await minMaxAll(lineitem)],
  ['full aggregate: flights-3m count + sums', `SELECT count(*), sum(delay), sum(distance), avg(delay), count(origin) FROM ${F}`],
  ['grouped: TPC-H Q1 (lineitem)',
    `SELECT l_returnflag, l_linestatus, sum(l_quantity) AS sum_qty, sum(l_extendedprice) AS sum_base_price,
       sum(l_extendedprice * (1 - l_discount)) AS sum_disc_price,
       sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS sum_charge, avg(l_quantity) AS avg_qty,
       avg(l_extendedprice) AS avg_price, avg(l_discount) AS avg_disc, count(*) AS count_order
     FROM ${L} WHERE l_shipdate <= DATE '1998-09-02'
     GROUP BY l_returnflag, l_linestatus ORDER BY l_returnflag, l_linestatus`],
  ['grouped: flights-3m by origin', `SELECT origin, count(*), sum(delay), avg(distance), max(delay) FROM ${F} GROUP BY origin ORDER BY origin`],
  ['grouped: orders by o_custkey (high cardinality)', `SELECT o_custkey, count(*), sum(o_totalprice) FROM ${O} GROUP BY o_custkey ORDER BY o_custkey LIMIT 10`],
  ['grouped: count(DISTINCT) lineitem', `SELECT count(DISTINCT l_orderkey), count(DISTINCT l_suppkey) FROM ${L}`],
  ['selective filter: TPC-H Q6 (lineitem)',
    `SELECT sum(l_extendedprice * l_discount) AS revenue FROM ${L} WHERE l_shipdate >= DATE '1994-01-01'
       AND l_shipdate < DATE '1995-01-01' AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24`],
  ['selective filter: flights-3m rows with delay > 1000', `SELECT date, delay, origin, destination FROM ${F} WHERE delay > 1000`],
  ['top-N: orders ORDER BY o_totalprice DESC LIMIT 10', `SELECT o_orderkey, o_totalprice FROM ${O} ORDER BY o_totalprice DESC, o_orderkey LIMIT 10`],
  ['top-N: flights-3m ORDER BY delay DESC LIMIT 10', `SELECT date, delay, origin FROM ${F} ORDER BY delay DESC, date, origin LIMIT 10`],
];

const rows = [];
for (const [name, sql] of queries) {
  if (only && !name.includes(only)) continue;
  const tarn = tarnBest(sql);
  const expectedRows = await duckRows(sql);
  if (tarn.rows !== expectedRows) {
    throw new Error(`${name}: tarn returned ${tarn.rows} rows, DuckDB ${expectedRows}`);
  }
  const duck = await duckBest(sql);
  rows.push({ name, tarn, duck });
  console.error(`${name}: tarn ${tarn.best_ms.toFixed(1)} ms (CPU ${tarn.best_cpu_ms.toFixed(1)}), ` +
                `DuckDB ${duck.wall.toFixed(1)} ms (CPU ${duck.cpu.toFixed(1)})`);
}

printTable(['query', 'tarn ms', 'DuckDB ms', 'tarn/DuckDB', 'tarn CPU ms', 'DuckDB CPU ms', 'CPU ratio'],
           rows.map((r) => [r.name, r.tarn.best_ms.toFixed(1), r.duck.wall.toFixed(1),
                            (r.tarn.best_ms / r.duck.wall).toFixed(2), r.tarn.best_cpu_ms.toFixed(1),
                            r.duck.cpu.toFixed(1), (r.tarn.best_cpu_ms / r.duck.cpu).toFixed(2)]));
