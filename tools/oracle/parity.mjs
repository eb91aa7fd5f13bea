// Runs each query of a list in DuckDB and in tarn and reports which differ.
//
//   node tools/oracle/parity.mjs <queries.sql> [tarn binary]
//
// queries.sql: one query per line (blank lines and lines starting with -- are skipped).
// Prints "SAME", "DIFF" (both answered, differently) or "MISSING" (tarn failed, DuckDB did not)
// per query, with both answers for the ones that are not the same. Header lines are not
// compared (alias columns where names matter).
import { DuckDBInstance } from '@duckdb/node-api';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const [listPath, tarnPath = 'build/tarn'] = process.argv.slice(2);
const queries = fs.readFileSync(listPath, 'utf8').split('\n')
    .map((line) => line.trim()).filter((line) => line && !line.startsWith('--'));
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tarn-parity-'));
const instance = await DuckDBInstance.create(':memory:');
const connection = await instance.connect();
await connection.run('SET threads=2');
const counts = { SAME: 0, DIFF: 0, MISSING: 0, BOTH_FAIL: 0, EXTRA: 0 };
for (const [index, query] of queries.entries()) {
  const csvPath = path.join(scratch, `q${index}.csv`);
  let duck;
  try {
    await connection.run(`COPY (${query}) TO '${csvPath}' (HEADER)`);
    duck = { ok: true, text: fs.readFileSync(csvPath, 'utf8') };
  } catch (error) {
    duck = { ok: false, text: String(error.message).split('\n')[0] };
  }
  let tarn;
  try {
    tarn = { ok: true, text: execFileSync(tarnPath, ['--format', 'csv', '-c', query],
                                          { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }) };
  } catch (error) {
    tarn = { ok: false, text: String(error.stderr || error.message).split('\n')[0] };
  }
  // The answers without their header lines: DuckDB's COPY names columns its own way.
  const norm = (t) => t.replace(/\r/g, '').trim().split('\n').slice(1).join('\n');
  let verdict;
  const shown = (t) => t.replace(/\r/g, '').trim();
  if (duck.ok && tarn.ok) verdict = norm(duck.text) === norm(tarn.text) ? 'SAME' : 'DIFF';
  else if (duck.ok) verdict = 'MISSING';
  else if (tarn.ok) verdict = 'EXTRA';
  else verdict = 'BOTH_FAIL';
  counts[verdict] += 1;
  if (verdict === 'SAME' || verdict === 'BOTH_FAIL') {
    console.log(`${verdict}\t${query}`);
  } else {
    console.log(`${verdict}\t${query}\n  duckdb: ${JSON.stringify(shown(duck.text))}\n  tarn:   ${JSON.stringify(shown(tarn.text))}`);
  }
}
console.log(JSON.stringify(counts));
connection.closeSync();
instance.closeSync();
fs.rmSync(scratch, { recursive: true, force: true });
