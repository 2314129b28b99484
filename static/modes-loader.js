// Starts the modes module (practice, the bug gallery, code and evaluate mode),
// which the page adds the first time one of them is chosen. Trunk writes
// chunkscope-modes.js and its wasm next to the page (index.html); the module's `main`
// mounts the modes into the page's #modes-host. If it cannot start, the host
// is told, and the page says so.
import init from './chunkscope-modes.js';

init().catch((err) => {
  console.error(`the modes could not start: ${err}`);
  document.getElementById('modes-host')?.dispatchEvent(new Event('chunkscope-failed'));
});
