// The static edition's service worker (`kraftstokk export-web` fills in the bundle's
// version and files): after the first visit every file of the game comes from this
// browser's cache, so the game starts and plays with the network off.
//
// An update of the folder on the host changes this file (its version and file list): the
// browser installs the new version in the background while the old one plays, and the
// next visit starts the new one. The folders whose names carry their content's digest or
// version (LONG_LIVED) are taken from the HTTP cache when it has them: their content
// never changes under one name. The rest (the page itself, the manifest, the icons) is
// asked of the host again.

const VERSION = "__VERSION__";
const FILES = ["__FILES__"];
const LONG_LIVED = ["__LONG_LIVED__"];
const PREFIX = "kraftstokk-";
const CACHE = `${PREFIX}${VERSION}`;

// The runtime's files the export ships gzip'd (`<name>.gz`) are kept unpacked under their
// own names, whence a later visit's engine loads them as from any folder (runtime.js). A
// host that sends them gzip-encoded has had the browser unpack them already (gzip's first
// bytes, 1f 8b, tell which).
const TYPES = { wasm: "application/wasm", mjs: "text/javascript" };
async function unpacked(response, name) {
  const bytes = new Uint8Array(await response.arrayBuffer());
  const packed = bytes[0] === 0x1f && bytes[1] === 0x8b;
  const body = packed ? new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip")) : bytes;
  const type = TYPES[name.slice(0, -3).split(".").pop()] || "application/octet-stream";
  return new Response(body, { headers: { "Content-Type": type } });
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await Promise.all(
        FILES.map(async (name) => {
          const lasting = LONG_LIVED.some((folder) => name.startsWith(folder));
          const response = await fetch(name, { cache: lasting ? "force-cache" : "no-cache" });
          if (!response.ok) throw new Error(`${name}: ${response.status}`);
          if (name.endsWith(".gz")) await cache.put(name.slice(0, -3), await unpacked(response, name));
          else await cache.put(name, response);
        }),
      );
      await self.skipWaiting(); // the next visit plays the new version
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      // The version before this one stays until the next update: a page still running it
      // may yet ask for one of its files.
      const ours = (await caches.keys()).filter((name) => name.startsWith(PREFIX) && name !== CACHE);
      for (const name of ours.slice(0, -1)) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

// Which version this is (asked by the tests, and by anyone curious in the console).
self.addEventListener("message", (event) => {
  if (event.data === "version") event.ports[0]?.postMessage(VERSION);
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  // A visit of the page (with or without ?seed=..., as ./ or ./index.html) is the page.
  const page = new URL("./", self.registration.scope);
  const url = new URL(request.url);
  const visit = request.mode === "navigate" && [page.pathname, `${page.pathname}index.html`].includes(url.pathname);
  event.respondWith(
    (async () => {
      const key = visit ? page.href : request;
      const found = (await caches.match(key, { cacheName: CACHE, ignoreSearch: visit }))
        || (await caches.match(key, { ignoreSearch: visit }));
      if (found) return found;
      // A packed file missing from the cache (which the install fills): from the host.
      const packed = FILES.includes(`${url.pathname.slice(page.pathname.length)}.gz`);
      const fetched = await fetch(packed ? `${url.href}.gz` : request);
      return packed && fetched.ok ? unpacked(fetched, `${url.pathname}.gz`) : fetched;
    })(),
  );
});
