import puppeteer from 'puppeteer-core';
import fs from 'node:fs'; import http from 'node:http'; import path from 'node:path'; import os from 'node:os';
const root = path.resolve('build/web');
const server = http.createServer((req, res) => { const rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  const file = path.join(root, rel.endsWith('/') ? rel + 'index.html' : rel);
  fs.readFile(file, (err, data) => { if (err) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, {'Content-Type': file.endsWith('.wasm') ? 'application/wasm' : file.endsWith('.html')?'text/html':'application/octet-stream'}); res.end(data); }); });
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await puppeteer.launch({ executablePath: '/usr/bin/chromium', headless: true, userDataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'c-')),
  args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--disable-background-networking','--no-first-run'] });
const page = await browser.newPage();
page.on('requestfinished', (r) => console.log('req', new URL(r.url()).pathname));
page.on('console', (m) => console.log('console', m.text()));
await page.setViewport({ width: 1280, height: 720 });
await page.goto(base + '?lesson=05-why-scale');
await page.waitForFunction('window.attnlabReady === true', { timeout: 30000 });
const desc = () => page.evaluate(() => JSON.parse(Module.ccall('web_describe', 'string', [], [])));
await page.evaluate(() => new Promise((ok) => { let n = 0; const tick = () => (++n >= 6 ? ok() : requestAnimationFrame(tick)); requestAnimationFrame(tick); }));
console.log('status0', (await desc()).status);
const file = path.join(os.tmpdir(), 'two.json'); fs.copyFileSync('assets/scenes/two-dims.json', file);
const picker = await page.$('#picker'); await picker.uploadFile(file);
for (let k = 0; k < 8; k++) { await new Promise((ok) => setTimeout(ok, 100)); const d = await desc(); console.log(k, JSON.stringify(d.status), d.lesson); }
await browser.close(); server.close();
