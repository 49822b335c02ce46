// Browser tests of the web build (make test-web): Debian's chromium, headless
// with software WebGL (SwiftShader), driven by puppeteer-core against
// build/web served on localhost. Each check prints one line; the first
// failure stops the run with exit status 1.
//
//   node tests/web/test.mjs build/web
//   node tests/web/test.mjs build/web --first-frame N   (make bench: the median
//       time from navigation to the first drawn frame over N loads)
//   node tests/web/test.mjs build/web --frames   (make bench: what a hover, a
//       drag and a d_k slider frame cost at 1920x1080, as --bench measures
//       them on the desktop; prints JSON rows)
import puppeteer from 'puppeteer-core';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

const root = path.resolve(process.argv[2] || 'build/web');
const top = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const chromium = process.env.CHROMIUM || '/usr/bin/chromium';

// ---- a static server, as any web host would be --------------------------------
const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm',
                '.data': 'application/octet-stream' };
// /ck/… serves a generated checkpoint, for the Model view's tests to drop on the page
const checkpoint = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-ck-'));
const server = http.createServer((req, res) => {
  const rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  const from = rel.startsWith('/ck/') ? checkpoint : root;
  const file = path.join(from, rel.startsWith('/ck/') ? rel.slice(4) : rel.endsWith('/') ? rel + 'index.html' : rel);
  if (!file.startsWith(from)) { res.writeHead(403); res.end(); return; }
  fs.readFile(file, (err, data) => {
    if (err) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream' });
    res.end(data);
  });
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const base = `http://127.0.0.1:${server.address().port}/`;

const downloads = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-web-'));
const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  userDataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-chromium-')),
  args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
         '--disable-background-networking', '--disable-component-update', '--no-first-run',
         '--disable-sync', '--disable-quic'],
});

let failed = false;
async function check(name, fn) {
  try {
    await fn();
    console.log(`ok  ${name}`);
  } catch (err) {
    console.log(`FAIL  ${name}: ${err.message}`);
    failed = true;
  }
}
function assert(cond, msg) { if (!cond) throw new Error(msg); }

// ---- pages ------------------------------------------------------------------------
async function open(query = '', { width = 1280, height = 720, scale = 1 } = {}) {
  const page = await browser.newPage();
  const errors = [], requests = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('requestfinished', (r) => requests.push(new URL(r.url()).pathname));
  page.on('pageerror', (e) => errors.push(e.message));
  await page.setViewport({ width, height, deviceScaleFactor: scale });
  const cdp = await page.createCDPSession();
  await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads });
  await page.goto(base + query);
  await page.waitForFunction('window.attnlabReady === true', { timeout: 30000 });
  await idle(page);
  return { page, errors, requests };
}

const describe = (page) =>
  page.evaluate(() => JSON.parse(Module.ccall('web_describe', 'string', [], [])));

// what a drop from the file manager gives the page: a DataTransfer of Files
const drop = (page, names) => page.evaluate(async (names) => {
  const dt = new DataTransfer();
  for (const name of names) {
    const blob = await (await fetch('/ck/' + name)).blob();
    dt.items.add(new File([blob], name.split('/').pop()));
  }
  dispatchEvent(new DragEvent('drop', { dataTransfer: dt, cancelable: true }));
}, names);
const waitStatus = (page, re) => page.waitForFunction((src) => new RegExp(src).test(
  JSON.parse(Module.ccall('web_describe', 'string', [], [])).status), { timeout: 30000 }, re.source);

async function idle(page) { // a few animation frames: the app's queued actions land
  await page.evaluate(() => new Promise((ok) => {
    let n = 0;
    const tick = () => (++n >= 6 ? ok() : requestAnimationFrame(tick));
    requestAnimationFrame(tick);
  }));
}

function item(d, kind, id, index = -1) {
  const it = d.items.find((x) => x.kind === kind && x.id === id && (index < 0 || x.index === index));
  assert(it, `no ${kind} '${id}'${index >= 0 ? ' #' + index : ''} on screen`);
  return it;
}
const centre = (it) => [it.rect[0] + it.rect[2] / 2, it.rect[1] + it.rect[3] / 2];

async function click(page, it) {
  const [x, y] = centre(it);
  await page.mouse.click(x, y);
  await idle(page);
}

async function shortcut(page, key) {
  await page.keyboard.down('Control');
  await page.keyboard.press(key);
  await page.keyboard.up('Control');
  await idle(page);
}

// The file a download left, once it is complete.
async function download(name) {
  const file = path.join(downloads, name);
  for (let t = 0; t < 100; t++) {
    if (fs.existsSync(file)) {
      const text = fs.readFileSync(file, 'utf8');
      fs.unlinkSync(file);
      return text;
    }
    await new Promise((ok) => setTimeout(ok, 100));
  }
  throw new Error(`no download named ${name}`);
}

async function savedScene(page, name = 'attnlab-scene.json') {
  await shortcut(page, 's');
  return JSON.parse(await download(name));
}

// ---- PNG pixels, to see that something was drawn -------------------------------------
function colours(png) {
  let at = 8, w = 0, h = 0, type = 0;
  const idat = [];
  while (at < png.length) {
    const len = png.readUInt32BE(at), kind = png.toString('ascii', at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + len);
    if (kind === 'IHDR') { w = body.readUInt32BE(0); h = body.readUInt32BE(4); type = body[9]; }
    if (kind === 'IDAT') idat.push(body);
    at += 12 + len;
  }
  const bpp = type === 6 ? 4 : 3, stride = w * bpp, raw = zlib.inflateSync(Buffer.concat(idat));
  const px = Buffer.alloc(stride * h), seen = new Set();
  for (let y = 0; y < h; y++) {
    const f = raw[y * (stride + 1)], row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? px[y * stride + x - bpp] : 0, b = y ? px[(y - 1) * stride + x] : 0;
      const c = x >= bpp && y ? px[(y - 1) * stride + x - bpp] : 0;
      const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
      const pred = [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][f];
      px[y * stride + x] = (row[x] + pred) & 255;
    }
    for (let x = 0; x < w; x++) {
      const o = y * stride + x * bpp;
      seen.add((px[o] << 16) | (px[o + 1] << 8) | px[o + 2]);
    }
  }
  return seen.size;
}

// ---- make bench: time to the first frame ----------------------------------------------
const firstFrame = process.argv.indexOf('--first-frame');
if (firstFrame > 0) {
  const runs = Number(process.argv[firstFrame + 1] || 5), times = [];
  for (let k = 0; k < runs; k++) {
    const { page } = await open();
    times.push(await page.evaluate(() => window.attnlabFirstFrameMs));
    await page.close();
  }
  times.sort((a, b) => a - b);
  console.log(`first frame in headless chromium (SwiftShader WebGL), 1280x720: median ${Math.round(times[runs >> 1])} ms ` +
              `over ${runs} loads (min ${Math.round(times[0])}, max ${Math.round(times[runs - 1])}; target 2000 ms)`);
  await browser.close();
  server.close();
  process.exit(0);
}

// ---- make bench: frame costs in the browser ---------------------------------------------
// The bench scene of `attnlab --bench`: n vocabulary words in turn, d_k = 64. Each
// frame waits for its pixels (a one-pixel read-back); a row is the cost of all the
// frames one input causes (a widget's change lands in the frame after the input's).
if (process.argv.includes('--frames')) {
  const words = fs.readFileSync(path.join(top, 'assets/vocab.tsv'), 'utf8').split('\n')
    .filter((l) => l && !l.startsWith('#')).map((l) => l.split('\t')[0]);
  const median = (v) => v.sort((a, b) => a - b)[v.length >> 1];
  const rows = [];
  for (const n of [6, 512]) {
    const tokens = Array.from({ length: n }, (_, i) => words[i % words.length]).join('+');
    const { page } = await open(`?dk=64&tokens=${tokens}`, { width: 1920, height: 1080 });
    await page.evaluate(() => Module.ccall('web_time_frames', null, [], []));
    // one input, then every frame it causes (a widget's change lands in the
    // frame after the input's): their cost together
    const step = async (input, what) => {
      const before = await page.evaluate(() => {
        Module.ccall('web_frame_ms', 'number', [], []);
        return Module.ccall('web_frames', 'number', [], []);
      });
      await input();
      await page.waitForFunction((b) => Module.ccall('web_frames', 'number', [], []) > b,
                                 { timeout: 10000 }, before)
        .catch(() => { throw new Error(`${what} at n = ${n}: no frame followed the input`); });
      await idle(page);
      return page.evaluate(() => Module.ccall('web_frame_ms', 'number', [], []));
    };
    const d = await describe(page);
    const grid = item(d, 'grid', 'S'), point = item(d, 'point', 'token', 0);
    const slider = item(d, 'slider', 'dk');
    const kinds = {
      hover: async (f) => {
        // one cell a frame, in an 8 x 8 walk spread over the grid
        const c = Math.min(n, 8), [x, y, w, h] = grid.rect, cell = Math.floor(n / c);
        await page.mouse.move(x + w * ((f % c) * cell + 0.5) / n,
                              y + h * ((Math.floor(f / c) % c) * cell + 0.5) / n);
      },
      drag: async (f) => {
        const [x, y] = centre(point);
        if (f === 0) { await page.mouse.move(x, y); await page.mouse.down(); }
        await page.mouse.move(x + (f % 7 + 1) * 3, y - (f % 5 + 1) * 3);
      },
      slider: async (f) => {
        // the track runs along the lower part of the slider's row, under its label
        const [x, y, w, h] = slider.rect;
        if (f === 0) { await page.mouse.move(x + w * 0.5, y + h * 0.75); await page.mouse.down(); }
        await page.mouse.move(x + w * (0.3 + 0.02 * (f % 16)), y + h * 0.75);
      },
    };
    for (const [kind, input] of Object.entries(kinds)) {
      const times = [];
      for (let f = 0; f < 23; f++) {
        const ms = await step(() => input(f), kind);
        if (f >= 3) times.push(ms);
      }
      if (kind !== 'hover') await page.mouse.up();
      await idle(page);
      rows.push({ kind, n, width: 1920, height: 1080, frame_median_ms: median(times) });
    }
    await page.close();
  }
  console.log(JSON.stringify({ browser: 'headless chromium, SwiftShader WebGL2', results: rows }, null, 2));
  await browser.close();
  server.close();
  process.exit(0);
}

// ---- make bench: frames while the model writes ------------------------------------------
// node tests/web/test.mjs build/web --writing DIR: DIR's checkpoint (make bench gives one
// of GPT-2 small's shapes) dropped on the page at 1920x1080, its text read, then the write
// panel playing at 10 steps a second for 8 s: the time between the page's animation
// frames (a slice of a step that runs long delays the next frame), and the tokens written.
if (process.argv.includes('--writing')) {
  const dir = path.resolve(process.argv[process.argv.indexOf('--writing') + 1]);
  const names = fs.readdirSync(dir).filter((f) => /\.(json|txt|safetensors)$/.test(f));
  for (const f of names) fs.symlinkSync(path.join(dir, f), path.join(checkpoint, f));
  const { page } = await open('?view=model', { width: 1920, height: 1080 });
  await drop(page, names);
  await page.waitForFunction(() => /^Opened the model/.test(
    JSON.parse(Module.ccall('web_describe', 'string', [], [])).status), { timeout: 300000 });
  await page.waitForFunction(() => {
    const d = JSON.parse(Module.ccall('web_describe', 'string', [], []));
    return !d.model_busy && d.model_passes >= 1;
  }, { timeout: 300000 });
  // the worker opens its copy meanwhile; until it has, the page writes in slices
  const loaded = await page.evaluate(() => performance.now());
  await page.waitForFunction(() => window.attnlabWorkerReady(), { timeout: 300000 });
  const workerMs = await page.evaluate((t) => performance.now() - t, loaded);
  await click(page, item(await describe(page), 'button', 'model_next_mode', 1));
  await idle(page);
  await click(page, item(await describe(page), 'slider', 'model_speed'));
  await page.keyboard.press('End'); // 10 steps a second
  await idle(page);
  await click(page, item(await describe(page), 'button', 'model_write', 1)); // ▶ play
  const before = (await describe(page)).model_written;
  const gaps = await page.evaluate((ms) => new Promise((ok) => {
    const gaps = [], start = performance.now();
    let last = start;
    const tick = (now) => {
      gaps.push(now - last);
      last = now;
      if (now - start < ms) requestAnimationFrame(tick); else ok(gaps);
    };
    requestAnimationFrame(tick);
  }), 8000);
  const after = await describe(page), written = after.model_written - before;
  gaps.shift(); // from the evaluate's start to the first frame
  const sorted = [...gaps].sort((a, b) => a - b), at = (q) => sorted[Math.floor(q * (sorted.length - 1))];
  console.log(JSON.stringify({
    browser: 'headless chromium, SwiftShader WebGL2', width: 1920, height: 1080, frames: gaps.length,
    frame_median_ms: at(0.5), frame_p95_ms: at(0.95), frame_max_ms: sorted[sorted.length - 1],
    over_20_ms: gaps.filter((g) => g > 20).length, written,
    // the steps' answers taken from the page's Web Worker, and how long after the page's own
    // first pass the worker had its copy of the model
    from_worker: after.model_from_worker, worker_ready_after_ms: Math.round(workerMs),
    // when each of those ended, from the press of play: the text's pass and the cache's
    // memory come first
    over_20_at_ms: gaps.map((g, i) => [g, gaps.slice(0, i + 1).reduce((a, b) => a + b, 0)])
      .filter(([g]) => g > 20).map(([, t]) => Math.round(t)),
  }, null, 2));
  await browser.close();
  server.close();
  process.exit(0);
}

// ---- the checks ------------------------------------------------------------------------
await check('the site is complete and at most 6 MB', async () => {
  let total = 0;
  for (const f of ['index.html', 'attnlab.js', 'attnlab.wasm', 'attnlab.data', 'attnlab-worker.js',
                   'attnlab-worker.wasm']) {
    assert(fs.existsSync(path.join(root, f)), `${f} is missing`);
    total += fs.statSync(path.join(root, f)).size;
  }
  assert(total <= 6 * 1024 * 1024, `${(total / 1048576).toFixed(1)} MB`);
});

await check('the page loads with no errors and draws the explorer', async () => {
  const { page, errors } = await open();
  const first = await page.evaluate(() => window.attnlabFirstFrameMs);
  const d = await describe(page);
  assert(d.view === 'explorer', `view ${d.view}`);
  const n = colours(await page.screenshot());
  assert(n > 200, `only ${n} colours on screen`);
  assert(errors.length === 0, `console errors: ${errors.join(' | ')}`);
  console.log(`    first frame after ${Math.round(first)} ms`);
  await page.close();
});

await check('the canvas fills the window, follows a resize, and is sharp on HiDPI', async () => {
  const { page } = await open('', { width: 1000, height: 700, scale: 2 });
  const size = () => page.evaluate(() => [Module.canvas.width, Module.canvas.height]);
  let [w, h] = await size();
  assert(w === 2000 && h === 1400, `canvas ${w}x${h} at devicePixelRatio 2`);
  await page.setViewport({ width: 1400, height: 800, deviceScaleFactor: 2 });
  await new Promise((ok) => setTimeout(ok, 300));
  await idle(page);
  [w, h] = await size();
  assert(w === 2800 && h === 1600, `canvas ${w}x${h} after the resize`);
  const d = await describe(page);
  const right = Math.max(...d.items.map((it) => it.rect[0] + it.rect[2]));
  assert(right > 1300 && right <= 1400, `the layout reaches ${right} of 1400 CSS pixels`);
  await page.close();
});

await check('a frame paints only what changed, and the page equals a full repaint', async () => {
  const { page } = await open('', { width: 1280, height: 720 });
  const d = await describe(page);
  const grid = item(d, 'grid', 'S'), n = 6, [x, y, w, h] = grid.rect;
  // the pointer over several cells of S, then a token dragged a little
  for (let k = 0; k < 5; k++) {
    await page.mouse.move(x + w * (k + 0.5) / n, y + h * ((k * 2) % n + 0.5) / n);
    await idle(page);
  }
  const [px, py] = centre(item(d, 'point', 'token', 2));
  await page.mouse.move(px, py);
  await page.mouse.down();
  await page.mouse.move(px + 30, py - 20, { steps: 3 });
  await page.mouse.up();
  await idle(page);
  const incremental = await page.screenshot();
  await page.evaluate(() => Module.ccall('web_repaint', null, [], []));
  await idle(page);
  const full = await page.screenshot();
  if (!incremental.equals(full)) {
    fs.writeFileSync(path.join(top, 'build/web-incremental.png'), incremental);
    fs.writeFileSync(path.join(top, 'build/web-full.png'), full);
  }
  assert(incremental.equals(full), 'the page differs from a full repaint (see build/web-*.png)');
  await page.close();
});

await check('a CJK font is fetched only when a character needs it, and Han words differ', async () => {
  const plain = await open();
  assert(!plain.requests.some((u) => u.startsWith('/fonts/')),
         `the default page fetched ${plain.requests.filter((u) => u.startsWith('/fonts/'))}`);
  await plain.page.close();
  const { page, errors, requests } = await open('?tokens=%E6%9D%B1%E4%BA%AC+%E4%BA%AC%E9%83%BD+cat');
  for (let t = 0; t < 100 && !requests.includes('/fonts/DroidSansFallbackFull.ttf'); t++)
    await new Promise((ok) => setTimeout(ok, 100));
  assert(requests.includes('/fonts/DroidSansFallbackFull.ttf'), `fetched: ${requests.join(' ')}`);
  assert(!requests.includes('/fonts/Symbola_hint.ttf'), 'the emoji font was fetched for Han text');
  await idle(page);
  await idle(page);
  const d = await describe(page);
  const shot = async (i) => {
    const [x, y, w, h] = item(d, 'chip', 'token', i).rect;
    return page.screenshot({ clip: { x, y, width: w, height: h } });
  };
  assert(!(await shot(0)).equals(await shot(1)), '東京 and 京都 look the same');
  assert(errors.length === 0, errors.join(' | '));
  await page.close();
});

await check('URL options set the view and the scene', async () => {
  const { page, errors } = await open('?view=scaling&dk=64&tokens=the+dog+barked&pos=sin');
  const d = await describe(page);
  assert(d.view === 'scaling', `view ${d.view}`);
  const s = await savedScene(page);
  assert(JSON.stringify(s.tokens) === '["the","dog","barked"]', `tokens ${JSON.stringify(s.tokens)}`);
  assert(s.d_k === 64, `d_k ${s.d_k}`);
  assert(s.pos === 'sin', `pos ${s.pos}`);
  assert(errors.length === 0, errors.join(' | '));
  await page.close();
});

await check('every view draws in the browser', async () => {
  for (const view of ['scaling', 'permutation', 'train', 'shift']) {
    const { page, errors } = await open(`?view=${view}`);
    assert((await describe(page)).view === view, `not the ${view} view`);
    const n = colours(await page.screenshot());
    assert(n > 200, `${view}: only ${n} colours on screen`);
    assert(errors.length === 0, `${view}: ${errors.join(' | ')}`);
    await page.close();
  }
});

await check('the layers model trains in the browser, a slice a frame, and opens a head in the explorer', async () => {
  const { page, errors } = await open('?view=train');
  await click(page, item(await describe(page), 'button', 'train_model', 1));
  let d = await describe(page);
  item(d, 'grid', 'layers_A_0_0');
  item(d, 'grid', 'layers_A_1_0');
  await click(page, item(d, 'button', 'layers_more'));
  await page.waitForFunction(() => JSON.parse(Module.ccall('web_describe', 'string', [], [])).status
    .startsWith('Trained to step 100'), { timeout: 60000 });
  await click(page, item(await describe(page), 'button', 'layers_explore', 4)); // layer 1, head 0
  d = await describe(page);
  assert(d.view === 'explorer', `view ${d.view}`);
  assert(d.status.includes('layer 1 head 0 of the layers lab at step 100'), d.status);
  item(d, 'grid', 'A');
  assert(errors.length === 0, errors.join(' | '));
  await page.close();
});

await check('a bad URL option is one line on the page, and the defaults load', async () => {
  const { page } = await open('?dk=abc');
  const shown = await page.$eval('#message', (e) => (e.style.display === 'block' ? e.textContent : ''));
  assert(/^attnlab: --dk: 'abc' is not a whole number/.test(shown), `message: '${shown}'`);
  const d = await describe(page);
  assert(d.status.includes("--dk: 'abc'"), `status line: ${d.status}`);
  const s = await savedScene(page);
  assert(s.d_k === 16, `d_k ${s.d_k}`);
  await page.close();
});

await check('?lang=de speaks German, and the picker switches to Chinese in the same page', async () => {
  const { page, errors, requests } = await open('?lang=de&theme=blau');
  let d = await describe(page);
  assert(d.lang === 'de', `lang ${d.lang}`);
  assert(d.status.includes("--theme: 'blau' ist keins von: dark, light, contrast"),
         `status line: ${d.status}`);
  assert(!requests.some((u) => u.startsWith('/fonts/')), 'German fetched a fallback font');
  await click(page, item(d, 'button', 'lang'));
  d = await describe(page);
  await click(page, item(d, 'button', 'lang_item', 3));
  d = await describe(page);
  assert(d.lang === 'zh_CN', `lang after the pick: ${d.lang}`);
  assert(d.status === '简体中文', `status line: ${d.status}`);
  for (let t = 0; t < 100 && !requests.includes('/fonts/DroidSansFallbackFull.ttf'); t++)
    await new Promise((ok) => setTimeout(ok, 100));
  assert(requests.includes('/fonts/DroidSansFallbackFull.ttf'), 'no CJK font for the Chinese UI');
  const plain = await open('');
  assert((await describe(plain.page)).lang === 'en', 'the default, in an English browser');
  await plain.page.close();
  assert(errors.length === 0, errors.join(' | '));
  await page.close();
});

let dragged;
await check('a drag on an embedding point changes the saved scene, which the app reads back', async () => {
  const { page } = await open();
  const before = await savedScene(page);
  const p = item(await describe(page), 'point', 'token', 1);
  const [x, y] = centre(p);
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let k = 1; k <= 8; k++) await page.mouse.move(x + 5 * k, y + 4 * k);
  await page.mouse.up();
  await idle(page);
  const after = await savedScene(page);
  const d = before.X[0].length;
  assert(after.X[1][0] > before.X[1][0] && after.X[1][1] < before.X[1][1], 'token 1 did not move right and down');
  for (let i = 0; i < before.X.length; i++)
    if (i !== 1) for (let c = 0; c < d; c++) assert(after.X[i][c] === before.X[i][c], `token ${i} moved`);
  const desktop = path.join(top, 'attnlab');
  if (fs.existsSync(desktop)) {
    const file = path.join(downloads, 'check.json');
    fs.writeFileSync(file, JSON.stringify(after));
    execFileSync(desktop, ['--scene', file, '--export', 'json'], { stdio: 'pipe' });
  }
  dragged = { page, scene: after };
});

await check('a Share link opens exactly the same scene', async () => {
  assert(dragged, 'needs the dragged scene');
  const { page, scene } = dragged;
  await page.click('#share-button');
  await page.waitForFunction(() => document.getElementById('share').value.includes('#scene='));
  const link = await page.$eval('#share', (e) => e.value);
  const other = await open(link.slice(base.length));
  const again = await savedScene(other.page, 'shared.json');
  assert(JSON.stringify(again) === JSON.stringify(scene), 'the shared scene differs');
  assert(other.errors.length === 0, other.errors.join(' | '));
  await other.page.close();
  await page.close();
});

await check('?hide= hides panels and controls for a class, and the Share link keeps it', async () => {
  const { page, errors } = await open('?hide=S,dk');
  let d = await describe(page);
  assert(!d.items.some((it) => it.kind === 'grid' && it.id === 'S'), 'S is still drawn');
  assert(!d.items.some((it) => it.kind === 'slider' && it.id === 'dk'), 'the d_k slider is still there');
  assert(d.items.some((it) => it.kind === 'grid' && it.id === 'A'), 'A went too');
  await page.click('#share-button');
  await page.waitForFunction(() => document.getElementById('share').value.includes('#scene='));
  const link = await page.$eval('#share', (e) => e.value);
  assert(link.includes('?hide=S%2Cdk#scene='), `the link is ${link.slice(0, 80)}`);
  const other = await open(link.slice(base.length));
  d = await describe(other.page);
  assert(!d.items.some((it) => it.kind === 'grid' && it.id === 'S'), 'the shared page shows S');
  assert(errors.length === 0 && other.errors.length === 0, errors.concat(other.errors).join(' | '));
  await other.page.close();
  await page.close();
});

// The resident memory of this browser's processes but the first, in bytes
// (Linux /proc): its pages' renderers, GPU and utility processes.
function renderersRss() {
  const parent = new Map(), rss = new Map();
  for (const pid of fs.readdirSync('/proc').filter((p) => /^[0-9]+$/.test(p))) {
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      parent.set(pid, /PPid:\s+(\d+)/.exec(status)[1]);
      const kb = /VmRSS:\s+(\d+) kB/.exec(status);
      rss.set(pid, kb ? Number(kb[1]) * 1024 : 0);
    } catch (e) { /* gone meanwhile */ }
  }
  const root = String(browser.process().pid);
  let sum = 0;
  for (const pid of parent.keys()) {
    for (let p = parent.get(pid); p && p !== '0'; p = parent.get(p))
      if (p === root) { sum += rss.get(pid); break; }
  }
  return sum;
}

// A share link that cannot be read is said, on the page and in the status
// line, and the default scene loads: a mangled code, one that is not deflated
// data, and a deflate bomb of 512 MiB (a link of 0.7 MB), which stops at the
// scene file's 8 MiB limit with the page's processes never growing by more
// than 256 MB while it loads (it inflated whole before: +1.2 GB for 1 GiB;
// half of that is still twice the bound).
await check('a bad share link is one line and the default scene loads; a deflate bomb stops at the limit', async () => {
  // 512 MiB of spaces: 32 sync-flushed deflate blocks of 16 MiB each, then an empty final
  // block (0x03 0x00), which is what deflating the whole would give, in a tenth of the time
  const block = zlib.deflateRawSync(Buffer.alloc(1 << 24, 0x20),
    { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  const bomb = Buffer.concat([...Array(32).fill(block), Buffer.from([3, 0])])
    .toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  const cases = [
    ['#scene=!!!!', /share link could not be read: its #scene= part is not one/],
    ['#scene=AAAAAAAA', /share link could not be read: its scene is not deflated data/],
    ['#scene=' + bomb, /share link could not be read: its scene inflates past the 8388608-byte limit/],
  ];
  for (const [hash, says] of cases) {
    const before = renderersRss();
    let peak = before;
    // each sample reads every process's status, blocking this script: 100 ms apart (a page
    // that inflated the whole would hold its gigabyte far longer than that)
    const sampler = setInterval(() => { peak = Math.max(peak, renderersRss()); }, 100);
    const { page } = await open(hash);
    clearInterval(sampler);
    peak = Math.max(peak, renderersRss());
    assert(peak - before < 256 << 20, `${hash.slice(0, 20)}: the page's processes grew by ${peak - before} bytes`);
    const shown = await page.$eval('#message', (e) => (e.style.display === 'block' ? e.textContent : ''));
    assert(says.test(shown) && /the default scene is shown$/.test(shown), `${hash.slice(0, 20)}: message '${shown}'`);
    const d = await describe(page);
    assert(says.test(d.status), `${hash.slice(0, 20)}: status line '${d.status}'`);
    const s = await savedScene(page);
    assert(s.tokens.join(' ') === 'the cat sat on the mat', `${hash.slice(0, 20)}: not the default scene`);
    const heap = await page.evaluate(() => performance.memory ? performance.memory.usedJSHeapSize : 0);
    assert(heap < 256 << 20, `${hash.slice(0, 20)}: the page's heap is ${heap} bytes`);
    await page.close();
  }
});

await check('a lesson opens from the menu, and everything works offline once loaded', async () => {
  const { page, errors } = await open();
  await page.setOfflineMode(true);
  await click(page, item(await describe(page), 'button', 'lessons'));
  await click(page, item(await describe(page), 'button', 'lesson_item', 0));
  await idle(page);
  const d = await describe(page);
  assert(d.lesson === '1 · Tokens become vectors', `lesson ${d.lesson}`);
  assert(d.step === 0, `step ${d.step}`);
  await page.keyboard.press('ArrowRight');
  await idle(page);
  assert((await describe(page)).step === 1, 'the → key did not reach step 2');
  assert(errors.length === 0, errors.join(' | '));
  await page.close();
});

await check('a lesson named in the URL opens, and a scene opened from a file replaces the scene', async () => {
  const { page } = await open('?lesson=05-why-scale');
  assert((await describe(page)).lesson === '5 · Why divide by √d_k', 'lesson 5 is not open');
  const file = path.join(downloads, 'two.json');
  fs.copyFileSync(path.join(top, 'assets/scenes/two-dims.json'), file);
  const picker = await page.$('#picker');
  await picker.uploadFile(file);
  await new Promise((ok) => setTimeout(ok, 300));
  await idle(page);
  const d = await describe(page);
  assert(/^Opened /.test(d.status), `status: ${d.status}`);
  await page.close();
});

// ---- the Model view: a checkpoint from the user's own files ----------------------------
// A GPT-2-family checkpoint the tests generate (random weights, GPT-2's real
// tokenizer): 12 layers of 12 heads, GPT-2 small's grid, at a small width.
execFileSync(fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3',
  [path.join(top, 'tests/tools/gpt2_reference.py'), 'make', checkpoint, '--layers', '12', '--heads', '12',
   '--embd', '48', '--positions', '64', '--seed', '9']);
const heads = (d) => d.items.filter((it) => it.id === 'model_head').length;
await check('the Model view opens a checkpoint from dropped files, and a bad set keeps it', async () => {
  const { page, errors } = await open('?view=model');
  let d = await describe(page);
  item(d, 'panel', 'model_none'); // no model yet: where to get one
  await drop(page, ['config.json', 'model.safetensors', 'vocab.json', 'merges.txt']);
  await waitStatus(page, /^Opened the model: 12 layers × 12 heads/);
  await idle(page);
  d = await describe(page);
  assert(d.view === 'model', `view ${d.view}`);
  assert(heads(d) === 144, `${heads(d)} head pictures, not 144`);
  // its pass runs a slice a frame, and is shown once done: then a head opens with a click
  await page.waitForFunction(() => {
    const d = JSON.parse(Module.ccall('web_describe', 'string', [], []));
    return !d.model_busy && d.model_passes >= 1;
  }, { timeout: 30000 });
  await click(page, item(d, 'button', 'model_head', 5 * 12 + 1));
  d = await describe(page);
  item(d, 'panel', 'model_open');
  item(d, 'panel', 'model_next');
  // three of the four files: one line naming what is missing, and the model stays
  await drop(page, ['config.json', 'vocab.json', 'merges.txt']);
  await waitStatus(page, /^Not opened: .*model\.safetensors/);
  assert(heads(await describe(page)) === 144, 'the open model was lost');
  assert(errors.length === 0, errors.join(' | '));
  await page.close();
});

// Once the page's Web Worker has the model, a pass comes from it: the text
// read in reverse, and the answer taken.
async function fromWorker(page) {
  await page.waitForFunction(() => window.attnlabWorkerReady(), { timeout: 60000 });
  const before = (await describe(page)).model_from_worker;
  await click(page, item(await describe(page), 'button', 'model_reorder', 0)); // reversed
  await page.waitForFunction((b) => {
    const d = JSON.parse(Module.ccall('web_describe', 'string', [], []));
    return !d.model_busy && d.model_from_worker > b;
  }, { timeout: 30000 }, before);
}

// The Model view's pass and the writing's steps run in the page's Web Worker:
// its answers are taken (the page counts them), and the page writes what the
// desktop writes, token for token.
await check('the model\'s pass and its writing run in a Web Worker and write what the desktop writes', async () => {
  const { page, errors } = await open('?view=model');
  await drop(page, ['config.json', 'model.safetensors', 'vocab.json', 'merges.txt']);
  await waitStatus(page, /^Opened the model/);
  // a new text once the worker has the model: its pass comes from the worker
  const text = 'When Mary and John went to the store, John gave a drink to';
  await page.waitForFunction(() => {
    const d = JSON.parse(Module.ccall('web_describe', 'string', [], []));
    return !d.model_busy && d.model_passes >= 1;
  }, { timeout: 30000 });
  await fromWorker(page);
  await click(page, item(await describe(page), 'button', 'model_reorder', 2)); // as written
  await click(page, item(await describe(page), 'button', 'model_next_mode', 1));
  const steps = 12, write = item(await describe(page), 'button', 'model_write', 0); // step
  for (let k = 0; k < steps; k++) {
    await click(page, write);
    await page.waitForFunction((k) => JSON.parse(Module.ccall('web_describe', 'string', [], [])).model_written > k,
                               { timeout: 30000 }, k);
  }
  const d = await describe(page);
  assert(d.model_from_worker >= steps + 2, `${d.model_from_worker} answers from the worker`);
  const desktop = JSON.parse(execFileSync(process.env.ATTNLAB_BIN || path.join(top, 'attnlab'),
    ['--model', checkpoint, '--text', text, '--generate', String(steps), '--export', 'json'],
    { encoding: 'utf8', maxBuffer: 1 << 28 }));
  const want = desktop.steps.map((s) => s.id);
  assert(JSON.stringify(d.model_chosen) === JSON.stringify(want),
         `the page wrote ${d.model_chosen}, the desktop ${want}`);
  assert(errors.length === 0, errors.join(' | '));
  await page.close();
});

await check('Open model… in the browser is the page\'s file picker, for the four files', async () => {
  const { page, errors } = await open('?view=model');
  const [chooser] = await Promise.all([page.waitForFileChooser({ timeout: 10000 }),
    click(page, item(await describe(page), 'button', 'model_open'))]);
  assert(chooser.isMultiple(), 'the picker takes one file only');
  // what was on screen when the page began to read the weights (it cannot draw meanwhile)
  await page.evaluate(() => {
    const read = Module._web_open_model;
    Module._web_open_model = (...args) => {
      window.atRead = { status: JSON.parse(Module.ccall('web_describe', 'string', [], [])).status,
                        frames: Module._web_frames() };
      return read(...args);
    };
    window.framesBefore = Module._web_frames();
  });
  await chooser.accept(['config.json', 'model.safetensors', 'vocab.json', 'merges.txt']
    .map((f) => path.join(checkpoint, f)));
  await waitStatus(page, /^Opened the model/);
  const atRead = await page.evaluate(() => window.atRead);
  const before = await page.evaluate(() => window.framesBefore);
  assert(/^Reading the model's weights/.test(atRead.status), `status then: ${atRead.status}`);
  assert(atRead.frames > before, 'no frame drew the line before the page read the weights');
  await idle(page);
  assert(heads(await describe(page)) === 144, 'no grid of heads');
  assert(errors.length === 0, errors.join(' | '));
  await page.close();
});

// A Qwen3-like checkpoint as the hub serves a bigger model: BF16 shards with
// their index and a tokenizer.json, beside what a folder holds that is not
// read (generation_config.json). Dropped as a folder's files, it opens with
// its grouped heads marked.
execFileSync(fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3',
  [path.join(top, 'tests/tools/llama_reference.py'), 'make', path.join(checkpoint, 'qwen3'),
   '--family', 'qwen3', '--dtype', 'bf16', '--shards', '3', '--heads', '4', '--kv-heads', '2',
   '--head-dim', '16', '--seed', '23']);
fs.writeFileSync(path.join(checkpoint, 'qwen3', 'generation_config.json'), '{"do_sample": false}');
await check('a sharded Qwen3 checkpoint dropped as a folder opens, its shared heads marked', async () => {
  const { page, errors } = await open('?view=model');
  const names = fs.readdirSync(path.join(checkpoint, 'qwen3')).map((f) => 'qwen3/' + f);
  assert(names.filter((n) => n.endsWith('.safetensors')).length === 3, names.join(' '));
  await drop(page, names);
  await waitStatus(page, /^Opened the model: 2 layers × 4 heads/);
  await idle(page);
  await page.waitForFunction(() => {
    const d = JSON.parse(Module.ccall('web_describe', 'string', [], []));
    return !d.model_busy && d.model_passes >= 1;
  }, { timeout: 30000 });
  const d = await describe(page);
  assert(heads(d) === 8, `${heads(d)} head pictures, not 8`);
  item(d, 'legend', 'model_kv_groups');
  await fromWorker(page); // the worker opened the shards too
  assert(errors.length === 0, errors.join(' | '));
  await page.close();
});

await browser.close();
server.close();
fs.rmSync(downloads, { recursive: true, force: true });
fs.rmSync(checkpoint, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
