// Runs SQL in DuckDB for tarn's tests (the "oracle").
//
//   node query.mjs <request.json> <response-file>
//
// request.json: {"mode": "csv" | "exec", "queries": ["<sql>", ...]}
// Each query runs in its own fresh in-memory DuckDB with `SET threads=2`. A query may hold
// several statements separated by ';'. In "csv" mode all but the last run for their effect
// and the last is wrapped in COPY (...) TO '<tmp>.csv' (HEADER), so the CSV text is DuckDB's
// own formatting. In "exec" mode every statement runs for its effect.
//
// The response file holds, per query, a header line "OK <bytes>" or "ERR <bytes>" followed by
// exactly that many bytes (the CSV text, or the error message) and a newline.
import { DuckDBInstance } from '@duckdb/node-api';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Splits SQL text into statements at top-level ';', honouring '...' strings, "..."
// identifiers, $tag$...$tag$ strings, -- and /* */ comments. Drops empty statements.
export function splitStatements(sql) {
  const statements = [];
  let start = 0;
  let hasContent = false;
  let i = 0;
  const push = (end) => {
    if (hasContent) statements.push(sql.slice(start, end).trim());
    start = end + 1;
    hasContent = false;
  };
  while (i < sql.length) {
    const c = sql[i];
    if (c === "'" || c === '"') {
      const close = sql.indexOf(c, i + 1);  // a doubled quote re-enters the same state
      i = close < 0 ? sql.length : close + 1;
      hasContent = true;
    } else if (c === '-' && sql[i + 1] === '-') {
      const close = sql.indexOf('\n', i);
      i = close < 0 ? sql.length : close + 1;
    } else if (c === '/' && sql[i + 1] === '*') {
      const close = sql.indexOf('*/', i + 2);
      i = close < 0 ? sql.length : close + 2;
    } else if (c === '$' && /^\$[A-Za-z_]*\$/.test(sql.slice(i, i + 64))) {
      const tag = sql.slice(i).match(/^\$[A-Za-z_]*\$/)[0];
      const close = sql.indexOf(tag, i + tag.length);
      i = close < 0 ? sql.length : close + tag.length;
      hasContent = true;
    } else if (c === ';') {
      push(i);
      i += 1;
    } else {
      if (!/\s/.test(c)) hasContent = true;
      i += 1;
    }
  }
  push(sql.length);
  return statements;
}

function quoteLiteral(text) {
  return "'" + text.replaceAll("'", "''") + "'";
}

async function runOne(mode, sql, csvPath) {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    await connection.run('SET threads=2');
    const statements = splitStatements(sql);
    if (statements.length === 0) throw new Error('no SQL statement given');
    const last = mode === 'csv' ? statements.pop() : null;
    for (const statement of statements) await connection.run(statement);
    if (last === null) return Buffer.alloc(0);
    await connection.run(`COPY (${last}\n) TO ${quoteLiteral(csvPath)} (HEADER)`);
    return fs.readFileSync(csvPath);
  } finally {
    connection.closeSync();
    instance.closeSync();
    fs.rmSync(csvPath, { force: true });
  }
}

async function main() {
  const [requestPath, responsePath] = process.argv.slice(2);
  if (!requestPath || !responsePath) {
    process.stderr.write('usage: node query.mjs <request.json> <response-file>\n');
    process.exit(2);
  }
  const request = JSON.parse(fs.readFileSync(requestPath, 'utf8'));
  if (request.mode !== 'csv' && request.mode !== 'exec') {
    throw new Error(`unknown mode ${JSON.stringify(request.mode)}`);
  }
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tarn-oracle-'));
  const parts = [];
  try {
    for (const [index, sql] of request.queries.entries()) {
      const csvPath = path.join(scratch, `result-${index}.csv`);
      try {
        const bytes = await runOne(request.mode, sql, csvPath);
        parts.push(Buffer.from(`OK ${bytes.length}\n`), bytes, Buffer.from('\n'));
      } catch (error) {
        const message = Buffer.from(String(error && error.message ? error.message : error));
        parts.push(Buffer.from(`ERR ${message.length}\n`), message, Buffer.from('\n'));
      }
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  fs.writeFileSync(responsePath, Buffer.concat(parts));
}

await main();
