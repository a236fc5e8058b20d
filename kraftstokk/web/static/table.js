// "A table": where the page's games are played. The page (app.js) talks to it through this
// one small interface and never learns which of the two transports is behind it:
//
// - HTTP to `kraftstokk serve`: the engine on the server (the served edition);
// - messages to a module Web Worker that runs the same engine on Pyodide in this page (the
//   static edition written by `kraftstokk export-web`; the worker's side is worker.js).
//
// Either way an answer about a game is the person's seat's view, its moves, the log lines
// told to that seat and an opaque save (sealed), so the page holds nothing more than what
// the seat may know. A refusal is thrown as a TableError: its HTTP-like status, the
// English reason, the sentence in every language when a person may meet it (said), and
// the key of the page's own words for it (words) otherwise.
//
//   setup()                 games, bots, variants, the deck's cards, the page's words
//   rules(lang)             each game's chapter of the rules booklet, as blocks
//   newGame(request)        {game, opponents, bots, variants, seed?} -> a snapshot
//   resume(save, then?)     a game again from its save (and a move in it) -> a snapshot
//   move(id, move)          {turn, log_after, move | claim} -> a snapshot; its save may
//                           come after it: then `snapshot.saved` resolves with the save
//                           (set on the snapshot too) once it is sealed
//   forget(id)              the game is not played on here
//   replayLog(save)         a finished game's save as the replay log `kraftstokk play --load` reads
//   card(name)              the URL of a card face ("back" for the back)
//   ready()                 resolves when the table can play (the page loads the card
//                           faces then, not while the engine's runtime downloads)
//
// The static edition's <html> says which table it is (data-table="worker") and where its
// card faces and its Python runtime lie; the served page says nothing, and talks HTTP.

export class TableError extends Error {
  constructor({ status = 0, error = "", said = null, words = null }) {
    super(error);
    this.status = status;
    this.said = said;
    this.words = words;
  }
}

export function connect(root = document.documentElement) {
  const settings = root.dataset;
  return settings.table === "worker" ? workerTable(settings) : httpTable();
}

// ---------------------------------------------------------------- HTTP to `kraftstokk serve`

function httpTable() {
  // Paths are relative to the page, so the app works wherever it is mounted.
  async function api(method, path, body) {
    const options = { method, headers: {} };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(path, options);
    } catch (error) {
      throw new TableError({ error: String(error?.message || error), words: "ui.network_error" });
    }
    if (response.status === 204) return null;
    let data = null;
    try {
      data = await response.json();
    } catch {
      data = { error: `${response.status} ${response.statusText}` };
    }
    if (!response.ok) {
      throw new TableError({ status: response.status, error: data?.error || "", said: data?.said, words: "ui.server_refused" });
    }
    return data;
  }

  return {
    setup: () => api("GET", "api/setup"),
    rules: (lang) => api("GET", `api/rules/${encodeURIComponent(lang)}`),
    newGame: (request) => api("POST", "api/games", request),
    resume: (save, then) => api("POST", "api/games/resume", then ? { save, then } : { save }),
    move: (id, move) => api("POST", `api/games/${encodeURIComponent(id)}/moves`, move),
    forget: (id) => api("DELETE", `api/games/${encodeURIComponent(id)}`),
    replayLog: (save) => api("POST", "api/replay", { save }),
    card: (name) => `cards/${encodeURIComponent(name)}.webp`,
    ready: () => Promise.resolve(),
  };
}

// ---------------------------------------------------------------- a Web Worker in this page

function workerTable(settings) {
  // The bundle's own files lie beside this module; the card faces and the runtime in
  // folders of their own (named by version, so a host may cache them for long).
  const here = (name) => new URL(name, import.meta.url).href;
  const page = (path) => new URL(path, document.baseURI).href;
  const cards = page(settings.cards);
  let worker = null;
  let failed = null; // the engine could not start: every call says so
  let started;
  const running = new Promise((resolve, reject) => (started = { resolve, reject }));
  running.catch(() => {}); // a page that never asks is not told
  let next = 1;
  const waiting = new Map();
  const sealing = new Map(); // a move's answer whose save follows: id -> the answer's waiter

  function fail(reason) {
    failed = new TableError({ error: reason, words: "ui.engine_failed" });
    started.reject(failed);
    for (const { reject } of [...waiting.values(), ...sealing.values()]) reject(failed);
    waiting.clear();
    sealing.clear();
  }

  // A move's save, sealed after its answer was sent (worker.js): set on the answer.
  function sealed({ id, save, error }) {
    const answer = sealing.get(id);
    if (!answer) return;
    sealing.delete(id);
    if (save) {
      answer.body.save = save;
      answer.resolve(save);
    } else {
      answer.reject(new TableError({ status: 500, error: error || "the save could not be sealed", words: "ui.engine_refused" }));
    }
  }

  function start() {
    if (worker || failed) return;
    try {
      worker = new Worker(here("worker.js"), { type: "module", name: "kraftstokk-engine" });
    } catch (error) {
      fail(String(error?.message || error));
      return;
    }
    worker.onmessage = (event) => {
      const { id, status, body } = event.data;
      if (status === undefined) return sealed(event.data);
      if (id === 0) {
        if (status >= 400) return fail(body?.error || "the engine could not start");
        started.resolve();
        return keepOffline();
      }
      const call = waiting.get(id);
      if (!call) return;
      waiting.delete(id);
      if (status >= 400) {
        call.reject(new TableError({ status, error: body?.error || "", said: body?.said, words: "ui.engine_refused" }));
      } else {
        if (event.data.sealing) {
          body.saved = new Promise((resolve, reject) => sealing.set(id, { body, resolve, reject }));
        }
        call.resolve(status === 204 ? null : body);
      }
    };
    worker.onerror = (event) => {
      event.preventDefault();
      fail(event.message || "the engine's worker failed");
    };
    // Served by the service worker, the worker's runtime comes from its cache, unpacked.
    const kept = Boolean(navigator.serviceWorker?.controller);
    worker.postMessage({ id: 0, op: "start", body: { runtime: page(settings.runtime), engine: here(settings.engine), kept } });
  }

  // Offline play: the folder's service worker keeps every file of the game. It is asked
  // for once the engine runs, so that the runtime it stores comes from the HTTP cache the
  // engine's start has just filled (not a second download on a slow line). A later visit
  // asks the host for sw.js then too (the browser's own check after a visit may wait
  // while the page is busy): an update published meanwhile installs during this visit
  // and plays on the next.
  function keepOffline() {
    navigator.serviceWorker
      ?.register(page("sw.js"))
      .then((registration) => registration.active && registration.update())
      .catch(() => {
        // no service worker (a private window, an old browser), or offline: the game
        // plays with what it has
      });
  }

  function call(op, body) {
    start();
    if (failed) return Promise.reject(failed);
    const id = next++;
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      worker.postMessage({ id, op, body });
    });
  }

  async function file(name) {
    let response;
    try {
      response = await fetch(here(name));
    } catch (error) {
      throw new TableError({ error: `${name}: ${error?.message || error}`, words: "ui.network_error" });
    }
    if (!response.ok) throw new TableError({ status: response.status, error: `${name}: ${response.status}`, words: "ui.network_error" });
    return response.json();
  }

  return {
    // The page shows the start page from the bundle's files while the engine starts.
    setup: () => {
      start();
      return file("setup.json");
    },
    rules: (lang) => file(`rules-${encodeURIComponent(lang)}.json`),
    newGame: (request) => call("new", request),
    resume: (save, then) => call("resume", then ? { save, then } : { save }),
    move: (id, move) => call("move", { id, ...move }),
    forget: (id) => call("forget", { id }),
    replayLog: (save) => call("replay", { save }),
    card: (name) => `${cards}${encodeURIComponent(name)}.webp`,
    ready: () => {
      start();
      return running;
    },
  };
}
