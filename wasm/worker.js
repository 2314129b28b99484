// A module worker that answers chunkscope's messages off the page's main
// thread (the contract is in src/message.rs; the crate docs, "In a worker",
// show a caller). Put it beside the module wasm-bindgen writes for this crate
// (`wasm-bindgen --target web`: chunkscope_wasm.js, chunkscope_wasm_bg.wasm)
// and start it with
//
//   new Worker(new URL('./worker.js', import.meta.url), { type: 'module' })
import init, { answer, readyMessage } from './chunkscope_wasm.js';

const loading = init();

// Set at once, so that no request is lost while the module loads: each waits
// for it, and they are answered in the order they came.
self.onmessage = async (event) => {
  await loading;
  answer(event.data);
};

loading.then(
  () => self.postMessage(readyMessage()),
  (err) => self.postMessage({ id: null, error: { message: `chunkscope could not start: ${err}`, field: null } }),
);
