// The S3-compatible server of tarn's tests: s3rver (npm) behind a loopback proxy that checks
// every request's AWS Signature Version 4 and payload hash (s3rver itself checks neither),
// counts requests and bytes, and injects faults on request.
//
//   node tools/s3server/serve.mjs --dir DIR [--port P] [--bucket NAME]... [--log] [--tls]
//
// --tls: HTTPS with a certificate for 127.0.0.1 made at start (DIR/../tls/cert.pem, its own
// authority: clients trust it through that file).
//
// Prints "ready <port>" once it listens on 127.0.0.1:<port>. Credentials: access key S3RVER,
// secret S3RVER (s3rver's account). Control requests (unsigned) on the same port:
//   POST /__tarn/fail?count=N&status=S   the next N S3 requests answer S (503: SlowDown)
//   POST /__tarn/reset?count=N           the next N S3 requests lose their connection
//   POST /__tarn/outage?ms=T             stop listening, drop every connection, listen again
//                                        after T ms (a server restart as clients see it)
//   GET  /__tarn/stats                   {"requests", "bytes_in", "bytes_out", "rejected"}
//   POST /__tarn/stats/reset             counters back to zero
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(path.join(path.dirname(fileURLToPath(import.meta.url)),
                                        '../oracle/package.json'));
const S3rver = require('s3rver');

const args = process.argv.slice(2);
let dir = null;
let logRequests = false;  // --log: one stderr line per S3 request
let tls = false;
let port = 0;
const buckets = [];
for (let i = 0; i < args.length; ++i) {
  if (args[i] === '--dir') dir = args[++i];
  else if (args[i] === '--port') port = Number(args[++i]);
  else if (args[i] === '--bucket') buckets.push(args[++i]);
  else if (args[i] === '--log') logRequests = true;
  else if (args[i] === '--tls') tls = true;
  else throw new Error(`unknown argument ${args[i]}`);
}
if (!dir) throw new Error('usage: serve.mjs --dir DIR [--port P] [--bucket NAME]...');

const secrets = new Map([['S3RVER', 'S3RVER']]);

const backend = new S3rver({
  address: '127.0.0.1', port: 0, silent: true, directory: dir,
  configureBuckets: buckets.map(name => ({ name })),
});
const backendAddress = await backend.run();
const backendPort = backendAddress.port;

// ---- SigV4, written from the specification, independently of tarn's C++ signer ----------
const encode = (text, keepSlash) => Array.from(Buffer.from(text, 'utf8')).map(b => {
  const c = String.fromCharCode(b);
  if (/[A-Za-z0-9\-_.~]/.test(c) || (keepSlash && c === '/')) return c;
  return '%' + b.toString(16).toUpperCase().padStart(2, '0');
}).join('');
const hmac = (key, data) => crypto.createHmac('sha256', key).update(data, 'utf8').digest();
const sha256 = data => crypto.createHash('sha256').update(data).digest('hex');

function checkSignature(req, body) {
  const auth = req.headers.authorization || '';
  const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(auth);
  if (!m) return `Authorization header not in SigV4 form: '${auth}'`;
  const [, keyId, day, region, service, signedHeaders, signature] = m;
  const secret = secrets.get(keyId);
  if (secret === undefined) return `unknown access key '${keyId}'`;
  const amzDate = req.headers['x-amz-date'] || '';
  if (!amzDate.startsWith(day)) return `x-amz-date '${amzDate}' is not of the credential's day ${day}`;
  const when = Date.UTC(+amzDate.slice(0, 4), +amzDate.slice(4, 6) - 1, +amzDate.slice(6, 8),
                        +amzDate.slice(9, 11), +amzDate.slice(11, 13), +amzDate.slice(13, 15));
  if (!(Math.abs(Date.now() - when) < 15 * 60 * 1000)) return `x-amz-date '${amzDate}' too far from now`;
  const payloadHash = req.headers['x-amz-content-sha256'];
  if (!payloadHash) return 'no x-amz-content-sha256 header';
  if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== sha256(body)) {
    return 'x-amz-content-sha256 does not match the body';
  }
  const names = signedHeaders.split(';');
  for (const required of ['host', 'x-amz-date', 'x-amz-content-sha256']) {
    if (!names.includes(required)) return `header '${required}' is not signed`;
  }
  const [rawPath, rawQuery = ''] = req.url.split('?');
  const query = rawQuery === '' ? [] : rawQuery.split('&').map(part => {
    const eq = part.indexOf('=');
    const k = decodeURIComponent(eq < 0 ? part : part.slice(0, eq));
    const v = eq < 0 ? '' : decodeURIComponent(part.slice(eq + 1).replace(/\+/g, ' '));
    return [encode(k, false), encode(v, false)];
  }).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  const canonical = [
    req.method, rawPath, query.map(([k, v]) => `${k}=${v}`).join('&'),
    names.map(n => `${n}:${String(req.headers[n] ?? '').trim().replace(/ +/g, ' ')}\n`).join(''),
    signedHeaders, payloadHash,
  ].join('\n');
  const scope = `${day}/${region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  let key = hmac('AWS4' + secret, day);
  key = hmac(key, region);
  key = hmac(key, service);
  key = hmac(key, 'aws4_request');
  const expected = hmac(key, toSign).toString('hex');
  return expected === signature ? null : `signature mismatch; canonical request:\n${canonical}`;
}

// ---- faults and counters ------------------------------------------------------------------
const stats = { requests: 0, bytes_in: 0, bytes_out: 0, rejected: 0 };
let failLeft = 0;
let failStatus = 503;
let resetLeft = 0;
const sockets = new Set();

function s3Error(res, status, code, message) {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message
    .replace(/&/g, '&amp;').replace(/</g, '&lt;')}</Message></Error>`;
  res.writeHead(status, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function control(req, res, url) {
  const q = url.searchParams;
  const done = (body = '{}') => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(body); };
  if (url.pathname === '/__tarn/fail') {
    failLeft = Number(q.get('count') ?? 1);
    failStatus = Number(q.get('status') ?? 503);
    return done();
  }
  if (url.pathname === '/__tarn/reset') { resetLeft = Number(q.get('count') ?? 1); return done(); }
  if (url.pathname === '/__tarn/stats') return done(JSON.stringify(stats));
  if (url.pathname === '/__tarn/stats/reset') {
    Object.assign(stats, { requests: 0, bytes_in: 0, bytes_out: 0, rejected: 0 });
    return done();
  }
  if (url.pathname === '/__tarn/outage') {
    const ms = Number(q.get('ms') ?? 1000);
    done();
    res.on('finish', () => {
      server.close();
      for (const socket of sockets) socket.destroy();
      setTimeout(() => server.listen(port, '127.0.0.1'), ms);
    });
    return undefined;
  }
  res.writeHead(404);
  res.end();
  return undefined;
}

function tlsOptions() {
  const folder = path.join(dir, '..', 'tls');
  fs.mkdirSync(folder, { recursive: true });
  const key = path.join(folder, 'key.pem');
  const cert = path.join(folder, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2',
                           '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
                           '-keyout', key, '-out', cert], { stdio: 'ignore' });
  return { key: fs.readFileSync(key), cert: fs.readFileSync(cert) };
}

const handler = (req, res) => {
  const url = new URL(req.url, 'http://localhost');
  if (url.pathname.startsWith('/__tarn/')) return control(req, res, url);
  const chunks = [];
  req.on('data', chunk => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    stats.requests += 1;
    stats.bytes_in += body.length;
    if (resetLeft > 0) { resetLeft -= 1; req.socket.destroy(); return; }
    if (failLeft > 0) {
      failLeft -= 1;
      return s3Error(res, failStatus, failStatus === 503 ? 'SlowDown' : 'InternalError',
                     'injected failure');
    }
    const problem = checkSignature(req, body);
    if (problem !== null) {
      stats.rejected += 1;
      process.stderr.write(`s3server: rejected ${req.method} ${req.url}: ${problem}\n`);
      return s3Error(res, 403, 'SignatureDoesNotMatch', problem);
    }
    if (req.method === 'GET' && req.headers.range) {
      // s3rver answers a ranged GET of an empty object with a broken 206; S3 answers 416.
      const headers = { ...req.headers };
      delete headers.range;
      const head = http.request({
        host: '127.0.0.1', port: backendPort, method: 'HEAD', path: req.url, headers,
      }, answer => {
        answer.resume();
        if (answer.statusCode === 200 && answer.headers['content-length'] === '0') {
          return s3Error(res, 416, 'InvalidRange', 'The requested range is not satisfiable');
        }
        return forward(req, res, body);
      });
      head.on('error', error => s3Error(res, 500, 'InternalError', String(error)));
      head.end();
      return undefined;
    }
    return forward(req, res, body);
  });
  return undefined;
};
const server = tls ? https.createServer(tlsOptions(), handler) : http.createServer(handler);

function forward(req, res, body) {
  const request = http.request({
    host: '127.0.0.1', port: backendPort, method: req.method, path: req.url,
    headers: { ...req.headers, 'content-length': body.length },
  }, answer => {
    if (logRequests) {
      process.stderr.write(`s3server: ${req.method} ${req.url} ${req.headers.range ?? ''} -> ${answer.statusCode}\n`);
    }
    res.writeHead(answer.statusCode, answer.headers);
    answer.on('data', chunk => { stats.bytes_out += chunk.length; });
    answer.pipe(res);
  });
  request.on('error', error => s3Error(res, 500, 'InternalError', String(error)));
  request.end(body);
}
server.on('connection', socket => {
  sockets.add(socket);
  socket.on('close', () => sockets.delete(socket));
});
server.listen(port, '127.0.0.1', () => {
  port = server.address().port;
  process.stdout.write(`ready ${port}\n`);
});
const stop = async () => { server.close(); for (const s of sockets) s.destroy(); await backend.close(); process.exit(0); };
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
