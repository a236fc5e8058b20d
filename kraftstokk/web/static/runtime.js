// Pyodide's runtime from the export's folder (`pyodide-<version>-<digest>/`), for the
// engine's worker (worker.js) and the benchmark's.
//
// The export ships the runtime's two big files gzip'd (PACKED: 10.8 MB as they are, 3.8 MB
// packed), so that a host sending files as they lie on disk (Python's http.server, many a
// web space) sends a first visit about 6 MB rather than 13, as a host that compresses
// would. On a visit the service worker does not serve yet (the first), they are unpacked
// here by the browser's own DecompressionStream as they arrive. A host that announces a
// .gz file as gzip-encoded (Content-Encoding: gzip) has had the browser unpack it
// already: the first two bytes tell (gzip's are 1f 8b), and such a file is taken as it
// comes.
//
// On a later visit the service worker serves them unpacked under their own names from its
// cache (sw.js keeps them so), and Pyodide loads them as it would from any folder: the
// wasm module then comes as a Response of Cache Storage, which Chromium keeps compiled
// from one visit to the next (its code cache: a third visit compiles a tenth of what the
// second does), as it cannot for a Response made in the page.

export const PACKED = ["pyodide.asm.wasm", "pyodide.asm.mjs"];
const TYPES = { wasm: "application/wasm", mjs: "text/javascript" };

// The chunks `head`, then the rest of `reader`'s; a fault reading them is told to `failed`
// too (Pyodide's start only logs a wasm module that cannot be read, and waits).
function streamOf(reader, head, failed) {
  return new ReadableStream({
    start(controller) {
      for (const chunk of head) controller.enqueue(chunk);
    },
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        failed(error);
        controller.error(error);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

// A stream's bytes, unpacked when they are gzip's.
async function unpacked(stream, failed) {
  const reader = stream.getReader();
  const head = [];
  let length = 0;
  while (length < 2) {
    const { done, value } = await reader.read();
    if (done) break;
    head.push(value);
    length += value.length;
  }
  const first = head[0] || new Uint8Array(0);
  const gzip = first[0] === 0x1f && (first.length > 1 ? first[1] : head[1]?.[0]) === 0x8b;
  const whole = streamOf(reader, head, failed);
  return gzip ? streamOf(whole.pipeThrough(new DecompressionStream("gzip")).getReader(), [], failed) : whole;
}

// A packed runtime file by its own name: its .gz from the host, unpacked as it comes.
async function runtimeFile(url, failed) {
  const response = await fetch(`${url}.gz`);
  if (!response.ok) throw new Error(`${url}.gz: ${response.status} ${response.statusText}`);
  const type = TYPES[url.slice(url.lastIndexOf(".") + 1)];
  const body = await unpacked(response.body, (error) => failed(new Error(`${url}.gz: ${error?.message || error}`)));
  return new Response(body, { headers: { "Content-Type": type } });
}

// Pyodide started from `runtime` (the folder's URL, ending in /) with loadPyodide's
// `options`. `kept`: the service worker serves this page (its files unpacked); `steps.
// fetched` is set when Pyodide's loader is here (ms since the worker began). Otherwise
// Pyodide is given the module's script unpacked, and its one request for the wasm module
// (it fetches that by its name in the folder) is answered here with the unpacked file.
export async function loadRuntime(runtime, { kept = false, steps = {}, ...options } = {}) {
  const [wasm, script] = PACKED.map((name) => new URL(name, runtime).href);
  let failed;
  const fault = new Promise((_, reject) => (failed = reject));
  const module = kept ? null : runtimeFile(wasm, failed);
  const factory = kept
    ? null
    : runtimeFile(script, failed).then(async (response) => {
        const source = URL.createObjectURL(new Blob([await response.text()], { type: TYPES.mjs }));
        try {
          return (await import(source)).default;
        } finally {
          URL.revokeObjectURL(source);
        }
      });
  for (const promise of [module, factory, fault]) promise?.catch(() => {}); // said when awaited
  const { loadPyodide } = await import(`${runtime}pyodide.mjs`);
  steps.fetched = performance.now();
  if (kept) return loadPyodide({ ...options, indexURL: runtime });
  // Both begun before Pyodide asks (a missing file said here: Pyodide's start would wait).
  const [createPyodideModule] = await Promise.race([Promise.all([factory, module]), fault]);
  const plain = globalThis.fetch;
  globalThis.fetch = (input, init) => (String(input?.url ?? input) === wasm ? module : plain(input, init));
  try {
    return await Promise.race([loadPyodide({ ...options, indexURL: runtime, createPyodideModule }), fault]);
  } finally {
    globalThis.fetch = plain;
  }
}
