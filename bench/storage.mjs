// Many machines' storage: a lake on object storage against the same lake on local disk, and
// the PostgreSQL catalog against SQLite.
//
//   node bench/storage.mjs [--build build] [--rows 10000000] [--commits 100]
//                          [--parts s3,commits,scale]
//
// Object storage: the S3-compatible test server (scripts/s3-server.sh: s3rver behind a
// signature-checking proxy, on loopback) holds one lake's data, local disk the other's; both
// catalogs are SQLite files. Each query runs in a fresh `tarn` process (every object's size
// and footer are fetched again, as on a new machine): one warm-up, then the best of 5 wall and
// CPU (user + system) times; the S3 server's counters give the requests and bytes of one run.
// The point reads ask for a row an UPDATE moved into an embedded-row-id file, before and after
// tarn_publish_row_summaries wrote the sidecars.
//
// Catalogs: 1, 2 and 4 `tarn` processes each commit --commits one-row INSERTs into one lake
// (data on local disk) whose catalog is a SQLite file or a PostgreSQL database
// (scripts/pg-server.sh): latency is a process's wall time per commit (mean over processes),
// throughput all commits over the wall time until the last process ends.
//
// Catalog scale: a lake of 1,000 snapshots and 10,000 data files (10 tables, each commit adding
// one file to each) on SQLite and on PostgreSQL; a fresh process loads the latest snapshot and
// lists every file to count all rows (best of 5 after a warm-up).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { buildDir, option, printTable, root } from './harness.mjs';

const tarnPath = path.join(buildDir(), 'tarn');
const rows = Number(option('--rows', '10000000'));
const commits = Number(option('--commits', '100'));
const parts = option('--parts', 's3,commits,scale').split(',');
const work = mkdtempSync(path.join(os.tmpdir(), 'tarn-storage-bench-'));
chmodSync(work, 0o755);  // the PostgreSQL server runs as another user
const script = (name) => path.join(root, 'scripts', name);
const s3Dir = path.join(work, 's3');
const pgDir = path.join(work, 'pg');
const endpoint = execFileSync(script('s3-server.sh'), ['start', s3Dir], { encoding: 'utf8' }).trim();
const conninfo = execFileSync(script('pg-server.sh'), ['start', pgDir], { encoding: 'utf8' }).trim();
process.on('exit', () => {
  spawnSync(script('s3-server.sh'), ['stop', s3Dir]);
  spawnSync(script('pg-server.sh'), ['stop', pgDir]);
  rmSync(work, { recursive: true, force: true });
});

const secret = `CREATE SECRET (TYPE s3, KEY_ID 'S3RVER', SECRET 'S3RVER', ENDPOINT '${endpoint}', ` +
               `URL_STYLE 'path', USE_SSL false)`;
// A control request to the test server, on a connection of its own.
const control = (what, method = 'POST') => new Promise((resolve, reject) => {
  const [host, port] = endpoint.split(':');
  const request = http.request({ host, port, method, path: `/__tarn/${what}`, agent: false }, (answer) => {
    let body = '';
    answer.on('data', (chunk) => { body += chunk; });
    answer.on('end', () => resolve(JSON.parse(body)));
  });
  request.on('error', reject);
  request.end();
});

// One tarn process running `statements` on `lake`; returns its output and wall and CPU ms.
function runTarn(lake, statements) {
  const args = ['-f', '@%U %S', tarnPath, lake.catalog, '--data-path', lake.data, '--format', 'csv',
                '-c', secret, '-c', 'SET threads = 2'];
  for (const s of statements) args.push('-c', s);
  const start = process.hrtime.bigint();
  const run = spawnSync('/usr/bin/time', args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  const wall = Number(process.hrtime.bigint() - start) / 1e6;
  if (run.status !== 0) throw new Error(`tarn failed on ${statements}: ${run.stderr}`);
  const times = run.stderr.trim().split('\n').pop().replace('@', '').split(' ').map(Number);
  return { out: run.stdout, wall, cpu: (times[0] + times[1]) * 1000 };
}
// Best of 5 fresh processes after a warm-up one.
function best(lake, statements) {
  let wall = Infinity;
  let cpu = Infinity;
  let out = '';
  for (let rep = 0; rep <= 5; rep++) {
    const run = runTarn(lake, statements);
    out = run.out;
    if (rep === 0) continue;
    wall = Math.min(wall, run.wall);
    cpu = Math.min(cpu, run.cpu);
  }
  return { wall, cpu, out };
}

const local = { catalog: `ducklake:sqlite:${work}/local.sqlite`, data: `${work}/local-data/` };
const s3 = { catalog: `ducklake:sqlite:${work}/s3.sqlite`, data: 's3://tarn-test/bench/' };
const generate = [
  `CREATE TABLE t AS SELECT range AS k, (range * 7919) % 1000003 AS v, 'name_' || (range % 50000) AS s ` +
  `FROM range(${rows})`,
  `UPDATE t SET v = -v WHERE k % 100 = 7`,
];
if (parts.includes('s3')) await objectStorage();
if (parts.includes('commits')) await commitLatency();
if (parts.includes('scale')) await catalogScale();

async function objectStorage() {
console.error(`storage benchmark: ${rows} rows, S3 server ${endpoint}`);
const loads = {};
for (const [name, lake] of [['local', local], ['s3', s3]]) {
  await control('stats/reset');
  const run = runTarn(lake, generate);
  loads[name] = { ...run, stats: await control('stats', 'GET') };
}
const probe = 4242407;  // k % 100 = 7: moved by the UPDATE into its embedded-row-id file
const queries = [
  ['full scan', `SELECT sum(k), sum(v), max(s) FROM t`],
  ['selective scan (k in 1,000)', `SELECT count(*), sum(v) FROM t WHERE k BETWEEN 5000000 AND 5000999`],
  ['point read by rowid, no sidecars', `SELECT k, v FROM t WHERE rowid = ${probe}`],
];
const table = [];
const measure = async (name, statements) => {
  const timings = {};
  for (const [side, lake] of [['local', local], ['s3', s3]]) timings[side] = best(lake, statements);
  if (timings.local.out !== timings.s3.out) {
    throw new Error(`${name}: the answers differ:\n${timings.local.out}\n${timings.s3.out}`);
  }
  await control('stats/reset');
  runTarn(s3, statements);
  const stats = await control('stats', 'GET');
  table.push([name, timings.local.wall.toFixed(0), timings.s3.wall.toFixed(0),
              (timings.s3.wall / timings.local.wall).toFixed(2), timings.local.cpu.toFixed(0),
              timings.s3.cpu.toFixed(0), String(stats.requests), (stats.bytes_out / 1e6).toFixed(2)]);
};
for (const [name, sql] of queries) await measure(name, [sql]);
for (const lake of [local, s3]) runTarn(lake, ['CALL tarn_publish_row_summaries()']);
await measure('point read by rowid, sidecars', [`SELECT k, v FROM t WHERE rowid = ${probe}`]);
// Inserts: a fresh 1M-row INSERT each time (the tables grow by 6M rows over the runs).
await measure('insert 1M rows', [`INSERT INTO t SELECT range + 100000000, range, 'x' FROM range(1000000)`]);

console.log(`\nLake of ${rows} rows (k, v, s) after a 1% UPDATE; S3 = s3rver on loopback.`);
console.log(`Generation: local ${(loads.local.wall / 1000).toFixed(1)} s, S3 ${(loads.s3.wall / 1000).toFixed(1)} s ` +
            `(${loads.s3.stats.requests} requests, ${(loads.s3.stats.bytes_in / 1e6).toFixed(1)} MB up)\n`);
printTable(['query', 'local ms', 'S3 ms', 'S3/local', 'local CPU ms', 'S3 CPU ms', 'S3 requests',
            'S3 MB down'], table);
}

// ---- catalogs: commit latency and throughput with 1, 2 and 4 writers ------------------------
async function writers(catalog, count, tag) {
  const lake = { catalog, data: `${work}/commits-${tag}/` };
  runTarn(lake, ['CREATE TABLE IF NOT EXISTS c (w INTEGER, i INTEGER)']);
  const start = process.hrtime.bigint();
  const walls = await Promise.all(Array.from({ length: count }, (_, w) => new Promise((resolve, reject) => {
    const args = [lake.catalog, '--data-path', lake.data];
    for (let i = 0; i < commits; i++) args.push('-c', `INSERT INTO c VALUES (${w}, ${i})`);
    const began = process.hrtime.bigint();
    const child = spawn(tarnPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => { err += d; });
    child.on('exit', (code) => (code === 0 ? resolve(Number(process.hrtime.bigint() - began) / 1e6)
                                           : reject(new Error(`writer failed: ${err}`))));
  })));
  const total = Number(process.hrtime.bigint() - start) / 1e6;
  const counted = runTarn(lake, ['SELECT count(*) AS n FROM c']).out.trim().split('\n').pop();
  if (Number(counted) !== count * commits) throw new Error(`${tag}: ${counted} rows, expected ${count * commits}`);
  const latency = walls.reduce((a, b) => a + b, 0) / walls.length / commits;
  return [latency.toFixed(2), ((count * commits) / (total / 1000)).toFixed(0)];
}
async function commitLatency() {
const commitRows = [];
for (const count of [1, 2, 4]) {
  const sqlite = await writers(`ducklake:sqlite:${work}/commits-${count}.sqlite`, count, `sqlite-${count}`);
  const schema = `w${count}`;
  execFileSync('psql', [conninfo, '-q', '-c', `CREATE SCHEMA ${schema}`]);
  const pg = await writers(`ducklake:postgres:${conninfo} options='-csearch_path=${schema}'`, count, `pg-${count}`);
  commitRows.push([String(count), sqlite[0], pg[0], sqlite[1], pg[1]]);
}
console.log(`\n${commits} one-row INSERT commits per writer process (data on local disk).\n`);
printTable(['writers', 'SQLite ms/commit', 'PostgreSQL ms/commit', 'SQLite commits/s',
            'PostgreSQL commits/s'], commitRows);
}

async function catalogScale() {
  const tables = 10;
  const snapshots = 1000;
  const lines = [`CALL ducklake_set_option('lake', 'data_inlining_row_limit', 0)`];
  for (let t = 0; t < tables; t++) lines.push(`CREATE TABLE t${t} (k BIGINT)`);
  for (let i = 0; i < snapshots; i++) {
    lines.push('BEGIN');
    for (let t = 0; t < tables; t++) lines.push(`INSERT INTO t${t} VALUES (${i})`);
    lines.push('COMMIT');
  }
  const scriptPath = path.join(work, 'scale.sql');
  writeFileSync(scriptPath, lines.map((l) => `${l};`).join('\n'));
  const count = Array.from({ length: tables }, (_, t) => `SELECT count(*) AS n FROM t${t}`).join(' UNION ALL ');
  const query = `SELECT sum(n) AS n FROM (${count})`;
  const out = [];
  for (const [name, catalog] of [['SQLite', `ducklake:sqlite:${work}/scale.sqlite`],
                                 ['PostgreSQL', `ducklake:postgres:${conninfo} options='-csearch_path=scale'`]]) {
    if (name === 'PostgreSQL') execFileSync('psql', [conninfo, '-q', '-c', 'CREATE SCHEMA scale']);
    const lake = { catalog, data: `${work}/scale-data-${name}/` };
    const started = process.hrtime.bigint();
    const build = spawnSync(tarnPath, [lake.catalog, '--data-path', lake.data, '-f', scriptPath], { encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`building the ${name} lake: ${build.stderr}`);
    const buildSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    const timing = best(lake, [query]);
    if (timing.out.trim().split('\n').pop() !== String(tables * snapshots)) {
      throw new Error(`${name}: counted ${timing.out}`);
    }
    out.push([name, buildSeconds.toFixed(1), timing.wall.toFixed(0), timing.cpu.toFixed(0)]);
  }
  console.log(`\nA lake of ${snapshots} snapshots and ${tables * snapshots} data files (${tables} tables): ` +
              'a fresh process loads the snapshot, lists every file and counts the rows.\n');
  printTable(['catalog', 'build s', 'load + count ms', 'CPU ms'], out);
}
