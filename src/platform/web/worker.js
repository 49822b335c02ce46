// The page's Web Worker (worker.c), appended to attnlab-worker.js: it opens
// a checkpoint's files as the page hands them over (File objects, mounted
// read-only, so nothing is copied but what the model keeps), runs each job
// the page posts, in order, and sends back what the job wrote, piece by
// piece, each piece's buffer transferred, not copied again.
//
//   {kind: 'open', model, files}         -> {kind: 'opened', model, ok, error}
//   {kind: 'job', job, what, ids, arg}   -> {kind: 'stage', job, stage} after each of a pass's
//                                           layers, then {kind: 'done', job, what, ok, held,
//                                           fault, pieces}
//       what: Remote_Kind (0 a pass, 1 a cache's text, 2 a step); pieces: [{field, index,
//       data: Float32Array}]; fault: the Net_Fault's kind, layer, head, row, col, value
var pending = [];

function openModel(msg) {
  var dir = '/model-' + msg.model, ok = 0;
  FS.mkdir(dir);
  FS.mount(WORKERFS, { files: msg.files }, dir);
  try {
    ok = ccall('worker_open', 'number', ['string'], [dir]);
  } finally {
    FS.unmount(dir);
    FS.rmdir(dir);
  }
  postMessage({ kind: 'opened', model: msg.model, ok: ok,
                error: ok ? '' : UTF8ToString(_worker_error()) });
}

function runJob(msg) {
  var ids = msg.ids, at = _worker_ids(ids.length), ok = 0, pieces = [], transfer = [];
  if (at) {
    HEAP32.set(ids, at >>> 2);
    ok = _worker_begin(msg.what, ids.length, msg.arg);
    while (ok && !_worker_next()) // a pass says how far it is, a layer at a time
      postMessage({ kind: 'stage', job: msg.job, stage: _worker_stage() });
  }
  for (var f = 0; ok && f < (msg.what === 0 ? 6 : 4); f++) {
    for (var i = 0, count = _worker_chunks(f); ok && i < count; i++) {
      var p = _worker_field(f, i) >>> 2, n = _worker_floats();
      if (!p) { ok = 0; break; } // out of memory for the piece
      var data = HEAPF32.slice(p, p + n);
      pieces.push({ field: f, index: i, data: data });
      transfer.push(data.buffer);
    }
  }
  var fault = [0, 1, 2, 3, 4, 5].map(function (k) { return _worker_fault(k); });
  postMessage({ kind: 'done', job: msg.job, what: msg.what, ok: ok, held: _worker_held(),
                fault: fault, pieces: ok ? pieces : [] }, ok ? transfer : []);
}

function handle(msg) {
  if (msg.kind === 'open') openModel(msg);
  else if (msg.kind === 'job') runJob(msg);
}

self.onmessage = function (e) {
  if (runtimeInitialized) handle(e.data); else pending.push(e.data);
};
Module['onRuntimeInitialized'] = function () {
  pending.forEach(handle);
  pending = [];
};
