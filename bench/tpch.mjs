// The 22 TPC-H queries in tarn (bench_sql: tarn::Session in-process) and in DuckDB
// (@duckdb/node-api) over the same Parquet files in the same run, both on 2 threads, best of 5
// after one warm-up, wall and process CPU time; prints a markdown table with the ratios and
// their geometric means. Row counts are compared before timing (the answers themselves are
// checked by tests/sql/tpch_test.cc).
//
// The data: --copies N (default 10) copies of ../shared/data/tpch-sf0.1, written once per
// machine by DuckDB into build/tpch-x<N>/ (the same files for both engines): every table but
// nation and region N times, each copy's keys offset by the largest key of SF 0.1 (orders,
// customers, parts, suppliers), so joins stay one-to-one within a copy. --copies 1 reads the SF
// 0.1 files themselves.
//
// --rounds R (default 1) repeats each query's pair of measurements R times, the engines
// alternating, and keeps each engine's best: a machine whose speed drifts during a run then
// weighs on both engines alike.
//
//   node bench/tpch.mjs [--build build] [--copies 10] [--only q01] [--threads 2] [--rounds 1]
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { bestOf, buildDir, connectDuckDB, option, printTable, root, runJson } from './harness.mjs';

const build = buildDir();
const copies = Number(option('--copies', '10'));
const only = option('--only', null);
const threads = Number(option('--threads', '2'));
const rounds = Math.max(1, Number(option('--rounds', '1')));
const benchSql = path.join(build, 'bench_sql');
const source = path.resolve(root, '../shared/data/tpch-sf0.1');
const queriesDir = path.resolve(root, '../shared/data/tpch-queries');
const tables = ['lineitem', 'orders', 'customer', 'partsupp', 'part', 'supplier', 'nation', 'region'];

const con = await connectDuckDB(threads);

// The folder holding the tables' files, written first when missing.
async function dataDir() {
  if (copies === 1) return source;
  const dir = path.join(build, `tpch-x${copies}`);
  if (tables.every((t) => existsSync(path.join(dir, `${t}.parquet`)))) return dir;
  mkdirSync(dir, { recursive: true });
  const file = (t) => `'${path.join(source, t + '.parquet')}'`;
  const max = async (column, table) =>
    Number((await con.runAndReadAll(`SELECT max(${column}) FROM ${file(table)}`)).getRows()[0][0]);
  const O = await max('o_orderkey', 'orders');
  const C = await max('c_custkey', 'customer');
  const P = await max('p_partkey', 'part');
  const S = await max('s_suppkey', 'supplier');
  const replaced = {
    lineitem: `l_orderkey + c * ${O} AS l_orderkey, l_partkey + c * ${P} AS l_partkey, l_suppkey + c * ${S} AS l_suppkey`,
    orders: `o_orderkey + c * ${O} AS o_orderkey, o_custkey + c * ${C} AS o_custkey`,
    customer: `c_custkey + c * ${C} AS c_custkey`,
    partsupp: `ps_partkey + c * ${P} AS ps_partkey, ps_suppkey + c * ${S} AS ps_suppkey`,
    part: `p_partkey + c * ${P} AS p_partkey`,
    supplier: `s_suppkey + c * ${S} AS s_suppkey`,
  };
  for (const t of tables) {
    const out = `'${path.join(dir, t + '.parquet')}'`;
    const select = replaced[t]
      ? `SELECT * REPLACE (${replaced[t]}) FROM ${file(t)}, (SELECT range::BIGINT AS c FROM range(${copies})) ORDER BY c`
      : `SELECT * FROM ${file(t)}`;
    // The key columns keep their types (INTEGER / BIGINT as in the source).
    const described = (await con.runAndReadAll(`DESCRIBE SELECT * FROM ${file(t)}`)).getRows();
    const casts = described.map(([name, type]) => `${name}::${type} AS ${name}`).join(', ');
    await con.run(`COPY (SELECT ${casts} FROM (${select})) TO ${out} (FORMAT PARQUET)`);
  }
  return dir;
}

// The query text with each table name of a FROM list (after FROM, JOIN or a comma) replaced by
// its file, whose implicit alias is the table name.
function bindTables(sql, dir) {
  return sql.replace(/(\bFROM\s+|\bJOIN\s+|,\s*)([a-z]+)\b/g, (whole, before, word) =>
    tables.includes(word) ? `${before}'${path.join(dir, word + '.parquet')}'` : whole);
}

const dir = await dataDir();
if (!existsSync(benchSql)) throw new Error(`missing ${benchSql}: build a release tree first`);
const rows = [];
for (let q = 1; q <= 22; q++) {
  const name = `q${String(q).padStart(2, '0')}`;
  if (only && name !== only) continue;
  const sql = bindTables(readFileSync(path.join(queriesDir, `${name}.sql`), 'utf8'), dir);
  let tarn = null;
  let duck = null;
  for (let round = 0; round < rounds; round++) {
    const t = runJson(benchSql, ['--threads', String(threads), sql]);
    const expected = (await con.runAndReadAll(sql)).getRows().length;
    if (t.rows !== expected) throw new Error(`${name}: tarn returned ${t.rows} rows, DuckDB ${expected}`);
    const d = await bestOf(async () => (await con.runAndReadAll(sql)).getRows());
    // Each engine's best wall and best CPU time over the rounds, as within one round.
    tarn = !tarn ? t : { ...t, best_ms: Math.min(tarn.best_ms, t.best_ms),
                         best_cpu_ms: Math.min(tarn.best_cpu_ms, t.best_cpu_ms) };
    duck = !duck ? d : { wall: Math.min(duck.wall, d.wall), cpu: Math.min(duck.cpu, d.cpu) };
  }
  rows.push({ name, tarn, duck });
  console.error(`${name}: tarn ${tarn.best_ms.toFixed(1)} ms (CPU ${tarn.best_cpu_ms.toFixed(1)}), ` +
                `DuckDB ${duck.wall.toFixed(1)} ms (CPU ${duck.cpu.toFixed(1)})`);
}

const geomean = (values) => Math.exp(values.reduce((s, v) => s + Math.log(v), 0) / values.length);
const cells = rows.map((r) => [r.name, r.tarn.best_ms.toFixed(1), r.duck.wall.toFixed(1),
                               (r.tarn.best_ms / r.duck.wall).toFixed(2), r.tarn.best_cpu_ms.toFixed(1),
                               r.duck.cpu.toFixed(1), (r.tarn.best_cpu_ms / r.duck.cpu).toFixed(2)]);
cells.push(['geometric mean', '', '', geomean(rows.map((r) => r.tarn.best_ms / r.duck.wall)).toFixed(2), '', '',
            geomean(rows.map((r) => r.tarn.best_cpu_ms / r.duck.cpu)).toFixed(2)]);
printTable(['query', 'tarn ms', 'DuckDB ms', 'tarn/DuckDB', 'tarn CPU ms', 'DuckDB CPU ms', 'CPU ratio'], cells);
