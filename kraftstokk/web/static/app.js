// Kraft-stokken in the browser. Plain JavaScript, no build step, nothing from the network
// but this server. The server holds the game; this page shows one seat's view, sends
// moves, and keeps the server's sealed save of each game in localStorage (one per game:
// kraftstokk.save.idiot, ...), unless the person chose not to keep it. This tab's game is
// remembered in sessionStorage, so a reload continues it and another tab keeps its own.

const SAVE_PREFIX = "kraftstokk.save.";
const OLD_SAVE_KEY = "kraftstokk.save"; // the first edition's one save: a plain replay log
const TAB_KEY = "kraftstokk.tab"; // sessionStorage: {game, id} of this tab's game, its token
const LANG_KEY = "kraftstokk.lang";
const SETUP_KEY = "kraftstokk.setup";
const SUIT_SYMBOL = { spar: "♠", "kløver": "♣", hjerter: "♥", ruter: "♦" };
const RANK_LETTER = { 1: "A", 11: "J", 12: "Q", 13: "K" };

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key === "html") node.innerHTML = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
};

const app = {
  setup: null, // /api/setup
  cards: new Map(), // card id -> card
  plantsByName: new Map(), // lower-case name -> card
  lang: stored(LANG_KEY) || "nb",
  tab: tabState(), // this tab's token and game
  saving: false, // the current game is kept in localStorage (and this tab owns its save)
  game: null, // the last snapshot from the server
  log: [],
  logAfter: 0,
  selected: null, // a hand card picked first (swap, several uses)
  busy: false,
  rules: {},
};

// ---------------------------------------------------------------- words

function t(path, fill = {}) {
  const parts = path.split(".");
  let node = app.setup.texts[app.lang];
  for (const part of parts) node = node?.[part];
  if (typeof node !== "string") return path;
  return node.replace(/\{(\w+)\}/g, (_, key) => (key in fill ? String(fill[key]) : `{${key}}`));
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
  const game = app.game?.game;
  if (game === "idiot") return `${SUIT_SYMBOL[card.suit]}${rankOf(card)}`;
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

function applyTexts() {
  document.documentElement.lang = app.lang;
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
  const button = $("btn-lang");
  button.textContent = t("ui.other_lang");
  button.lang = app.lang === "nb" ? "en" : "nb";
  $("quick-example").replaceChildren(
    ...app.setup.texts[app.lang].example.text.map((line) => el("li", { text: line })),
  );
  $("faq").replaceChildren(
    ...app.setup.texts[app.lang].faq.map((item) =>
      el("details", {}, el("summary", { text: item.q }), el("p", { text: item.a })),
    ),
  );
}

// ---------------------------------------------------------------- server

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  if (response.status === 204) return null;
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = { error: `${response.status} ${response.statusText}` };
  }
  if (!response.ok) {
    const error = new Error(data.error || String(response.status));
    error.status = response.status;
    throw error;
  }
  return data;
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
      data = await api("POST", "/api/replay", { save: data });
      name = `kraftstokk-${save.game}.json`;
    } catch (error) {
      showError(error.message);
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
    const snapshot = await api("POST", "/api/games/resume", { save: log });
    store(SAVE_PREFIX + snapshot.save.game, JSON.stringify(snapshot.save));
    api("DELETE", `/api/games/${snapshot.id}`).catch(() => {});
  } catch {
    // an old save this server cannot continue is dropped
  }
}

// ---------------------------------------------------------------- start page

function chosenGame() {
  return document.querySelector("input[name=game]:checked")?.value || "idiot";
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

function renderStart() {
  const choices = setupChoices();
  $("keep-save").checked = choices.keep !== false;
  const current = document.querySelector("input[name=game]:checked")?.value || choices.game || "idiot";
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
  $("idiot-help").hidden = chosenGame() !== "idiot";
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
  const strength = $("strength").value || stored.bots || "heuristic";
  $("strength").replaceChildren(
    ...spec.bots.map((kind) => el("option", { value: kind, selected: kind === strength, text: t(`bots.${kind}`) })),
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
            el("span", { text: spec.variant_texts?.[v]?.[app.lang] || t(`variants.${spec.name}.${v}`) }),
          ),
        )
      : [el("p", { class: "muted", text: t("ui.no_variants") })]),
  );
  $("idiot-help").hidden = spec.name !== "idiot";
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
  };
  const seed = new URLSearchParams(location.search).get("seed"); // for tests and bug reports
  if (seed && /^\d{1,15}$/.test(seed)) body.seed = Number(seed);
  const keep = $("keep-save").checked;
  store(SETUP_KEY, JSON.stringify({ ...body, seed: undefined, keep }));
  const unfinished = readSave(body.game);
  if (keep && unfinished && !unfinished.finished && !(await confirmReplace(unfinished))) return;
  try {
    const snapshot = await api("POST", "/api/games", body);
    app.saving = keep;
    keepSave(snapshot.save, { claim: true });
    enterTable(snapshot);
  } catch (error) {
    showError(error.message);
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
    const snapshot = await api("POST", "/api/games/resume", { save: sealedSave(save) });
    // A tab that continues a game from the start page takes its save over; a tab whose
    // server forgot the game (retry) keeps saving only while the save is still its own.
    app.saving = retry ? app.saving : Boolean(readSave(save.game)) || app.saving;
    keepSave(snapshot.save, { claim: !retry });
    enterTable(snapshot);
    if (!quiet) flash(t("ui.resumed"));
    return true;
  } catch (error) {
    $("start-message").textContent = t("ui.refused_save", { reason: error.message });
    showStart();
    return false;
  }
}

async function deleteSaved(game) {
  store(SAVE_PREFIX + game, null);
  if (app.game && app.game.game === game) {
    api("DELETE", `/api/games/${app.game.id}`).catch(() => {});
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
    const snapshot = await api("POST", "/api/games/resume", { save: sealedSave(save) });
    const unfinished = readSave(snapshot.save.game);
    const keep = $("keep-save").checked;
    const replacing = unfinished && !unfinished.finished && unfinished.id !== snapshot.save.id;
    if (keep && replacing && !(await confirmReplace(unfinished))) {
      api("DELETE", `/api/games/${snapshot.id}`).catch(() => {});
      return;
    }
    app.saving = keep;
    keepSave(snapshot.save, { claim: true });
    enterTable(snapshot);
  } catch (error) {
    $("start-message").textContent = t("ui.refused_save", { reason: `${file.name}: ${error.message}` });
  }
}

function showStart() {
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
  $("start").hidden = true;
  $("table").hidden = false;
  $("btn-menu").hidden = false;
  $("start-message").textContent = "";
  renderTable();
  focusFirstMove();
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
  try {
    const snapshot = await api("POST", `/api/games/${game.id}/moves`, {
      turn: game.turn, log_after: app.logAfter, ...payload,
    });
    keepSave(snapshot.save);
    app.game = snapshot;
    app.selected = null;
    takeLog(snapshot.log);
    renderTable();
    showHighlights(app.log.filter((line) => line.n > before));
    focusFirstMove();
  } catch (error) {
    if (error.status === 404 || error.status === 409) {
      // The server forgot the game (idle, restarted) or we are behind: continue from the
      // save, and make the move again if the game is where it was when it was chosen.
      app.busy = false;
      const resumed = await continueSaved(game.save, { quiet: true, retry: true });
      if (resumed && error.status === 404 && app.game.turn === game.turn && !retried) {
        await sendMove(payload, true);
      }
    } else {
      showError(error.message);
    }
  } finally {
    app.busy = false;
  }
}

function cardButton(id, { onclick, extra = "", small = false, figure = null, pressed = null } = {}) {
  const card = app.cards.get(id);
  const label = cardLabel(id);
  const image = el("img", { src: `/cards/${encodeURIComponent(id)}.webp`, alt: "", width: 120, height: 168, draggable: "false" });
  let caption = null;
  if (figure === "all" && card && !card.joker) {
    caption = el("span", { class: "fig all" },
      ...["mw", "gwh", "head_m"].map((key) => el("span", {}, el("b", { text: card.figures[key] }), ` #${card.nr[key]}`)));
  } else if (figure && card && !card.joker) {
    caption = el("span", { class: "fig" }, el("b", { text: card.figures[figure] }), el("small", { text: `nr. ${card.nr[figure]}` }));
  } else if (app.game?.game === "idiot" && card && !card.joker) {
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
  const image = el("img", { src: "/cards/back.webp", alt: "", width: 120, height: 168, draggable: "false" });
  const classes = `card back${small ? " small" : ""}${extra ? " " + extra : ""}`;
  if (onclick) return el("button", { type: "button", class: `${classes} playable`, "aria-label": label, onclick }, image);
  return el("div", { class: classes, role: "img", "aria-label": label }, image);
}

function moveLabel(move) {
  const view = app.game.view;
  const names = (move.cards || []).map((id) => shortCard(id)).join(", ");
  switch (move.kind) {
    case "play":
      if (move.cards.length > 1) {
        return t("moves.play_many", { n: move.cards.length, rank: rankOf(app.cards.get(move.cards[0])) });
      }
      return t("moves.play", { cards: names });
    case "swap":
      return t("moves.swap", { a: shortCard(move.cards[0]), b: shortCard(move.cards[1]) });
    case "face_down":
      return t("moves.face_down", { n: move.slot + 1 });
    case "name":
      return t("moves.name", { category: t(`categories.${move.category}`) });
    default:
      return t(`moves.${move.kind}`, { cards: names, category: t(`categories.${view.category || "gwh"}`) });
  }
}

function movesFor(card) {
  return app.game.moves.list.filter((m) => m.cards && m.cards[0] === card);
}

function clickHandCard(id) {
  const game = app.game;
  if (game.view.phase === "swap") {
    app.selected = app.selected === id ? null : id;
    renderTable();
    document.querySelector(`#hand [data-card="${CSS.escape(id)}"]`)?.focus();
    return;
  }
  if (game.moves.claim && game.moves.claim.cards.includes(id) && !movesFor(id).length) {
    openClaim(id);
    return;
  }
  const single = movesFor(id).filter((m) => m.cards.length === 1);
  const all = movesFor(id);
  if (all.length === 1) {
    sendMove({ move: all[0].i });
  } else if (single.length === 1 && all.length === single.length) {
    sendMove({ move: single[0].i });
  } else {
    app.selected = app.selected === id ? null : id;
    renderTable();
    document.querySelector("#moves button")?.focus();
  }
}

function renderTable() {
  const game = app.game;
  const view = game.view;
  const myTurn = !game.over && game.moves.list.length + (game.moves.claim ? 1 : 0) > 0;
  document.body.dataset.game = game.game;

  // Opponents
  $("opponents-row").setAttribute("aria-label", t("ui.player", { n: "" }).trim());
  $("opponents-row").replaceChildren(
    ...view.players
      .filter((p) => p.seat !== game.seat)
      .map((p) => {
        const place = game.over?.order.indexOf(p.seat) ?? -1;
        const status = p.out
          ? t("ui.place", { n: (view.out_order || game.over?.order || []).indexOf(p.seat) + 1 || "" })
          : t("ui.cards_n", { n: p.hand });
        return el(
          "div",
          { class: `opponent${view.current === p.seat && !game.over ? " active" : ""}${p.out ? " out" : ""}`, "data-seat": p.seat },
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
          place >= 0 && false ? null : null,
        );
      }),
  );

  // Status line
  let status;
  if (game.over) status = t("ui.game_over");
  else if (myTurn && game.game === "kraftidioten" && view.phase === "challenge") {
    const last = view.pile.claims[view.pile.claims.length - 1];
    status = t("ui.challenge_q", { n: last.seat + 1, name: last.name, figure: last.figure });
  } else if (myTurn) status = `${t("ui.your_turn")}${t(`phases.${view.phase}`) ? " — " + t(`phases.${view.phase}`) : ""}`;
  else status = t("ui.turn_of", { n: view.current + 1 });
  $("status").textContent = status;
  $("status").classList.toggle("mine", Boolean(myTurn));

  renderPile(view);
  renderExtra(view);
  renderMe(view, myTurn);
  renderMoves(myTurn);
  renderLog();
  renderOver();
  document.body.dataset.turn = String(game.turn);
  document.body.dataset.selected = app.selected || "";
  document.body.dataset.phase = view.phase;
}

function renderPile(view) {
  const pile = $("pile");
  const parts = [];
  if (app.game.game === "kraftidioten") {
    if (view.pile.count) {
      parts.push(el("div", { class: "stack" }, backCard(t("ui.pile")), el("span", { class: "badge", text: String(view.pile.count) })));
    } else {
      parts.push(el("div", { class: "empty-pile", text: t("ui.pile_empty") }));
    }
  } else if (view.pile.top && view.pile.top.length) {
    const tops = view.pile.top.slice(-3);
    parts.push(
      el(
        "div",
        { class: "stack fan" },
        tops.map((id, i) => {
          const top = i === tops.length - 1;
          const figure = app.game.game === "stromkrig" && top ? "gwh" : null;
          return cardButton(id, { extra: top ? "top" : "under nocap", figure });
        }),
        el("span", { class: "badge", text: String(view.pile.count) }),
      ),
    );
  } else {
    parts.push(el("div", { class: "empty-pile", text: t("ui.pile_empty") }));
  }
  pile.replaceChildren(el("div", { class: "pile-label", text: t("ui.pile") }), ...parts);

  const counts = [
    [t("ui.stock"), view.stock],
    [t("ui.burned"), view.burned],
  ];
  const items = counts.map(([label, n]) => el("div", { class: "count" }, el("span", { text: label }), el("b", { text: String(n) })));
  if (app.game.game !== "idiot") {
    items.push(el("div", { class: "count wide" }, el("span", { text: t("ui.category") }), el("b", { text: view.category ? t(`categories.${view.category}`) : t("ui.no_category") })));
  }
  if (app.game.game === "idiot" && view.pile.count) {
    if (view.pile.reset) items.push(el("div", { class: "count wide note", text: t("ui.reset_on") }));
    else if (view.pile.stacked > 1) items.push(el("div", { class: "count wide note", text: t("ui.stacked", { n: view.pile.stacked }) }));
  }
  $("counts").replaceChildren(...items);
}

function renderExtra(view) {
  const box = $("extra");
  const parts = [];
  if (app.game.game === "kraftidioten") {
    const claims = view.pile.claims || [];
    if (claims.length) {
      parts.push(
        el(
          "ol",
          { class: "claims" },
          claims.map((c, i) =>
            el("li", { class: i === claims.length - 1 ? "last" : "" },
              el("span", { class: "who", text: seatName(c.seat) }),
              el("span", { class: "what" }, el("b", { text: c.name }), ` ${c.figure} · nr. ${c.nr}`),
            ),
          ),
        ),
      );
    }
    if (view.challenge && view.pile.top3) parts.push(el("p", { class: "warn", text: t("ui.top3_warning") }));
    if (view.shown && view.shown.length) {
      const last = view.shown[view.shown.length - 1];
      parts.push(el("div", { class: "shown" }, el("span", { text: t("ui.shown") }), cardButton(last.card, { small: true, figure: view.category })));
    }
  }
  if (app.game.game === "stromkrig") {
    if (view.pile.to_beat && view.pile.top && view.pile.top[view.pile.top.length - 1] !== view.pile.to_beat) {
      parts.push(el("div", { class: "shown" }, el("span", { text: t("ui.to_beat") }), cardButton(view.pile.to_beat, { small: true, figure: "gwh" })));
    }
    if (view.pile.beside.length) {
      parts.push(el("div", { class: "shown" }, el("span", { text: t("ui.beside") }), view.pile.beside.map((id) => cardButton(id, { small: true, figure: "gwh" }))));
    }
    if (view.chance_card) {
      parts.push(el("div", { class: "shown" }, el("span", { text: t("ui.chance_card") }), cardButton(view.chance_card, { small: true, figure: "gwh" })));
    }
    if (view.war) {
      const war = view.war;
      parts.push(
        el("div", { class: "war" },
          el("strong", { text: t("ui.war") }),
          el("span", { text: t("ui.war_in", { who: war.players.map((s) => seatName(s)).join(", ") }) }),
          war.category ? el("span", { text: t("ui.war_category", { category: t(`categories.${war.category}`) }) }) : null,
          el("div", { class: "war-cards" }, war.laid.map((l) => el("div", { class: "war-card" }, el("small", { text: seatName(l.seat) }), cardButton(l.card, { small: true, figure: war.category || "gwh" })))),
        ),
      );
    }
  }
  box.replaceChildren(...parts);
  box.hidden = parts.length === 0;
}

function renderMe(view, myTurn) {
  const game = app.game;
  const figure = game.game === "idiot" ? null : view.category || "all";
  const me = view.players.find((p) => p.seat === game.seat);
  const tableRow = [];
  if (game.game === "idiot") {
    const swapping = view.phase === "swap" && myTurn;
    const upButtons = view.face_up.map((id) => {
      let onclick = null;
      if (swapping && app.selected) {
        const move = game.moves.list.find((m) => m.kind === "swap" && m.cards[0] === app.selected && m.cards[1] === id);
        if (move) onclick = () => sendMove({ move: move.i });
      } else if (myTurn && movesFor(id).length) {
        onclick = () => clickHandCard(id);
      }
      return cardButton(id, { onclick, extra: "row-card" });
    });
    const downButtons = view.face_down_slots.map((slot) => {
      const move = game.moves.list.find((m) => m.kind === "face_down" && m.slot === slot);
      return backCard(t("ui.face_down_label", { n: slot + 1 }), { onclick: move ? () => sendMove({ move: move.i }) : null, extra: "row-card" });
    });
    tableRow.push(
      el("div", { class: "row-group" }, el("div", { class: "row-label", text: t("ui.face_up") }), el("div", { class: "cards" }, upButtons)),
      el("div", { class: "row-group" }, el("div", { class: "row-label", text: t("ui.face_down") }), el("div", { class: "cards" }, downButtons)),
    );
  }
  $("my-table").replaceChildren(...tableRow);
  $("my-table").hidden = tableRow.length === 0;

  const claimCards = new Set(game.moves.claim?.cards || []);
  const hand = view.hand.map((id) => {
    const usable = myTurn && (movesFor(id).length > 0 || claimCards.has(id) || (view.phase === "swap" && game.moves.list.some((m) => m.kind === "swap" && m.cards[0] === id)));
    return cardButton(id, {
      onclick: usable ? () => clickHandCard(id) : null,
      figure,
      extra: app.selected === id ? "selected" : "",
      pressed: usable && (view.phase === "swap" || app.selected) ? String(app.selected === id) : null,
    });
  });
  $("hand").replaceChildren(
    el("div", { class: "row-label", text: `${t("ui.hand")} — ${seatName(game.seat)}${me?.out ? " · " + t("ui.out") : ""}` }),
    el("div", { class: "cards hand-cards" }, hand),
  );
  $("hand").setAttribute("aria-label", t("ui.hand"));
}

function renderMoves(myTurn) {
  const game = app.game;
  const box = $("moves");
  if (!myTurn) {
    box.replaceChildren(el("p", { class: "muted", text: game.over ? "" : t("ui.waiting", { n: game.view.current + 1 }) }));
    $("claim").hidden = true;
    return;
  }
  let list = game.moves.list;
  if (game.view.phase === "swap") {
    list = list.filter((m) => m.kind !== "swap" || (app.selected && m.cards[0] === app.selected));
  } else if (app.selected) {
    const narrowed = list.filter((m) => m.cards.includes(app.selected));
    if (narrowed.length) list = narrowed;
  }
  const buttons = list.map((move, index) =>
    el(
      "button",
      { type: "button", class: `move kind-${move.kind}`, "data-kind": move.kind, "data-i": move.i, onclick: () => sendMove({ move: move.i }) },
      index < 9 ? el("kbd", { text: String(index + 1) }) : null,
      el("span", { text: moveLabel(move) }),
    ),
  );
  if (game.moves.claim) {
    const index = buttons.length;
    buttons.unshift(
      el("button", { type: "button", class: "move kind-claim primary", "data-kind": "claim", onclick: () => openClaim(null) },
        el("kbd", { text: String(index + 1) }), el("span", { text: t("moves.claim") })),
    );
    buttons.forEach((b, i) => {
      const kbd = b.querySelector("kbd");
      if (kbd) kbd.textContent = i < 9 ? String(i + 1) : "";
    });
  }
  const hint = game.view.phase === "swap" ? el("p", { class: "hint", text: t("moves.swap_pick") }) : null;
  box.replaceChildren(...(hint ? [hint] : []), ...buttons);
  if (game.moves.claim?.fixed_card) openClaim(game.moves.claim.fixed_card);
  else if (!game.moves.claim) $("claim").hidden = true;
}

function focusFirstMove() {
  if (document.activeElement && document.activeElement !== document.body && document.activeElement.isConnected) return;
  $("moves").querySelector("button")?.focus({ preventScroll: true });
}

// ---------------------------------------------------------------- Kraftidioten claims

function openClaim(cardId) {
  const game = app.game;
  const claim = game.moves.claim;
  if (!claim) return;
  const form = $("claim");
  const card = cardId || claim.fixed_card || claim.cards[0];
  const categories = claim.categories;
  const current = game.view.category || categories[0];
  const own = app.cards.get(card);
  form.replaceChildren(
    el("h3", { text: t("ui.claim_title") }),
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
    el("label", {}, el("span", { text: t("ui.claim_figure") }),
      claim.any_figure
        ? el("input", { name: "amount", id: "claim-amount", inputmode: "decimal", autocomplete: "off" })
        : null,
      el("output", { id: "claim-figure", class: "figure-out" })),
    el("p", { class: "hint", id: "claim-hint" }),
    el("div", { class: "row" },
      el("button", { type: "submit", class: "primary", text: t("ui.claim_submit") }),
      el("button", { type: "button", class: "ghost", text: t("ui.close"), onclick: () => (form.hidden = true) })),
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
    if (plant) {
      if (amountInput && !typed) amountInput.value = String(plant.values[category]).replace(".", app.lang === "nb" ? "," : ".");
      const figure = stated(plant, category);
      const printed = figure === plant.values[category];
      const truth = plant.id === chosen && printed;
      const said = printed ? plant.figures[category] : `${figure} ${plant.figures[category].split(" ").pop()}`;
      $("claim-figure").textContent = `${said} · ${printed ? "nr. " + plant.nr[category] + " · " : ""}${truth ? t("ui.claim_truth") : t("ui.claim_lie")}`;
      if (claim.floor !== null && figure < claim.floor) hint.push(t("ui.claim_floor", { figure: floorText(category) }));
    } else {
      $("claim-figure").textContent = "—";
      hint.push(t("ui.claim_unknown"));
    }
    if (!claim.any_figure) hint.push(t("ui.claim_own_figure"));
    else hint.push(t("ui.claim_any_figure"));
    $("claim-hint").textContent = hint.join(" ");
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
    form.hidden = true;
    const choice = { card: $("claim-card").value, category, plant_id: plant.plant_id };
    if (figure !== plant.values[category]) choice.figure = figure;
    sendMove({ claim: choice });
  };
  form.hidden = false;
  update();
  $("claim-plant").focus();
  $("claim-plant").select();
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
  return line.sentence && NOTABLE.test(line.kind || "");
}

function logText(line) {
  // The engine's sentences name their subject; the interim move lines need the seat.
  const text = line.text[app.lang] || line.text.en;
  return line.sentence ? text : `${seatName(line.seat)}: ${text}`;
}

function renderLog() {
  const list = $("log");
  list.replaceChildren(
    ...app.log.slice(-40).reverse().map((line) => {
      const classes = [line.seat === app.game.seat ? "mine" : "", notable(line) ? "rule" : ""].join(" ").trim();
      return el("li", { class: classes || null, "data-kind": line.kind || null }, logText(line));
    }),
  );
}

function showHighlights(lines) {
  const others = lines.filter((line) => line.seat !== app.game.seat || line.sentence || line.text.en.includes("→"));
  const box = $("highlight");
  if (!others.length) {
    box.replaceChildren();
    return;
  }
  const rules = others.filter(notable);
  const shown = [...others.filter((line) => !notable(line)).slice(-2), ...rules.slice(-3)].sort((a, b) => a.n - b.n);
  box.replaceChildren(...shown.map((line) => el("p", { class: notable(line) ? "rule" : null, text: logText(line) })));
  box.classList.remove("pop");
  void box.offsetWidth;
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
    box.hidden = true;
    return;
  }
  const over = game.over;
  const lines = [el("h2", { text: t("ui.game_over") })];
  if (!over.finished) lines.push(el("p", { text: t("ui.unfinished") }));
  else {
    lines.push(el("ol", {}, over.order.map((seat) => el("li", { text: seatName(seat) }))));
    const key = { idiot: "ui.loser_idiot", kraftidioten: "ui.loser_ki", stromkrig: "ui.loser_sk" }[game.game];
    if (over.loser !== null) lines.push(el("p", { class: "loser", text: t(key, { who: seatName(over.loser) }) }));
  }
  lines.push(el("div", { class: "row" },
    el("button", { type: "button", class: "primary", id: "btn-again", text: t("ui.play_again"), onclick: () => showStart() }),
    el("button", { type: "button", id: "btn-download-log", text: t("ui.download_log"), onclick: () => downloadSave(game.save) })));
  box.replaceChildren(el("div", { class: "over-card" }, lines));
  box.hidden = false;
}

// ---------------------------------------------------------------- rules panel

async function openRules() {
  if (!app.rules[app.lang]) {
    try {
      app.rules[app.lang] = await api("GET", `/api/rules/${app.lang}`);
    } catch (error) {
      showError(error.message);
      return;
    }
  }
  const chapters = app.rules[app.lang];
  const active = app.game?.game || chosenGame();
  const show = (name) => {
    for (const tab of $("rules-tabs").children) tab.setAttribute("aria-selected", String(tab.dataset.game === name));
    const blocks = chapters[name].map(ruleBlock);
    if (name === "idiot") {
      const example = app.setup.texts[app.lang].example.text;
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
    case "cards":
      return el("div", { class: "rule-cards" }, block.cards.map((id, i) => el("figure", {}, cardButton(id, { small: true }), el("figcaption", { html: block.captions[i] || "" }))));
    case "example":
      return el("section", { class: "example" }, el("h5", { html: block.title }), block.body.map(ruleBlock));
    default:
      return el("div");
  }
}

// ---------------------------------------------------------------- keys and start-up

function onKey(event) {
  if (event.target.closest("input, select, textarea, dialog")) return;
  if ($("table").hidden || !/^[1-9]$/.test(event.key) || event.ctrlKey || event.metaKey || event.altKey) return;
  const buttons = [...$("moves").querySelectorAll("button.move")];
  const button = buttons[Number(event.key) - 1];
  if (button) {
    event.preventDefault();
    button.click();
  }
}

async function main() {
  try {
    app.setup = await api("GET", "/api/setup");
  } catch (error) {
    document.body.append(el("p", { class: "error", text: error.message }));
    return;
  }
  for (const card of app.setup.cards) {
    app.cards.set(card.id, card);
    if (!card.joker) app.plantsByName.set(card.name.toLowerCase(), card);
  }
  $("plant-names").replaceChildren(
    ...app.setup.cards.filter((c) => !c.joker).map((c) => c.name).sort((a, b) => a.localeCompare(b, "nb")).map((name) => el("option", { value: name })),
  );
  applyTexts();
  $("setup").addEventListener("submit", startGame);
  $("upload").addEventListener("change", uploadSave);
  $("strength").addEventListener("change", describeStrength);
  $("keep-save").addEventListener("change", () => {
    store(SETUP_KEY, JSON.stringify({ ...setupChoices(), keep: $("keep-save").checked }));
  });
  window.addEventListener("storage", onStorage);
  $("btn-menu").addEventListener("click", showStart);
  $("btn-rules").addEventListener("click", openRules);
  $("btn-rules-close").addEventListener("click", () => $("rules-dialog").close());
  $("btn-lang").addEventListener("click", () => {
    app.lang = app.lang === "nb" ? "en" : "nb";
    store(LANG_KEY, app.lang);
    applyTexts();
    if (!$("start").hidden) renderStart();
    if (app.game && !$("table").hidden) renderTable();
    if ($("rules-dialog").open) openRules();
  });
  document.addEventListener("keydown", onKey);
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
