// What the C side of the page asks of the browser (web_app.c).
mergeInto(LibraryManager.library, {
  // A file the user asked for (Ctrl+S, Ctrl+E, F12/Ctrl+P) becomes a download.
  web_download: function (pathPtr) {
    var path = UTF8ToString(pathPtr);
    var data = FS.readFile(path);
    var name = path.split('/').pop();
    var type = /\.png$/.test(name) ? 'image/png' : 'application/json';
    var url = URL.createObjectURL(new Blob([data], { type: type }));
    var a = document.createElement('a');
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 60000);
  },
  // The WebGL context will keep its drawing buffer from frame to frame, so a
  // frame paints only what changed, straight into the page's canvas. Called
  // before SDL creates the context (through EGL).
  web_keep_drawing_buffer__deps: ['$EGL'],
  web_keep_drawing_buffer: function () {
    EGL.contextAttributes.preserveDrawingBuffer = true;
  },
  // Open model… in the Model view: the page's picker, for a checkpoint's files.
  web_pick_model: function () {
    if (Module.pickModel) Module.pickModel();
  },
  // A Model view job for the page's Web Worker (index.html): 0 when there is
  // none, or it has not opened the model the page has.
  web_remote_post: function (kind, job, ids, n, arg) {
    if (!Module.remotePost) return 0;
    return Module.remotePost(kind, job, HEAP32.slice(ids >> 2, (ids >> 2) + n), arg) ? 1 : 0;
  },
  // The app is up: the page may show itself.
  web_started: function () {
    if (Module.onStarted) Module.onStarted();
  },
});
