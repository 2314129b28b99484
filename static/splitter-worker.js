// Starts one of the page's splitting workers (binaries Trunk builds from
// wasm/): its wasm-bindgen glue and its wasm, both from the page's own
// origin. `splitter-worker.js` is the first worker (chunkscope-worker);
// `splitter-worker.js?text-splitter` the same worker built with the
// text-splitter strategies (chunkscope-text-splitter-worker), which the page
// starts only when a text-splitter strategy is asked for. The worker says
// { ready } once it takes requests; if it cannot start, it says why in the
// contract's error message.
const bin = self.location.search === '?text-splitter' ? 'chunkscope-text-splitter-worker' : 'chunkscope-worker';
importScripts(`./${bin}.js`);
wasm_bindgen({ module_or_path: `./${bin}_bg.wasm` }).catch((err) =>
  self.postMessage({ id: null, error: { message: `the splitter could not start: ${err}`, field: null } }),
);
