// Kraft-stokken in the browser. Plain JavaScript, no build step, nothing from the network
// but where the page came from. A table holds the game (table.js: `kraftstokk serve`, or a
// Web Worker running the same engine in this page); this page shows one seat's view, sends
// moves, and keeps the table's sealed save of each game in localStorage (one per game:
// kraftstokk.save.<game>), unless the person chose not to keep it. This tab's game is
// remembered in sessionStorage, so a reload continues it and another tab keeps its own.
// The page names no game: the server's setup lists the games, and each game's view
// (games/<game>/view.py) describes its table in the building blocks drawn below; every
// word comes from the locale files (locales/<code>/web.toml and words.toml), a game's own
// under games.<game>.

import { connect } from "./table.js";

const SAVE_PREFIX = "kraftstokk.save.";
const OLD_SAVE_KEY = "kraftstokk.save"; // the first edition's one save: a plain replay log
const TAB_KEY = "kraftstokk.tab"; // sessionStorage: {game, id} of this tab's game, its token
const LANG_KEY = "kraftstokk.lang";
const SETUP_KEY = "kraftstokk.setup";
const TABLE_KEY = "kraftstokk.table"; // the table's own choices: {speed, letStand}
// A computer's move stays on screen this long at each pace (ms); "instant" shows the end.
const STEP_MS = { instant: 0, normal: 700, slow: 1500 };
const REDUCED_MOTION = matchMedia("(prefers-reduced-motion: reduce)");
const SUIT_SYMBOL = { spar: "♠", "kløver": "♣", hjerter: "♥", ruter: "♦" };
const RANK_LETTER = { 1: "A", 11: "J", 12: "Q", 13: "K" };
// Characters of a move's label past which it takes two columns of a bar of many moves.
const LONG_LABEL = 36;
// The keys of the listed moves, in order: every move has one, however many there are.
const MOVE_KEYS = "1234567890abcdefghijklmnopqrstuvwxyz";
const WIDE = matchMedia("(min-width: 900px)"); // the desktop table (app.css's breakpoint)

const table = connect(); // where the games are played (table.js: the server, or this page)
const $ = (id) => document.getElementById(id);
// A figure's digit groups stay on one line: "3 675 GWh" may break before its unit, never
// inside the number.
const keepTogether = (text) => String(text).replace(/(\d) (?=\d{3}(?!\d))/g, "$1\u00a0");

const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = keepTogether(value);
    else if (key === "html") node.innerHTML = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(keepTogether(child)));
  }
  return node;
};

// A part of the table is drawn again only when what it shows changed: ``changed(part,
// ...inputs)`` says so (and remembers the inputs). Each answer used to rebuild every part,
// and the layout of all of it was most of the page's time per move.
const drawn = new Map();
function changed(part, ...inputs) {
  const key = JSON.stringify([app.lang, app.game?.id, app.game?.seat, app.game?.view?.cards, ...inputs]);
  if (drawn.get(part) === key) return false;
  drawn.set(part, key);
  return true;
}

// A text set only when it differs (the same text written again is a change to lay out).
function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

// The body's data attributes (app.css styles by some): written only when they differ.
function setData(key, value) {
  const text = String(value);
  if (document.body.dataset[key] !== text) document.body.dataset[key] = text;
}

// ``box`` holds ``nodes`` in this order afterwards: only what differs is removed, moved or
// added, so the cards that stay are not drawn afresh.
function place(box, nodes) {
  const keep = new Set(nodes);
  for (const child of [...box.childNodes]) if (!keep.has(child)) child.remove();
  nodes.forEach((node, i) => {
    const there = box.childNodes[i] || null;
    if (there !== node) box.insertBefore(node, there);
  });
}

const app = {
  setup: null, // /api/setup
  cards: new Map(), // card id -> card
  plantsByName: new Map(), // lower-case name -> card
  lang: stored(LANG_KEY), // checked against the server's languages when the setup arrives
  tab: tabState(), // this tab's token and game
  saving: false, // the current game is kept in localStorage (and this tab owns its save)
  game: null, // the last snapshot from the server
  log: [],
  logAfter: 0,
  relog: false, // the log is told in another language than the page's: ask for it again
  selected: null, // a hand card picked first for a move of two picks (an Idiot swap)
  picked: [], // cards tapped so far for a move that lays them together (a group)
  claiming: false, // the claim form is open (true, or the card it lays)
  busy: false,
  skip: null, // while the computer's moves are shown: call it to show the end at once
  table: tableChoices(),
  rules: {},
};

// ---------------------------------------------------------------- words

function t(path, fill = {}) {
  const node = lookup(path);
  if (typeof node !== "string") return path;
  return node.replace(/\{(\w+)\}/g, (_, key) => (key in fill ? String(fill[key]) : `{${key}}`));
}

// A word of the game being played (games.<game>.<key>), else the page's: a move's under
// moves.<kind>, any other under ui.<key>.
function gt(key, fill = {}) {
  const game = app.game?.game;
  if (game && typeof lookup(`games.${game}.${key}`) === "string") return t(`games.${game}.${key}`, fill);
  return t(key.startsWith("moves.") ? key : `ui.${key}`, fill);
}

function lookup(path) {
  let node = app.setup?.texts[app.lang];
  for (const part of path.split(".")) node = node?.[part];
  return node;
}

// "Idiot, Kraftidioten and Strømkrig": the games' titles, joined as the language joins them.
function gameTitles() {
  const titles = app.setup.games.map((g) => t(`games.${g.name}.title`));
  if (titles.length < 2) return titles.join("");
  return `${titles.slice(0, -1).join(", ")}${t("ui.and")}${titles[titles.length - 1]}`;
}

function seatName(seat) {
  const n = seat + 1;
  return seat === app.game?.seat ? t("ui.you_label", { n }) : t("ui.player", { n });
}

function rankOf(card) {
  return RANK_LETTER[card.value] ?? String(card.value);
}

function shortCard(id, chosen = null) {
  const card = app.cards.get(id);
  if (!card) return id;
  if (card.joker) return t("ui.joker_label");
  if (app.game?.view?.cards === "rank") return `${SUIT_SYMBOL[card.suit]}${rankOf(card)}`;
  const category = chosen || app.game?.view?.category || "gwh";
  return `${card.name} ${card.figures[category]}`;
}

function cardLabel(id) {
  const card = app.cards.get(id);
  if (!card) return id;
  if (card.joker) return t("ui.joker_label");
  const value = app.setup.texts[app.lang].values[String(card.value)] ?? String(card.value);
  return t("ui.card_label", {
    name: card.name,
    suit: app.setup.texts[app.lang].suits[card.suit] ?? card.suit,
    value,
    mw: card.figures.mw, gwh: card.figures.gwh, head_m: card.figures.head_m,
    nr_mw: card.nr.mw, nr_gwh: card.nr.gwh, nr_head_m: card.nr.head_m,
  });
}

// Every card face is fetched once the deck is known and the table can play (the static
// edition's engine has started: its runtime downloads first), so the table shows no blanks.
function preloadCards() {
  for (const name of ["back", ...app.setup.cards.map((card) => card.id)]) {
    const image = new Image();
    image.src = table.card(name);
  }
}

function applyTexts() {
  document.documentElement.lang = app.lang;
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
  $("tagline").textContent = t("ui.tagline", { games: gameTitles() });
  const select = $("lang");
  select.setAttribute("aria-label", t("ui.language"));
  select.replaceChildren(
    ...app.setup.languages.map((code) => {
      const language = app.setup.texts[code].language;
      return el("option", {
        value: code,
        lang: code,
        selected: code === app.lang,
        text: language.short,
        title: language.name,
      });
    }),
  );
}

// The chosen game's quick example and questions, when its words have them.
function renderHelp(game) {
  const help = lookup(`games.${game}.help`);
  $("game-help").hidden = !help;
  if (!help) return;
  $("quick-example").replaceChildren(...(help.example || []).map((line) => el("li", { text: line })));
  $("faq").replaceChildren(
    ...(help.faq || []).map((item) => el("details", {}, el("summary", { text: item.q }), el("p", { text: item.a }))),
  );
}

// ---------------------------------------------------------------- the table

// What a refusal says in the page's language: a refusal a person may meet comes in every
// language (said); any other is told in the page's words, with the table's English reason.
function refusalText(error) {
  const said = error?.said?.[app.lang];
  if (said) return said;
  if (!error?.words) return String(error?.message || error);
  const words = t(error.words, { status: error.status });
  return error.message ? `${words}: ${error.message}` : words;
}

function showError(message) {
  const box = $("error");
  box.textContent = `${t("ui.error_prefix")}: ${message}`;
  box.hidden = false;
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => (box.hidden = true), 6000);
}

// ---------------------------------------------------------------- the save

function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // storage switched off: the page works, nothing is kept
  }
}

function store(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}

function tabState() {
  let state = null;
  try {
    state = JSON.parse(sessionStorage.getItem(TAB_KEY) || "null");
  } catch {
    state = null;
  }
  if (!state || typeof state.token !== "string") {
    const bytes = crypto.getRandomValues(new Uint8Array(12));
    state = { token: Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(""), game: null, id: null };
  }
  return state;
}

function rememberTab(save) {
  app.tab.game = save ? save.game : null;
  app.tab.id = save ? save.id : null;
  try {
    sessionStorage.setItem(TAB_KEY, JSON.stringify(app.tab));
  } catch {
    // no session storage: a reload starts at the start page
  }
}

function readSave(game) {
  const raw = stored(SAVE_PREFIX + game);
  if (!raw) return null;
  try {
    const save = JSON.parse(raw);
    return save && save.format === "kraftstokk-web-save" && save.game === game ? save : null;
  } catch {
    return null;
  }
}

function savesByGame() {
  return app.setup.games.map((g) => readSave(g.name)).filter(Boolean);
}

// The server's save as this page keeps it (`tab` marks the tab playing it). A tab writes
// only its own game's save: one that another tab continued or replaced is left alone.
function keepSave(save, { claim = false } = {}) {
  if (!app.saving) return;
  const current = readSave(save.game);
  if (!claim && current && (current.id !== save.id || current.tab !== app.tab.token)) {
    app.saving = false;
    flash(t("ui.save_elsewhere"));
    return;
  }
  if (!store(SAVE_PREFIX + save.game, JSON.stringify({ ...save, tab: app.tab.token }))) {
    app.saving = false;
    showError(t("ui.save_failed"));
  }
}

// An answer's save kept: at once, or when it comes after the answer (the page's engine
// sends a move's answer first and seals its save meanwhile, so the page draws the move
// without waiting for the seal). A seal that fails loses that move's save only: the move
// stands, the game keeps its last sealed save (which a retry can open) and the next
// move's save is kept as usual.
function keepSaveOf(snapshot) {
  if (!snapshot.saved) return keepSave(snapshot.save);
  const before = app.game?.save;
  snapshot.saved.then(keepSave, (error) => {
    if (before?.sealed && before.id === snapshot.save.id) snapshot.save = before;
    if (error?.words !== "ui.engine_failed") flash(t("ui.seal_failed")); // else that is said
  });
}

function onStorage(event) {
  const save = app.game?.save;
  if (!save || !app.saving || event.key !== SAVE_PREFIX + save.game) return;
  const now = readSave(save.game);
  if (!now || now.id !== save.id || now.tab !== app.tab.token) {
    app.saving = false;
    flash(t("ui.save_elsewhere"));
  }
}

function sealedSave(save) {
  // What the server reads: the save without this page's own mark.
  const { tab, ...sealed } = save;
  void tab;
  return sealed;
}

async function downloadSave(save) {
  if (!save) return;
  let data = sealedSave(save);
  let name = `kraftstokk-${save.game}-save.json`;
  if (save.finished) {
    // A finished game may be read in the open: the replay log of `kraftstokk play --load`.
    try {
      data = await table.replayLog(data);
      name = `kraftstokk-${save.game}.json`;
    } catch (error) {
      showError(refusalText(error));
      return;
    }
  }
  const blob = new Blob([JSON.stringify(data, null, 1) + "\n"], { type: "application/json" });
  const link = el("a", { href: URL.createObjectURL(blob), download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

async function migrateOldSave() {
  // The first edition kept one plain replay log (with its seed): continue it sealed.
  const raw = stored(OLD_SAVE_KEY);
  if (!raw) return;
  store(OLD_SAVE_KEY, null);
  try {
    const log = JSON.parse(raw);
    if (log?.result || readSave(log?.rules?.game)) return;
    const snapshot = await table.resume(log);
    store(SAVE_PREFIX + snapshot.save.game, JSON.stringify(snapshot.save));
    table.forget(snapshot.id).catch(() => {});
  } catch {
    // an old save this server cannot continue is dropped
  }
}

// ---------------------------------------------------------------- start page

function chosenGame() {
  return document.querySelector("input[name=game]:checked")?.value || app.setup.games[0].name;
}

function gameSpec(name) {
  return app.setup.games.find((g) => g.name === name);
}

function setupChoices() {
  try {
    return JSON.parse(stored(SETUP_KEY) || "{}") || {};
  } catch {
    return {};
  }
}

// The pace of the computer's moves and "always let stand": this browser's, for every game.
// Without a choice the pace is "normal", or "instant" when the system asks for less motion.
function tableChoices() {
  let choices = {};
  try {
    choices = JSON.parse(stored(TABLE_KEY) || "{}") || {};
  } catch {
    choices = {};
  }
  const speed = choices.speed in STEP_MS ? choices.speed : REDUCED_MOTION.matches ? "instant" : "normal";
  return { speed, letStand: choices.letStand === true };
}

function keepTableChoices() {
  store(TABLE_KEY, JSON.stringify(app.table));
}

function renderStart() {
  const choices = setupChoices();
  $("keep-save").checked = choices.keep !== false;
  const offered = app.setup.games.map((g) => g.name);
  const picked = document.querySelector("input[name=game]:checked")?.value || choices.game;
  const current = offered.includes(picked) ? picked : offered[0];
  $("game-choices").replaceChildren(
    ...app.setup.games.map((g) =>
      el(
        "label",
        { class: "choice" },
        el("input", {
          type: "radio", name: "game", value: g.name, checked: g.name === current,
          onchange: () => renderStartOptions({}),
        }),
        el("span", { class: "choice-title", text: t(`games.${g.name}.title`) }),
        el("span", { class: "choice-blurb", text: t(`games.${g.name}.blurb`) }),
      ),
    ),
  );
  renderStartOptions(choices.game === current ? choices : {});
  renderSaves();
}

function renderSaves() {
  const saves = savesByGame();
  $("saved").hidden = saves.length === 0;
  $("saved-list").replaceChildren(
    ...saves.map((save) => {
      const game = t(`games.${save.game}.title`);
      const text = save.finished
        ? t("ui.saved_finished", { game, players: save.players })
        : t("ui.saved_game", { game, players: save.players, turn: save.turn });
      return el(
        "li",
        { class: "saved-game", "data-game": save.game, "data-finished": String(save.finished) },
        el("p", { text }),
        el(
          "div",
          { class: "row" },
          save.finished
            ? null
            : el("button", { type: "button", class: "primary", "data-action": "continue", text: t("ui.saved_continue"), "aria-label": `${t("ui.continue_saved")}: ${game}`, onclick: () => continueSaved(save) }),
          el("button", { type: "button", "data-action": "download", text: save.finished ? t("ui.saved_download_log") : t("ui.saved_download"), "aria-label": `${save.finished ? t("ui.download_log") : t("ui.download")}: ${game}`, onclick: () => downloadSave(save) }),
          el("button", { type: "button", class: "danger", "data-action": "delete", text: t("ui.saved_delete"), "aria-label": `${t("ui.delete_saved")}: ${game}`, onclick: () => deleteSaved(save.game) }),
        ),
      );
    }),
  );
}

function renderStartOptions(stored) {
  const spec = gameSpec(chosenGame());
  const [low, high] = spec.opponents;
  const keep = Number($("opponents").value) || stored.opponents || Math.min(3, high);
  $("opponents").replaceChildren(
    ...Array.from({ length: high - low + 1 }, (_, i) => {
      const n = low + i;
      return el("option", { value: n, selected: n === Math.min(Math.max(keep, low), high), text: String(n) });
    }),
  );
  const strength = $("strength").value || stored.bots || spec.default_bot;
  $("strength").replaceChildren(
    ...spec.bots.map((kind) => el("option", { value: kind, selected: kind === strength, text: botName(kind), title: t(`bots.${kind}`) })),
  );
  describeStrength();
  const chosen = new Set(stored.variants || []);
  $("variant-choices").replaceChildren(
    ...(spec.variants.length
      ? spec.variants.map((v) =>
          el(
            "label",
            { class: "variant" },
            el("input", { type: "checkbox", name: "variant", value: v, checked: chosen.has(v) }),
            el("span", { text: t(`games.${spec.name}.variants.${v}`) }),
          ),
        )
      : [el("p", { class: "muted", text: t("ui.no_variants") })]),
  );
  countVariants();
  // Folded on a phone (Start stays near the top), open on a wide screen or when chosen.
  $("variant-box").open = WIDE.matches || chosen.size > 0;
  renderHelp(spec.name);
}

function countVariants() {
  const chosen = document.querySelectorAll("input[name=variant]:checked").length;
  $("variant-count").textContent = chosen ? String(chosen) : "";
}

// A strength as the menu names it: in full on a wide screen; on a phone its name alone
// (the words before the parenthesis), so the choice is never cut: the line under the
// menu says what it does.
function botName(kind) {
  const full = t(`bots.${kind}`);
  return WIDE.matches ? full : full.split(" (")[0];
}

function describeStrength() {
  const kind = $("strength").value;
  $("strength-help").textContent = kind ? t(`bot_help.${kind}`) : "";
}

async function startGame(event) {
  event.preventDefault();
  const body = {
    game: chosenGame(),
    opponents: Number($("opponents").value),
    bots: $("strength").value,
    variants: [...document.querySelectorAll("input[name=variant]:checked")].map((i) => i.value),
    lang: app.lang, // the log's language
  };
  const seed = new URLSearchParams(location.search).get("seed"); // for tests and bug reports
  if (seed && /^\d{1,15}$/.test(seed)) body.seed = Number(seed);
  const keep = $("keep-save").checked;
  store(SETUP_KEY, JSON.stringify({ ...body, seed: undefined, lang: undefined, keep }));
  const unfinished = readSave(body.game);
  if (keep && unfinished && !unfinished.finished && !(await confirmReplace(unfinished))) return;
  try {
    const snapshot = await table.newGame(body);
    app.saving = keep;
    keepSave(snapshot.save, { claim: true });
    enterTable(snapshot);
  } catch (error) {
    showError(refusalText(error));
  }
}

// Ask before a new game replaces the unfinished one kept for the same game.
function confirmReplace(save) {
  const dialog = $("confirm-dialog");
  $("confirm-text").textContent = t("ui.replace_text", {
    game: t(`games.${save.game}.title`), players: save.players, turn: save.turn,
  });
  return new Promise((resolve) => {
    const done = (answer) => {
      dialog.close();
      resolve(answer);
    };
    $("btn-replace").onclick = () => done(true);
    $("btn-keep").onclick = () => done(false);
    dialog.oncancel = () => resolve(false);
    dialog.showModal();
    $("btn-keep").focus();
  });
}

async function continueSaved(save, { quiet = false, retry = false } = {}) {
  if (!save) return false;
  try {
    const snapshot = await table.resume(sealedSave(save));
    // A tab that continues a game from the start page takes its save over; a tab whose
    // server forgot the game (retry) keeps saving only while the save is still its own.
    app.saving = retry ? app.saving : Boolean(readSave(save.game)) || app.saving;
    keepSave(snapshot.save, { claim: !retry });
    enterTable(snapshot);
    if (!quiet) flash(t("ui.resumed"));
    return true;
  } catch (error) {
    $("start-message").textContent = t("ui.refused_save", { reason: refusalText(error) });
    showStart();
    return false;
  }
}

async function deleteSaved(game) {
  store(SAVE_PREFIX + game, null);
  if (app.game && app.game.game === game) {
    table.forget(app.game.id).catch(() => {});
    app.game = null;
    app.saving = false;
    rememberTab(null);
  }
  $("start-message").textContent = t("ui.deleted");
  renderStart();
}

async function uploadSave(event) {
  const file = event.target.files[0];
  event.target.value = "";
  if (!file) return;
  let save;
  try {
    save = JSON.parse(await file.text());
  } catch {
    $("start-message").textContent = t("ui.refused_save", { reason: `${file.name}: not JSON` });
    return;
  }
  const formats = ["kraftstokk-web-save", "kraftstokk-replay"];
  if (!save || !formats.includes(save.format)) {
    const reason = `${file.name}: not a save (no "format": "kraftstokk-web-save" or "kraftstokk-replay")`;
    $("start-message").textContent = t("ui.refused_save", { reason });
    return;
  }
  try {
    const snapshot = await table.resume(sealedSave(save));
    const unfinished = readSave(snapshot.save.game);
    const keep = $("keep-save").checked;
    const replacing = unfinished && !unfinished.finished && unfinished.id !== snapshot.save.id;
    if (keep && replacing && !(await confirmReplace(unfinished))) {
      table.forget(snapshot.id).catch(() => {});
      return;
    }
    app.saving = keep;
    keepSave(snapshot.save, { claim: true });
    enterTable(snapshot);
  } catch (error) {
    $("start-message").textContent = t("ui.refused_save", { reason: `${file.name}: ${refusalText(error)}` });
  }
}

function showStart() {
  if ($("over").open) $("over").close();
  $("table").hidden = true;
  $("start").hidden = false;
  $("btn-menu").hidden = true;
  renderStart();
}

// ---------------------------------------------------------------- the table

function enterTable(snapshot) {
  app.game = snapshot;
  rememberTab(snapshot.save);
  app.log = [];
  app.logAfter = 0;
  takeLog(snapshot.log);
  // The table tells the log in one language; a resumed game's in its deck's, at first.
  app.relog = snapshot.log.some((line) => !(app.lang in line.text));
  $("start").hidden = true;
  $("table").hidden = false;
  $("btn-menu").hidden = false;
  $("start-message").textContent = "";
  app.selected = null;
  app.picked = [];
  app.claiming = false;
  renderTable();
  // The eye and the keyboard go to the table: the first move, else the table itself.
  if (!focusFirstMove(true)) $("table").focus({ preventScroll: true });
  maybeLetStand();
}

function takeLog(lines) {
  for (const line of lines) {
    if (line.n > app.logAfter) {
      app.log.push(line);
      app.logAfter = line.n;
    }
  }
  if (app.log.length > 80) app.log.splice(0, app.log.length - 80);
}

async function sendMove(payload, retried = false) {
  if (app.busy || !app.game) return;
  app.busy = true;
  const game = app.game;
  const before = app.logAfter;
  let played = false;
  try {
    // The log comes in the page's language; after a change of language, all of it again.
    const relog = app.relog;
    const move = { turn: game.turn, log_after: relog ? 0 : app.logAfter, lang: app.lang, ...payload };
    // Again after a 404 or 409: the save and the move in one request, which any process
    // of the server can answer (one that did not know the game, or knew an older copy).
    const snapshot = retried
      ? await table.resume(sealedSave(game.save), move)
      : await table.move(game.id, move);
    keepSaveOf(snapshot);
    app.game = snapshot;
    app.selected = null;
    app.picked = [];
    app.claiming = false;
    if (relog) {
      app.log = [];
      app.logAfter = 0;
      app.relog = false;
    }
    takeLog(snapshot.log);
    const fresh = app.log.filter((line) => line.n > before);
    releaseFocus();
    await showSteps(game.view, fresh);
    renderTable();
    showHighlights(fresh);
    focusFirstMove();
    played = true;
  } catch (error) {
    if ((error.status === 404 || error.status === 409) && !retried) {
      // The server (or this process of it) does not know the game (idle, restarted) or
      // holds an older copy: send the save with the move.
      app.busy = false;
      await sendMove(payload, true);
    } else if (error.status === 409) {
      // The game is not where it was when the move was chosen (another tab played on):
      // show it as the save has it.
      app.busy = false;
      await continueSaved(game.save, { quiet: true, retry: true });
    } else {
      showError(refusalText(error));
    }
  } finally {
    app.busy = false;
  }
  if (played) maybeLetStand();
}

// "Always let stand": a question whose answers include letting it stand is answered so.
function maybeLetStand() {
  const game = app.game;
  if (!game || game.over || app.busy) return;
  const stand = game.moves.list.find((m) => m.kind === "let_stand");
  if (stand) app.letStandSeen = true;
  $("let-stand-box").hidden = !app.letStandSeen;
  if (!stand || !app.table.letStand) return;
  flash(t("ui.let_stood"));
  document.body.dataset.letStood = String(Number(document.body.dataset.letStood || 0) + 1);
  sendMove({ move: stand.i });
}

// ---------------------------------------------------------------- the computer's moves

// The lines of one answer, shown one at a time: the seat that acts lights up, its card
// flies to the pile (or the pile to it), a burn clears the pile, and the table takes each
// line's step (the person's view after that move). The person's own lines pass at once.
async function showSteps(before, lines) {
  const pace = STEP_MS[app.table.speed] ?? 0;
  const mine = app.game.seat;
  if (!pace || !lines.some((line) => line.seat >= 0 && line.seat !== mine)) return;
  // The table as it was, but for what a step changes (the keys of the server's steps).
  let view = { ...app.game.view };
  for (const key of Object.keys(lines.find((line) => line.step)?.step || {})) view[key] = before[key];
  document.body.dataset.animating = "1";
  let skipped = false;
  const wait = (ms) =>
    new Promise((resolve) => {
      if (skipped) return resolve();
      const timer = setTimeout(resolve, ms);
      app.skip = () => {
        skipped = true;
        clearTimeout(timer);
        resolve();
      };
    });
  renderStep(view);
  for (const line of lines) {
    const other = line.seat >= 0 && line.seat !== mine;
    const seatBox = other ? document.querySelector(`.opponent[data-seat="${line.seat}"]`) : null;
    seatBox?.classList.add("acting");
    if (other) $("highlight").replaceChildren(el("p", { class: notable(line) ? "rule" : null, text: logText(line) }));
    if (line.step && other && !skipped) {
      const now = line.step.pile;
      if (now.count < view.pile.count && /Burn/.test(line.kind)) $("pile").classList.add("burning");
      else if (now.count < view.pile.count) flyCard(view.pile, $("pile"), seatBox, pace);
      else if (now.count > view.pile.count) flyCard(now, seatBox, $("pile"), pace);
    }
    if (other) await wait(pace);
    if (line.step) view = { ...view, ...line.step };
    $("pile").classList.remove("burning");
    seatBox?.classList.remove("acting");
    renderStep(view);
  }
  app.skip = null;
  for (const flying of document.querySelectorAll(".flying")) flying.remove(); // cut short
  delete document.body.dataset.animating;
}

function renderStep(view) {
  renderOpponents(view);
  renderPile(view);
  renderExtra(view);
  setText($("status"), t("ui.turn_of", { n: view.current + 1 }));
  $("status").classList.remove("mine");
  renderMoves(false, view);
}

// A card image moving from one box to another over the table (none with reduced motion).
function flyCard(pile, from, to, ms) {
  if (!from || !to || REDUCED_MOTION.matches) return;
  const start = from.getBoundingClientRect();
  const end = to.getBoundingClientRect();
  const top = !pile.face_down && pile.cards.length ? pile.cards[pile.cards.length - 1] : "back";
  const width = 56;
  const image = el("img", { class: "flying", src: table.card(top), alt: "", width, height: 78 });
  image.style.left = `${start.left + start.width / 2 - width / 2}px`;
  image.style.top = `${start.top + start.height / 2 - 39}px`;
  image.style.setProperty("--step-ms", `${Math.round(ms * 0.8)}ms`);
  document.body.append(image);
  const dx = end.left + end.width / 2 - (start.left + start.width / 2);
  const dy = end.top + end.height / 2 - (start.top + start.height / 2);
  requestAnimationFrame(() => requestAnimationFrame(() => (image.style.transform = `translate(${dx}px, ${dy}px)`)));
  setTimeout(() => image.remove(), ms);
}

function cardButton(id, { onclick, extra = "", small = false, figure = null, pressed = null } = {}) {
  const card = app.cards.get(id);
  const label = cardLabel(id);
  const image = el("img", { src: table.card(id), alt: "", width: 120, height: 168, draggable: "false" });
  let caption = null;
  if (figure === "all" && card && !card.joker) {
    caption = el("span", { class: "fig all" },
      ...["mw", "gwh", "head_m"].map((key) => el("span", {}, el("b", { text: card.figures[key] }), el("small", { text: `#${card.nr[key]}` }))));
  } else if (figure && card && !card.joker) {
    caption = el("span", { class: "fig" }, el("b", { text: card.figures[figure] }), el("small", { text: `nr. ${card.nr[figure]}` }));
  } else if (app.game?.view?.cards === "rank" && card && !card.joker) {
    const red = card.suit === "hjerter" || card.suit === "ruter";
    caption = el("span", { class: `fig rank${red ? " red" : ""}`, "aria-hidden": "true" }, `${SUIT_SYMBOL[card.suit]} ${rankOf(card)}`);
  }
  const classes = `card${small ? " small" : ""}${extra ? " " + extra : ""}`;
  if (onclick) {
    return el("button", { type: "button", class: `${classes} playable`, "aria-label": label, "aria-pressed": pressed, onclick, "data-card": id }, image, caption);
  }
  return el("div", { class: classes, role: "img", "aria-label": label, "data-card": id }, image, caption);
}

function backCard(label, { onclick, small = false, extra = "" } = {}) {
  const image = el("img", { src: table.card("back"), alt: "", width: 120, height: 168, draggable: "false" });
  const classes = `card back${small ? " small" : ""}${extra ? " " + extra : ""}`;
  if (onclick) return el("button", { type: "button", class: `${classes} playable`, "aria-label": label, onclick }, image);
  return el("div", { class: classes, role: "img", "aria-label": label }, image);
}

function moveLabel(move) {
  const view = app.game.view;
  const cards = move.cards || [];
  const key = move.label || move.kind;
  const category = move.category || view.category || "gwh";
  return gt(`moves.${key}`, {
    cards: cards.map((id) => shortCard(id)).join(", "),
    a: cards[0] ? shortCard(cards[0]) : "",
    b: cards[1] ? shortCard(cards[1]) : "",
    category: t(`categories.${category}`),
    ...(move.fill || {}),
  });
}

// Moves made of two cards picked one after the other (a hand card, then the one it goes
// with: an Idiot swap).
function pairsFor(card) {
  return app.game.moves.list.filter((m) => m.pair && m.cards[0] === card);
}

// Moves that lay cards together (a card, a group, a run): every card of one is tappable,
// and tapping builds the group; the moves holding every card tapped so far stay listed.
function fitting(picked) {
  return app.game.moves.list.filter((m) => !m.pair && m.cards?.length && picked.every((c) => m.cards.includes(c)));
}

function canPick(id) {
  return app.picked.includes(id) || fitting([...app.picked, id]).length > 0;
}

// A tap on a card of a move: add it to the group (or take it out); play the move as soon
// as only one fits, or the group is a whole move that no bigger one extends.
function pickCard(id) {
  const picked = app.picked.includes(id) ? app.picked.filter((c) => c !== id) : [...app.picked, id];
  const candidates = picked.length ? fitting(picked) : [];
  const exact = candidates.filter((m) => m.cards.length === picked.length);
  const bigger = candidates.some((m) => m.cards.length > picked.length);
  if (candidates.length === 1 || (exact.length === 1 && !bigger)) {
    sendMove({ move: (candidates.length === 1 ? candidates[0] : exact[0]).i });
    return;
  }
  app.picked = picked;
  renderTable();
  document.querySelector(`#me [data-card="${CSS.escape(id)}"]`)?.focus({ preventScroll: true });
}

function clickHandCard(id) {
  const game = app.game;
  if (pairsFor(id).length && !canPick(id)) {
    app.selected = app.selected === id ? null : id;
    renderTable();
    document.querySelector(`#hand [data-card="${CSS.escape(id)}"]`)?.focus();
    return;
  }
  if (game.moves.claim && game.moves.claim.cards.includes(id) && !canPick(id)) {
    openClaim(id);
    return;
  }
  pickCard(id);
}

function renderTable() {
  const game = app.game;
  const view = game.view;
  const myTurn = !game.over && game.moves.list.length + (game.moves.claim ? 1 : 0) > 0;
  setData("game", game.game);
  setText($("table-title"), t("ui.table_title", { game: t(`games.${game.game}.title`) }));

  renderOpponents(view);

  // Status line: above the moves, where the eye is when a question is asked.
  let status;
  const phase = gt(`phases.${view.phase}`);
  if (game.over) status = t("ui.game_over");
  else if (myTurn && view.question) status = gt(view.question.text, view.question.fill);
  else if (myTurn) status = `${t("ui.your_turn")}${phase ? " — " + phase : ""}`;
  else status = t("ui.turn_of", { n: view.current + 1 });
  setText($("status"), status);
  $("status").classList.toggle("mine", Boolean(myTurn));

  renderPile(view);
  renderExtra(view);
  renderMe(view, myTurn);
  renderMoves(myTurn, view);
  renderLog();
  renderOver();
  document.body.dataset.turn = String(game.turn); // always: the mark of an answer drawn
  setData("selected", app.selected || app.picked.join(","));
  setData("phase", view.phase);
}

let seatNodes = new Map(); // the opponents' boxes last drawn, by what each shows

// Each opponent's box: built again only when what it shows changed (the others stay).
function renderOpponents(view) {
  const game = app.game;
  const row = $("opponents-row");
  const label = t("ui.player", { n: "" }).trim();
  if (row.getAttribute("aria-label") !== label) row.setAttribute("aria-label", label);
  const nodes = new Map();
  const boxes = view.players
    .filter((p) => p.seat !== game.seat)
    .map((p) => {
      const status = p.out
        ? t("ui.place", { n: (view.out_order || game.over?.order || []).indexOf(p.seat) + 1 || "" })
        : t("ui.cards_n", { n: p.hand });
      const active = view.current === p.seat && !game.over;
      const sig = JSON.stringify([app.lang, game.id, view.cards, p, active, status]);
      const node =
        (!nodes.has(sig) && seatNodes.get(sig)) ||
        el(
          "div",
          { class: `opponent${active ? " active" : ""}${p.out ? " out" : ""}`, "data-seat": p.seat },
          el("div", { class: "opp-name", text: seatName(p.seat) }),
          el("div", { class: "opp-count" }, el("span", { class: "mini-back", "aria-hidden": "true" }), status),
          p.face_up.length || p.face_down
            ? el(
                "div",
                { class: "opp-table" },
                p.face_up.map((id) => cardButton(id, { small: true })),
                p.face_down ? el("span", { class: "down-count", text: `+${p.face_down} ${t("ui.face_down").toLowerCase()}` }) : null,
              )
            : null,
        );
      nodes.set(sig, node);
      return node;
    });
  seatNodes = nodes;
  place(row, boxes);
}

function renderPile(view) {
  if (!changed("pile", view.pile, view.counts, view.notes)) return;
  const pile = $("pile");
  const parts = [];
  if (!view.pile.count) {
    parts.push(el("div", { class: "empty-pile", text: t("ui.pile_empty") }));
  } else if (view.pile.face_down || !view.pile.cards.length) {
    parts.push(el("div", { class: "stack" }, backCard(t("ui.pile")), el("span", { class: "badge", text: String(view.pile.count) })));
  } else {
    const tops = view.pile.cards;
    parts.push(
      el(
        "div",
        { class: "stack fan" },
        tops.map((id, i) => {
          const top = i === tops.length - 1;
          return cardButton(id, { extra: top ? "top" : "under nocap", figure: top ? view.pile.figure : null });
        }),
        el("span", { class: "badge", text: String(view.pile.count) }),
      ),
    );
  }
  pile.replaceChildren(el("div", { class: "pile-label", text: t("ui.pile") }), ...parts);

  const items = view.counts.map((item) =>
    el(
      "div",
      { class: `count${"word" in item ? " wide" : ""}` },
      el("span", { text: gt(item.label) }),
      el("b", { text: "word" in item ? (item.word ? t(`categories.${item.word}`) : t("ui.no_category")) : String(item.value) }),
    ),
  );
  for (const note of view.notes) items.push(el("div", { class: "count wide note", text: gt(note.text, note.fill) }));
  $("counts").replaceChildren(...items);
}

// The game's panels beside the pile: claims, cards shown, a war, a warning.
function renderPanel(panel) {
  switch (panel.type) {
    case "claims":
      return el(
        "ol",
        { class: "claims" },
        panel.claims.map((c, i) =>
          el("li", { class: i === panel.claims.length - 1 ? "last" : "" },
            el("span", { class: "who", text: seatName(c.seat) }),
            el("span", { class: "what" }, el("b", { text: c.name }), ` ${c.figure}${c.nr ? ` · nr. ${c.nr}` : ""}`),
          ),
        ),
      );
    case "note":
      return el("p", { class: panel.style || "", text: gt(panel.text) });
    case "cards":
      return el("div", { class: "shown" }, el("span", { text: gt(panel.label) }), panel.cards.map((id) => cardButton(id, { small: true, figure: panel.figure })));
    case "war":
      return el("div", { class: "war" },
        el("strong", { text: gt("war") }),
        el("span", { text: gt("war_in", { who: panel.players.map((s) => seatName(s)).join(", ") }) }),
        panel.category ? el("span", { text: gt("war_category", { category: t(`categories.${panel.category}`) }) }) : null,
        el("div", { class: "war-cards" }, panel.laid.map((l) => el("div", { class: "war-card" }, el("small", { text: seatName(l.seat) }), cardButton(l.card, { small: true, figure: panel.category || "gwh" })))),
      );
    default:
      return null;
  }
}

function renderExtra(view) {
  if (!changed("extra", view.panels)) return;
  const box = $("extra");
  const parts = view.panels.map(renderPanel).filter(Boolean);
  box.replaceChildren(...parts);
  box.hidden = parts.length === 0;
}

// A card of the person's own table: playable when a move lays it, or, with a hand card
// picked first, when a move pairs the two (an Idiot swap). ``sig`` names what a tap does.
function rowCardClick(id, myTurn) {
  if (!myTurn) return null;
  if (app.selected) {
    const pair = pairsFor(app.selected).find((m) => m.cards[1] === id);
    if (pair) return { sig: `pair ${pair.i}`, run: () => sendMove({ move: pair.i }) };
  }
  return canPick(id) ? { sig: "pick", run: () => pickCard(id) } : null;
}

let handNodes = new Map(); // the hand's card buttons last drawn, by what each shows and does

function renderMe(view, myTurn) {
  const game = app.game;
  const figure = view.cards === "rank" ? null : view.category || "all";
  const me = view.players.find((p) => p.seat === game.seat);
  const picking = (id) => (app.picked.length ? String(app.picked.includes(id)) : null);
  // The person's table (Idiot's face-up and face-down cards): drawn again when a card or
  // what a tap on one does changed.
  const rows = view.rows.map((row) => ({
    label: row.label,
    cards: row.cards?.map((id) => ({ id, click: rowCardClick(id, myTurn), picked: app.picked.includes(id) })),
    slots: row.slots?.map((slot) => ({ slot, move: myTurn ? game.moves.list.find((m) => m.slot === slot)?.i : undefined })),
  }));
  const rowKey = rows.map((row) => [row.label, row.cards?.map((c) => [c.id, c.click?.sig, c.picked]), row.slots]);
  if (changed("my-table", figure, app.picked.length > 0, rowKey)) {
    const tableRow = rows.map((row) => {
      const cards = row.cards
        ? row.cards.map(({ id, click, picked }) =>
            cardButton(id, { onclick: click?.run, extra: `row-card${picked ? " selected" : ""}`, pressed: click ? picking(id) : null }))
        : row.slots.map(({ slot, move }) =>
            backCard(t("ui.face_down_label", { n: slot + 1 }), { onclick: move !== undefined ? () => sendMove({ move }) : null, extra: "row-card" }));
      return el("div", { class: "row-group" }, el("div", { class: "row-label", text: gt(row.label) }), el("div", { class: "cards" }, cards));
    });
    $("my-table").replaceChildren(...tableRow);
    $("my-table").hidden = tableRow.length === 0;
  }

  // The hand: a card that shows and does the same as before keeps its button (a move
  // takes one card out of it, and the others are not built and laid out afresh).
  const claimCards = new Set(game.moves.claim?.cards || []);
  const pairing = game.moves.list.some((m) => m.pair);
  const nodes = new Map();
  const hand = view.hand.map((id) => {
    const usable = myTurn && (canPick(id) || claimCards.has(id) || pairsFor(id).length > 0);
    const chosen = app.selected === id || app.picked.includes(id);
    const pressed = usable && (pairing || app.selected || app.picked.length) ? String(chosen) : null;
    const sig = JSON.stringify([app.lang, view.cards, id, usable, figure, chosen, pressed]);
    const node =
      (!nodes.has(sig) && handNodes.get(sig)) ||
      cardButton(id, { onclick: usable ? () => clickHandCard(id) : null, figure, extra: chosen ? "selected" : "", pressed });
    nodes.set(sig, node);
    return node;
  });
  handNodes = nodes;
  const box = $("hand");
  let label = box.querySelector(":scope > .row-label");
  let row = box.querySelector(":scope > .hand-cards");
  if (!row) {
    label = el("div", { class: "row-label" });
    row = el("div", { class: "cards hand-cards" });
    box.replaceChildren(label, row);
    handWidth.observe(row);
  }
  setText(label, keepTogether(`${t("ui.hand")} — ${seatName(game.seat)}${me?.out ? " · " + t("ui.out") : ""}`));
  place(row, hand);
  if (box.getAttribute("aria-label") !== t("ui.hand")) box.setAttribute("aria-label", t("ui.hand"));
  fitHand();
}

// On a phone the hand's cards are as wide as the row allows, up to 88 px: a few cards show
// their figures large, a big hand wraps (the captions scale with the card, app.css). With
// all three figures under each card (no category yet) a card is at least 76 px wide.
// The row's width is measured once and then kept by a ResizeObserver (it changes with the
// screen, not with the cards): reading it after drawing the answer forced a layout of the
// whole table in the middle of every move.
const handRow = { width: 0, gap: null };
const handWidth = new ResizeObserver((entries) => {
  const row = entries[entries.length - 1].target;
  if (row.clientWidth === handRow.width) return; // read after the layout: no extra one
  handRow.width = row.clientWidth;
  handRow.gap = null;
  fitHand();
});

function fitHand() {
  const row = $("hand").querySelector(".hand-cards");
  if (!row) return;
  const count = row.children.length;
  if (WIDE.matches || !count) {
    row.style.removeProperty("--card-w");
    return;
  }
  const least = row.querySelector(".fig.all") ? 76 : 58;
  if (!handRow.width) handRow.width = row.clientWidth; // the first drawing (or a hidden table)
  if (handRow.gap === null) handRow.gap = parseFloat(getComputedStyle(row).columnGap) || 0;
  const width = Math.floor((handRow.width - handRow.gap * (count - 1)) / count);
  const wanted = `${Math.max(least, Math.min(88, width))}px`;
  if (row.style.getPropertyValue("--card-w") !== wanted) row.style.setProperty("--card-w", wanted);
}

let moveNodes = new Map(); // the move buttons last drawn, by the move, key and label

function renderMoves(myTurn, view) {
  const game = app.game;
  const box = $("moves");
  const hint = $("moves-hint");
  const say = (text) => {
    hint.textContent = text;
    hint.hidden = !text;
  };
  if (!myTurn) {
    box.classList.remove("many", "crowded");
    box.replaceChildren();
    say(game.over ? "" : t("ui.waiting", { n: view.current + 1 }));
    $("claim").hidden = true;
    return;
  }
  if (app.table.letStand && game.moves.list.some((m) => m.kind === "let_stand")) {
    // Answered at once ("always let stand"): no buttons to tap in the meantime.
    box.classList.remove("many", "crowded");
    box.replaceChildren();
    say(t("ui.let_stood"));
    $("claim").hidden = true;
    return;
  }
  const claim = game.moves.claim;
  if (claim?.fixed_card) app.claiming = claim.fixed_card;
  let list = game.moves.list.filter((m) => !m.pair || (app.selected && m.cards[0] === app.selected));
  const pairing = game.moves.list.some((m) => m.pair);
  if (app.picked.length) {
    // The group so far: the moves that hold it, the ones that are exactly it first.
    const size = (m) => (m.cards.length === app.picked.length ? 0 : 1);
    list = fitting(app.picked).sort((a, b) => size(a) - size(b));
  }
  const shown = list.map((move) => ({ move, label: moveLabel(move) }));
  if (claim && !app.picked.length && !app.claiming) shown.unshift({ move: { kind: "claim" }, label: t("moves.claim") });
  // A button is kept from the last answer when it is the same move with the same key and
  // label (a new one is laid out afresh: most of an answer's drawing time).
  const nodes = new Map();
  const buttons = shown.map(({ move, label }, i) => {
    // Every listed move has a key (1-9, 0, then a-z), shown on its button.
    const key = i < MOVE_KEYS.length ? MOVE_KEYS[i] : null;
    const sig = JSON.stringify([app.lang, game.id, move.kind, move.i, move.cards, label, key]);
    const claiming = move.kind === "claim";
    // A long label (a run of cards) takes two columns of a crowded bar, so that no row of
    // buttons grows to the height of its longest one.
    const long = label.length > LONG_LABEL ? " long" : "";
    const node =
      moveNodes.get(sig) ||
      el(
        "button",
        claiming
          ? { type: "button", class: "move kind-claim primary", "data-kind": "claim", onclick: () => openClaim(null) }
          : { type: "button", class: `move kind-${move.kind}${long}`, "data-kind": move.kind, "data-i": move.i, "data-cards": move.cards?.join(" ") || null, onclick: () => sendMove({ move: move.i }) },
        key ? el("kbd", { text: key }) : null,
        el("span", { text: label }),
      );
    nodes.set(sig, node);
    return node;
  });
  moveNodes = nodes;
  // Many moves (Strømkrig's lays, resets and runs) scroll sideways in two rows on a phone;
  // a crowd of them, in columns on a wide screen.
  box.classList.toggle("many", buttons.length > 4);
  box.classList.toggle("crowded", buttons.length > 9);
  place(box, buttons);
  say(app.picked.length ? t("ui.pick_more") : pairing ? gt("moves.pair_pick") : "");
  if (claim && app.claiming) showClaim(app.claiming === true ? null : app.claiming);
  else $("claim").hidden = true;
}

// The parts of the table an answer draws anew (a move's button, a card of the hand).
const REDRAWN = ["moves", "me", "pile", "opponents-row"];

// Before an answer is drawn: the focused move or card lets the focus go while the table is
// still laid out as the screen shows it. Taken from an element as it is removed, the focus
// made Chromium lay the whole half-drawn table out there and then, and focusing the first
// move laid it out again: two layouts an answer where one does. Now the first move's
// focus (focusFirstMove, once all is drawn) is the one, and the frame finds it done.
function releaseFocus() {
  const active = document.activeElement;
  if (active && REDRAWN.some((id) => $(id).contains(active))) active.blur();
}

// The first listed move takes the focus after a move (unless the person is elsewhere);
// ``always``: also from another element (after Start). Says whether a move took it.
function focusFirstMove(always = false) {
  const active = document.activeElement;
  const lost = !active || active === document.body || active === $("table") || !active.isConnected;
  if (!always && !lost) return false;
  const first = $("moves").querySelector("button");
  first?.focus({ preventScroll: true });
  return Boolean(first);
}

// ---------------------------------------------------------------- Kraftidioten claims

// The claim form in place of the claim's button ("card": the card it lays, null: the first).
function openClaim(cardId) {
  if (!app.game?.moves.claim) return;
  app.claiming = cardId || true;
  app.claimFocus = true;
  renderMoves(true, app.game.view);
}

function closeClaim() {
  app.claiming = false;
  renderMoves(true, app.game.view);
  focusFirstMove(true);
}

function showClaim(cardId) {
  const game = app.game;
  const claim = game.moves.claim;
  const form = $("claim");
  const card = cardId || claim.fixed_card || claim.cards[0];
  const categories = claim.categories;
  const current = game.view.category || categories[0];
  const own = app.cards.get(card);
  // Compact, so the button that sends it is on screen with the hand above it: the four
  // choices two by two (four in a row on a wide screen), what is said, the buttons.
  form.replaceChildren(
    el("h3", { class: "sr", text: t("ui.claim_title") }),
    el("div", { class: "claim-grid" },
      el("label", {}, el("span", { text: t("ui.claim_card") }),
        el("select", { name: "card", id: "claim-card", disabled: claim.fixed_card ? true : null },
          claim.cards.map((id) => el("option", { value: id, selected: id === card, text: shortCard(id, current) })))),
      categories.length > 1 || !game.view.category
        ? el("label", {}, el("span", { text: t("ui.category") }),
            el("select", { name: "category", id: "claim-category" },
              categories.map((c) => el("option", { value: c, selected: c === current, text: t(`categories.${c}`) }))))
        : el("input", { type: "hidden", name: "category", id: "claim-category", value: current }),
      el("label", {}, el("span", { text: t("ui.claim_plant") }),
        el("input", { name: "plant", id: "claim-plant", list: "plant-names", autocomplete: "off", required: true, value: own?.name || "" })),
      claim.any_figure
        ? el("label", {}, el("span", { text: t("ui.claim_figure") }),
            el("input", { name: "amount", id: "claim-amount", inputmode: "decimal", autocomplete: "off" }))
        : null),
    el("div", { class: "claim-send" },
      el("output", { id: "claim-figure", class: "figure-out" }),
      el("button", { type: "submit", class: "primary", text: t("ui.claim_submit") }),
      claim.fixed_card ? null : el("button", { type: "button", class: "ghost", text: t("ui.close"), onclick: closeClaim })),
    el("p", { class: "hint", id: "claim-hint" }),
  );
  let typed = false; // the person changed the figure: keep it when the plant changes
  const amountInput = $("claim-amount");
  if (amountInput) amountInput.addEventListener("input", () => (typed = true));
  const stated = (plant, category) => {
    if (!amountInput || !typed) return plant.values[category];
    return parseAmount(amountInput.value);
  };
  const update = () => {
    const category = $("claim-category").value;
    for (const option of $("claim-card").options) option.textContent = shortCard(option.value, category);
    const plant = app.plantsByName.get($("claim-plant").value.trim().toLowerCase());
    const chosen = $("claim-card").value;
    const hint = [];
    let below = false; // the figure said is under the last claim's: the server refuses it
    if (plant) {
      if (amountInput && !typed) amountInput.value = String(plant.values[category]).replace(".", t("ui.decimal_mark"));
      const figure = stated(plant, category);
      const printed = figure === plant.values[category];
      const truth = plant.id === chosen && printed;
      const said = printed ? plant.figures[category] : `${figure} ${plant.figures[category].split(" ").pop()}`;
      $("claim-figure").textContent = `${said} · ${printed ? "nr. " + plant.nr[category] + " · " : ""}${truth ? t("ui.claim_truth") : t("ui.claim_lie")}`;
      below = claim.floor !== null && figure < claim.floor;
      if (below) hint.push(t("ui.claim_floor", { figure: floorText(category) }));
    } else {
      $("claim-figure").textContent = "—";
      hint.push(t("ui.claim_unknown"));
    }
    if (!claim.any_figure) hint.push(t("ui.claim_own_figure"));
    else hint.push(t("ui.claim_any_figure"));
    $("claim-hint").textContent = hint.join(" ");
    form.dataset.below = String(below);
  };
  form.oninput = update;
  $("claim-card").onchange = () => {
    const c = app.cards.get($("claim-card").value);
    $("claim-plant").value = c?.name || "";
    update();
  };
  form.onsubmit = (event) => {
    event.preventDefault();
    const plant = app.plantsByName.get($("claim-plant").value.trim().toLowerCase());
    if (!plant) {
      update();
      $("claim-plant").focus();
      return;
    }
    const category = $("claim-category").value;
    const figure = stated(plant, category);
    if (!Number.isFinite(figure)) {
      $("claim-hint").textContent = t("ui.claim_bad_figure");
      amountInput?.focus();
      return;
    }
    // The form stays until the answer: a claim refused is corrected in place.
    const choice = { card: $("claim-card").value, category, plant_id: plant.plant_id };
    if (figure !== plant.values[category]) choice.figure = figure;
    sendMove({ claim: choice });
  };
  const opening = form.hidden || app.claimFocus;
  app.claimFocus = false;
  form.hidden = false;
  update();
  if (opening) {
    $("claim-plant").focus({ preventScroll: true });
    $("claim-plant").select();
  }
}

function parseAmount(text) {
  // "1 234,5", "1234.5", "1 234": spaces (also narrow no-break) out, a comma as the decimal mark.
  const clean = text.replace(/[\s\u00a0\u202f]/g, "").replace(",", ".");
  return /^\d+(\.\d+)?$/.test(clean) ? Number(clean) : NaN;
}

function floorText(category) {
  const claims = app.game.view.pile.claims || [];
  return claims.length ? claims[claims.length - 1].figure : "";
  void category;
}

// ---------------------------------------------------------------- log, highlights, end

// Rule events worth a highlight on the table (the engine's event class names).
const NOTABLE = /Burn|Reset|Chance|FaceDown|Taken|War|Challenge|Lie|Penalty|Out|Over|Shown|Joker|Starts/;

function notable(line) {
  return NOTABLE.test(line.kind || "");
}

function logText(line) {
  // The engine's sentences, told to this seat in every language: each names its subject.
  return line.text[app.lang] || Object.values(line.text)[0] || "";
}

// The newest forty lines, the newest first. Only the lines not drawn yet are added (and the
// oldest dropped): drawing all forty again took a few ms of every move's layout.
function renderLog() {
  const list = $("log");
  const shown = app.log.slice(-40).reverse();
  const key = `${app.game.id} ${app.lang}`;
  const newest = list.firstElementChild ? Number(list.firstElementChild.dataset.n) : null;
  if (list.dataset.key !== key || !shown.some((line) => line.n === newest)) {
    list.replaceChildren(...shown.map(logItem));
    list.dataset.key = key;
    return;
  }
  list.prepend(...shown.filter((line) => line.n > newest).map(logItem));
  while (list.children.length > shown.length) list.lastElementChild.remove();
}

function logItem(line) {
  const classes = [line.seat === app.game.seat ? "mine" : "", notable(line) ? "rule" : ""].join(" ").trim();
  return el("li", { class: classes || null, "data-kind": line.kind || null, "data-seat": line.seat, "data-n": line.n }, logText(line));
}

function showHighlights(lines) {
  const others = lines.filter((line) => line.seat !== app.game.seat);
  const box = $("highlight");
  if (!others.length) {
    box.replaceChildren();
    return;
  }
  const rules = others.filter(notable);
  const shown = [...others.filter((line) => !notable(line)).slice(-2), ...rules.slice(-3)].sort((a, b) => a.n - b.n);
  // New paragraphs start their pop animation afresh: no forced layout of the whole table
  // to restart it (that alone took some 5 ms of every move's answer).
  box.replaceChildren(...shown.map((line) => el("p", { class: notable(line) ? "rule" : null, text: logText(line) })));
  box.classList.add("pop");
}

function flash(text) {
  const box = $("highlight");
  box.replaceChildren(el("p", { text }));
}

function renderOver() {
  const game = app.game;
  const box = $("over");
  if (!game.over) {
    if (box.open) box.close();
    return;
  }
  const over = game.over;
  const left = (seat) => (over.left ? ` — ${t("ui.left_n", { n: over.left[seat] })}` : "");
  const lines = [el("h2", { id: "over-title", text: t("ui.game_over") })];
  if (!over.finished) lines.push(el("p", { text: t("ui.unfinished") }));
  else {
    const placed = [...over.order, ...(over.loser !== null && !over.order.includes(over.loser) ? [over.loser] : [])];
    lines.push(el("ol", { class: "places" }, placed.map((seat) =>
      el("li", { class: seat === game.seat ? "mine" : null }, el("b", { text: seatName(seat) }), left(seat)))));
    if (over.loser !== null) lines.push(el("p", { class: "loser", text: gt("loser", { who: seatName(over.loser) }) }));
  }
  // What decided it: the moves that shifted the most cards, as the log told them.
  if (over.turning?.length) {
    lines.push(
      el("h3", { text: t("ui.turning_title") }),
      el("ol", { class: "turning" }, over.turning.map((moment) =>
        el("li", {}, moment.map((line) => el("span", { text: line.text }))))),
    );
  }
  lines.push(el("div", { class: "row" },
    el("button", { type: "button", class: "primary", id: "btn-again", text: t("ui.play_again"), onclick: playAgain }),
    el("button", { type: "button", id: "btn-start", text: t("ui.choose_again"), onclick: () => showStart() }),
    el("button", { type: "button", id: "btn-download-log", text: t("ui.download_log"), onclick: () => downloadSave(game.save) })));
  box.replaceChildren(el("div", { class: "over-card" }, lines));
  // A modal dialog: the focus goes to "play again" and stays inside (Tab wraps round).
  if (!box.open) box.showModal();
  if (!box.contains(document.activeElement)) $("btn-again").focus();
}

// A new game of the one that ended, with the same seats: the game, the computer's seats
// and their kind, the variants; a new deal.
async function playAgain() {
  const game = app.game;
  const bots = game.bots.find((name) => name !== "person");
  const body = { game: game.game, opponents: game.players - 1, bots, variants: game.variants, lang: app.lang };
  const seed = new URLSearchParams(location.search).get("seed"); // for tests and bug reports
  if (seed && /^\d{1,15}$/.test(seed)) body.seed = Number(seed) + 1;
  try {
    const snapshot = await table.newGame(body);
    $("over").close();
    keepSave(snapshot.save, { claim: true });
    enterTable(snapshot);
  } catch (error) {
    showError(refusalText(error));
  }
}

function trapFocus(event) {
  const box = event.currentTarget;
  if (event.key === "Escape") {
    event.preventDefault(); // the game is over: the dialog stays until the person chooses
    return;
  }
  if (event.key !== "Tab") return;
  const stops = [...box.querySelectorAll("button, a[href], input, select")].filter((node) => !node.disabled);
  if (!stops.length) return;
  const first = stops[0];
  const last = stops[stops.length - 1];
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}

// ---------------------------------------------------------------- rules panel

async function openRules() {
  if (!app.rules[app.lang]) {
    try {
      app.rules[app.lang] = await table.rules(app.lang);
    } catch (error) {
      showError(refusalText(error));
      return;
    }
  }
  const chapters = app.rules[app.lang];
  const active = chapters[app.game?.game] ? app.game.game : chosenGame() in chapters ? chosenGame() : Object.keys(chapters)[0];
  const show = (name) => {
    for (const tab of $("rules-tabs").children) tab.setAttribute("aria-selected", String(tab.dataset.game === name));
    // The quick reference (the booklet's last page of a chapter) first: at the table it
    // is what one looks for.
    const quick = chapters[name].filter((block) => block.type === "quick");
    const blocks = [...quick, ...chapters[name].filter((block) => block.type !== "quick")].map(ruleBlock);
    const example = lookup(`games.${name}.help.example`);
    if (example) {
      blocks.unshift(el("section", { class: "example" }, el("h5", { text: t("ui.quick_example_title") }), el("ul", {}, example.map((line) => el("li", { text: line })))));
    }
    $("rules-body").replaceChildren(...blocks);
  };
  $("rules-tabs").replaceChildren(
    ...Object.keys(chapters).map((name) =>
      el("button", { type: "button", role: "tab", "data-game": name, text: t(`games.${name}.title`), onclick: () => show(name) }),
    ),
  );
  show(active);
  if (!$("rules-dialog").open) $("rules-dialog").showModal();
}

function ruleBlock(block) {
  switch (block.type) {
    case "heading":
      return el(`h${Math.min(block.level + 2, 5)}`, { html: block.text });
    case "para":
      return el("p", { html: block.text });
    case "bullets":
      return el("ul", {}, block.items.map((item) => el("li", { html: item })));
    case "steps":
      return el("ol", { class: "steps" }, block.items.map((item) => el("li", { html: item })));
    case "table":
      return el("table", { class: "rule-table" },
        el("thead", {}, el("tr", {}, block.headings.map((heading) => el("th", { scope: "col", html: heading })))),
        el("tbody", {}, block.rows.map((row) => el("tr", {}, row.map((cell) => el("td", { html: cell }))))));
    case "cards":
      // A card the booklet draws face down (null) is the deck's back here too.
      return el("div", { class: "rule-cards" }, block.cards.map((id, i) => {
        const caption = block.captions[i] || "";
        const card = id === null ? backCard(plainText(caption) || t("ui.pile"), { small: true }) : cardButton(id, { small: true });
        return el("figure", {}, card, el("figcaption", { html: caption }));
      }));
    case "example":
      return el("section", { class: "example" }, el("h5", { html: block.title }), block.body.map(ruleBlock));
    case "quick":
      return el("section", { class: "quick" }, el("h4", { html: block.title }),
        block.sections.map((section) => [el("h5", { html: section.heading }), ruleBlock(section.body)]).flat());
    default:
      throw new Error(`a rules block of an unknown type: ${block.type}`);
  }
}

function plainText(markup) {
  return new DOMParser().parseFromString(markup, "text/html").body.textContent.trim();
}

// ---------------------------------------------------------------- keys and start-up

function onKey(event) {
  if (event.target.closest("input, select, textarea, dialog")) return;
  if ($("table").hidden || event.ctrlKey || event.metaKey || event.altKey || event.key.length !== 1) return;
  const index = MOVE_KEYS.indexOf(event.key.toLowerCase());
  const button = index < 0 ? null : [...$("moves").querySelectorAll("button.move")][index];
  if (button) {
    event.preventDefault();
    button.scrollIntoView({ block: "nearest", inline: "nearest" });
    button.click();
  }
}

async function main() {
  try {
    app.setup = await table.setup();
  } catch (error) {
    document.body.append(el("p", { class: "error", text: refusalText(error) }));
    return;
  }
  if (!app.setup.languages.includes(app.lang)) {
    const page = document.documentElement.lang; // the page's first language (the cards')
    app.lang = app.setup.languages.includes(page) ? page : app.setup.languages[0];
  }
  for (const card of app.setup.cards) {
    app.cards.set(card.id, card);
    if (!card.joker) app.plantsByName.set(card.name.toLowerCase(), card);
  }
  $("plant-names").replaceChildren(
    ...app.setup.cards.filter((c) => !c.joker).map((c) => c.name).sort((a, b) => a.localeCompare(b, "nb")) /* the plants' names are Norwegian */.map((name) => el("option", { value: name })),
  );
  table.ready().then(preloadCards, () => {}); // once the table can play (the faces wait)
  applyTexts();
  $("setup").addEventListener("submit", startGame);
  $("over").addEventListener("keydown", trapFocus);
  $("over").addEventListener("cancel", (event) => event.preventDefault());
  $("speed").value = app.table.speed;
  $("speed").addEventListener("change", () => {
    app.table.speed = $("speed").value;
    keepTableChoices();
  });
  $("auto-let-stand").checked = app.table.letStand;
  $("auto-let-stand").addEventListener("change", () => {
    app.table.letStand = $("auto-let-stand").checked;
    keepTableChoices();
    maybeLetStand();
  });
  // While the computer's moves are shown, a tap on the table or a key shows the end.
  $("table").addEventListener("pointerdown", () => app.skip?.());
  document.addEventListener("keydown", () => app.skip?.());
  $("upload").addEventListener("change", uploadSave);
  $("strength").addEventListener("change", describeStrength);
  $("variant-choices").addEventListener("change", countVariants);
  $("keep-save").addEventListener("change", () => {
    store(SETUP_KEY, JSON.stringify({ ...setupChoices(), keep: $("keep-save").checked }));
  });
  window.addEventListener("storage", onStorage);
  $("btn-menu").addEventListener("click", showStart);
  $("btn-rules").addEventListener("click", openRules);
  $("btn-rules-close").addEventListener("click", () => $("rules-dialog").close());
  $("lang").addEventListener("change", () => {
    app.lang = $("lang").value;
    store(LANG_KEY, app.lang);
    app.relog = Boolean(app.game); // the log so far is told anew with the next move
    applyTexts();
    if (!$("start").hidden) renderStart();
    if (app.game && !$("table").hidden) renderTable();
    if ($("rules-dialog").open) openRules();
  });
  document.addEventListener("keydown", onKey);
  window.addEventListener("resize", () => app.game && fitHand());
  // What scrolls into view (a card reached by Tab, a key's move) stops above the bar of
  // moves stuck to the bottom of the screen, never under it (app.css: scroll-padding).
  new ResizeObserver(([entry]) => {
    const bar = entry.target.getBoundingClientRect().height;
    document.documentElement.style.setProperty("--actions-h", `${Math.ceil(bar)}px`);
  }).observe($("actions"));
  await migrateOldSave();
  // This tab's game (a reload): continue it if its save is still this tab's and unfinished.
  const mine = app.tab.game ? readSave(app.tab.game) : null;
  if (mine && mine.id === app.tab.id && mine.tab === app.tab.token && !mine.finished) {
    app.saving = true;
    const resumed = await continueSaved(mine, { quiet: true });
    if (resumed) return;
  }
  showStart();
}

main();
