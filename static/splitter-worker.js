// Starts the page's splitting worker (the chunkscope-worker binary that Trunk
// builds from wasm/): its wasm-bindgen glue and its wasm, both from the page's
// own origin. The worker says { ready } once it takes requests; if it cannot
// start, it says why in the contract's error message.
importScripts('./chunkscope-worker.js');
wasm_bindgen({ module_or_path: './chunkscope-worker_bg.wasm' }).catch((err) =>
  self.postMessage({ id: null, error: { message: `the splitter could not start: ${err}`, field: null } }),
);
