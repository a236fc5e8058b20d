// The static edition's engine: a module Web Worker running the game packages' Python on
// Pyodide (the runtime copied into the folder by `kraftstokk export-web`, no CDN). The
// page's table interface (table.js) sends {id, op, body}; each answer is {id, status,
// body}, the body what `kraftstokk serve` would answer (kraftstokk/web/inpage.py makes it).
//
// The page gets the person's seat's view and nothing more: the save's content (the seed
// and every action of the game) leaves this worker only sealed, with AES-GCM under a key
// made in this browser and kept in its IndexedDB, which the page never reads. That keeps
// the page's part as blind as it is with a server; it is no secret from the player, whose
// own device runs the whole game (the developer tools show the worker too).
//
// A move's answer is sent before its save is sealed, and the save follows in a message of
// its own, {id, save} ({id, save: null, error} if it could not be sealed): the page draws
// the move meanwhile (the seal hops to another thread of the browser: up to a few ms on a
// busy device, a frame's budget) and keeps the save when it comes. The next request waits
// for the seal, so each save reaches the page before the answer after it.

import { loadRuntime } from "./runtime.js";

const KEY_STORE = { database: "kraftstokk", store: "keys", name: "save-seal" };
let engine = null; // the Python PageTable
let sealKey = null;
let ready = null; // resolves when the engine runs

const toBase64 = (bytes) => btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join("")).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const fromBase64 = (text) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));

async function fetched(url, kind) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
  return kind === "text" ? response.text() : response.arrayBuffer();
}

// ------------------------------------------------------------------ the save's seal

function openKeys() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(KEY_STORE.database, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(KEY_STORE.store);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function keyTransaction(db, mode, work) {
  return new Promise((resolve, reject) => {
    const transaction = db.transaction(KEY_STORE.store, mode);
    const request = work(transaction.objectStore(KEY_STORE.store));
    transaction.oncomplete = () => resolve(request.result);
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error);
  });
}

// This browser's key, made once (two tabs making it at once keep the one stored first).
// Without IndexedDB (some private modes) the key lasts as long as this tab.
async function loadKey() {
  try {
    const db = await openKeys();
    const kept = await keyTransaction(db, "readonly", (store) => store.get(KEY_STORE.name));
    if (kept) return kept;
    const made = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
    try {
      await keyTransaction(db, "readwrite", (store) => store.add(made, KEY_STORE.name));
    } catch {
      // another tab stored its key first: use that one
    }
    return (await keyTransaction(db, "readonly", (store) => store.get(KEY_STORE.name))) || made;
  } catch {
    return crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
  }
}

async function seal(text) {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, sealKey, new TextEncoder().encode(text)));
  const joined = new Uint8Array(iv.length + sealed.length);
  joined.set(iv);
  joined.set(sealed, iv.length);
  return toBase64(joined);
}

// The content of a save this browser sealed; null for anything else (changed, another
// browser's, not a sealed save at all).
async function unseal(text) {
  if (typeof text !== "string" || text.length > 2_000_000) return null;
  try {
    const joined = fromBase64(text);
    const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: joined.slice(0, 12) }, sealKey, joined.slice(12));
    return new TextDecoder().decode(plain);
  } catch {
    return null;
  }
}

// A save as the page holds it (sealed) -> as the engine reads it (its content), and back.
async function opened(save) {
  if (!save || save.format !== "kraftstokk-web-save") return save; // a replay log, or nothing
  const { sealed, ...shown } = save;
  const content = await unseal(sealed);
  return content === null ? shown : { ...shown, content };
}

async function sealedSave({ content, ...shown }) {
  return { ...shown, sealed: await seal(content) };
}

// ------------------------------------------------------------------ the engine

// Starts the engine; says how long each step took (ms since the worker began), for the
// benchmark (make bench) and for anyone asking why a phone is slow to start.
async function start({ runtime, engine: archive, kept }) {
  if (!globalThis.isSecureContext || !crypto.subtle) {
    // The save's seal (Web Crypto) and the offline copy (a service worker) exist only there.
    throw new Error("the page must be opened at a secure address (https, or 127.0.0.1 or localhost on this computer)");
  }
  // Python's runtime is most of the start: its loader runs as soon as it is here, and the
  // engine's files come meanwhile (waiting for them first cost the runtime's downloads a
  // tenth of a second).
  const waiting = [fetched(archive, "bytes"), fetched(new URL("deck.json", archive).href, "text"), loadKey()];
  for (const promise of waiting) promise.catch(() => {}); // said when awaited below
  const steps = {};
  const pyodide = await loadRuntime(runtime, { kept, steps, env: { KRAFTSTOKK_PURE_PYTHON: "1" } });
  steps.python = performance.now();
  const [code, deck, key] = await Promise.all(waiting);
  sealKey = key;
  pyodide.unpackArchive(code, "zip", { extractDir: "/engine" });
  pyodide.runPython("import sys; sys.path.insert(0, '/engine')");
  const inpage = pyodide.pyimport("kraftstokk.web.inpage");
  engine = inpage.open_table(deck);
  steps.engine = performance.now();
  return steps;
}

// The time now on a clock the page shares (ms since the epoch, sub-millisecond).
const now = () => performance.timeOrigin + performance.now();

// Answers one request: each answer says when the request came and when its answer left
// (`took`), so the benchmark can tell this page's time from the browser's scheduling of
// the messages.
async function answer({ id, op, body }, came) {
  const send = (reply) => self.postMessage({ ...reply, id, took: [came, now()] });
  try {
    await ready;
  } catch (error) {
    return send({ status: 503, body: { error: String(error?.message || error) } });
  }
  let status;
  let reply;
  try {
    let request = body || {};
    if (op === "resume" || op === "replay") request = { ...request, save: await opened(request.save) };
    ({ status, body: reply } = JSON.parse(engine.call(op, JSON.stringify(request))));
  } catch (error) {
    // A fault of the engine: said plainly, never a hang.
    return send({ status: 500, body: { error: `internal error: ${String(error?.message || error).split("\n").slice(-2).join(" ")}` } });
  }
  const save = status < 400 ? reply?.save : null;
  if (!save?.content) return send({ status, body: reply });
  if (op !== "move") return send({ status, body: { ...reply, save: await sealedSave(save) } });
  const shown = { ...save };
  delete shown.content;
  send({ status, body: { ...reply, save: shown }, sealing: true });
  try {
    self.postMessage({ id, save: await sealedSave(save) });
  } catch (error) {
    self.postMessage({ id, save: null, error: `the save could not be sealed: ${String(error?.message || error)}` });
  }
}

// One request at a time, in the order they came (the engine is one Python).
let queue = Promise.resolve();
self.onmessage = (event) => {
  const message = event.data || {};
  if (message.op === "start") {
    ready = ready || start(message.body);
    ready.then(
      (steps) => self.postMessage({ id: 0, status: 200, body: { started: steps } }),
      (error) => self.postMessage({ id: 0, status: 503, body: { error: String(error?.message || error) } }),
    );
    return;
  }
  const came = now();
  queue = queue.then(() => answer(message, came)).catch((error) => {
    self.postMessage({ id: message.id, status: 500, body: { error: `internal error: ${String(error?.message || error)}` }, took: [came, now()] });
  });
};
