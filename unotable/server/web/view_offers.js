// What a table offers beyond the game (issue 36, items 3 to 5): the summary that waits while its
// players read it ("reading", sent while the page shows a round's summary), a full waiting room
// that says so and asks the host for a seat, the host's answers to those requests, and a rematch
// proposed with the settings the host chose, which every player accepts. Draws a state
// (state.js); acts through the page.

import { h } from "./dom.js";
import { num, t } from "./i18n.js";
import { store } from "./net.js";
import { defaultTarget, PRESETS } from "./options.js";
import { namesList } from "./words.js";

const seated = (state) => state.you.seat !== null && state.you.seat !== undefined;

/**
 * Tell the server whether this player reads the round's summary now: a seat that is not ready,
 * on a page that shows it (the countdown stands still for them, up to the host's limit).
 */
export function syncReading(page) {
  const state = page.state;
  const table = state.table;
  const summary = table?.status === "round_over";
  const want = Boolean(summary && seated(state) && !(table.ready || []).includes(state.you.seat)
    && document.visibilityState === "visible" && page.connState === "open");
  if (!summary) {
    page.readingSent = false; // (the server forgets who read at the deal)
    return;
  }
  if (want === page.readingSent) return;
  if (page.conn.send({ type: "reading", on: want })) page.readingSent = want;
}

/** Who keeps the countdown standing still, in words (null when it runs). */
export function readingLine(state) {
  const reading = state.table.reading || [];
  if (!reading.length) return null;
  return h("p", { class: "hint", id: "reading-list", text: t("sum.reading", { names: namesList(state, reading) }) });
}

// -- a full table --------------------------------------------------------------------------------

function randomKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** True when every seat of the waiting room is taken and this connection holds none. */
export function fullFor(state) {
  return !seated(state) && !state.you.host && state.table.status === "waiting"
    && !state.table.seats.some((s) => s.kind === "empty");
}

/**
 * A full waiting room: say so, say that you are watching, and ask the host for a seat (under the
 * name typed). The key drawn here becomes the seat's token if the host adds the seat.
 */
export function renderFullTable(page, nameInput) {
  const state = page.state;
  const asked = page.asked;
  const box = h("section", { class: "full-table", id: "full-table", role: "status", "aria-labelledby": "full-title" },
    h("h2", { id: "full-title", text: t("full.title") }),
    h("p", { text: t("full.text") }));
  if (asked?.declined) box.append(h("p", { class: "hint", id: "ask-declined", text: t("full.declined") }));
  if (asked && !asked.declined) {
    box.append(h("p", { class: "hint", id: "asked", text: t("full.asked") }));
    return box;
  }
  const ask = () => {
    const name = nameInput.value.trim() || t("wait.default_name", { n: state.table.seats.length + 1 });
    localStorage.setItem("ut:name", name);
    const key = randomKey();
    page.asked = { name, key, declined: false };
    page.send({ type: "ask_seat", name, key });
    page.render();
  };
  box.append(h("div", { class: "row ask-row" },
    h("div", { class: "field" }, h("label", { for: "my-name", text: t("wait.name") }), nameInput),
    h("button", { type: "button", class: "primary", id: "ask-seat", "data-key": "ask-seat", text: t("full.ask"), onclick: ask })));
  return box;
}

/**
 * After each update: a request the host answered. Accepted, a seat holds the asker's name with
 * nobody connected yet: the page takes it (its key is the token). Gone otherwise: declined.
 */
export function followAsk(page) {
  const asked = page.asked;
  const table = page.state.table;
  if (!asked || asked.declined || !table || seated(page.state)) return;
  const waiting = (table.asks || []).some((a) => a.name === asked.name);
  if (waiting) {
    asked.seen = true;
    return;
  }
  if (!asked.seen) return; // (the update that carries the request is still on its way)
  const mine = table.seats.some((s) => s.kind === "human" && s.name === asked.name && !s.connected);
  if (mine) {
    store.set(page.tableId, "seat", asked.key);
    page.asked = null;
    page.conn.close();
    page.conn.open();
  } else {
    asked.declined = true;
  }
}

/** The host's list of requests for a seat: add a seat (one tap) or decline. */
export function renderSeatAsks(page) {
  const table = page.state.table;
  const asks = table.asks || [];
  if (!page.state.you.host || !asks.length) return null;
  const most = table.seats.length >= 10;
  return h("section", { class: "seat-asks", id: "seat-asks", role: "alert", "aria-labelledby": "asks-title" },
    h("h2", { id: "asks-title", text: t("asks.title") }),
    h("ul", {}, asks.map((a) => h("li", { class: "seat-ask", "data-ask": a.ask },
      h("span", { text: t("asks.line", { name: a.name }) }),
      h("span", { class: "seat-actions" },
        most ? h("span", { class: "hint", text: t("asks.most") })
          : h("button", { type: "button", class: "primary", id: `add-seat-${a.ask}`, "data-key": `add-seat-${a.ask}`, text: t("asks.add"),
            onclick: () => page.send({ type: "answer_seat", ask: a.ask, accept: true }) }),
        h("button", { type: "button", id: `decline-seat-${a.ask}`, "data-key": `decline-seat-${a.ask}`, text: t("asks.decline"),
          onclick: () => page.send({ type: "answer_seat", ask: a.ask, accept: false }) }))))));
}

// -- a rematch -----------------------------------------------------------------------------------

/** The rematch's rules and points to win, in words. */
function terms(settings) {
  const preset = settings?.preset || "official";
  const target = settings?.options?.target_score ?? defaultTarget(preset);
  return t("rematch.terms", { rules: t(`preset.${preset}`), n: num(target) });
}

/**
 * After the match: the host proposes a rematch with the rules and the points to win they choose
 * (changing them asks everyone again); each player accepts; bots accept. Nobody's summary or
 * review is replaced until everyone connected has accepted.
 */
export function renderRematch(page) {
  const state = page.state;
  const table = state.table;
  const offer = table.rematch;
  const me = state.you.seat;
  const box = h("section", { class: "rematch-box", id: "rematch-box", "aria-labelledby": "rematch-title" },
    h("h3", { id: "rematch-title", text: t("rematch.title") }));
  if (offer) {
    const accepted = new Set(offer.accepted || []);
    const waiting = table.seats.map((s, i) => i).filter((i) => !accepted.has(i) && table.seats[i].kind === "human" && table.seats[i].connected);
    box.append(h("p", { class: "lead", id: "rematch-terms", text: t("rematch.offer", { terms: terms(table.settings) }) }));
    if (seated(state) && !accepted.has(me)) {
      box.append(h("button", { type: "button", class: "primary big", id: "accept-rematch", "data-key": "accept-rematch", text: t("rematch.accept"),
        onclick: () => page.send({ type: "accept_rematch" }) }));
    } else if (seated(state)) {
      box.append(h("p", { class: "hint", id: "rematch-you", text: t("rematch.you_accepted") }));
    }
    box.append(h("p", { class: "hint", id: "rematch-list", text: t("rematch.accepted", { names: namesList(state, [...accepted]) }) }));
    if (waiting.length) box.append(h("p", { class: "hint", id: "rematch-waiting", text: t("rematch.waiting", { names: namesList(state, waiting) }) }));
  }
  if (!state.you.host) {
    if (!offer) box.append(h("p", { class: "hint", text: t("rematch.host_proposes") }));
    return box;
  }
  const st = table.settings;
  const preset = h("select", { id: "rematch-preset", "data-key": "rematch-preset" }, PRESETS.map((p) => h("option", { value: p, text: t(`preset.${p}`) })));
  const target = h("input", { id: "rematch-target", "data-key": "rematch-target", type: "number", min: 1, max: 100000, inputmode: "numeric" });
  const draft = page.drafts.rematch || {};
  preset.value = draft.preset ?? st.preset;
  target.value = draft.target ?? String(st.options?.target_score ?? defaultTarget(st.preset));
  preset.addEventListener("change", () => {
    target.value = String(defaultTarget(preset.value));
    page.drafts.rematch = { preset: preset.value, target: target.value };
  });
  target.addEventListener("input", () => { page.drafts.rematch = { preset: preset.value, target: target.value }; });
  const changed = () => preset.value !== st.preset || target.value !== String(st.options?.target_score ?? defaultTarget(st.preset));
  const sendSettings = () => {
    const goal = Number(target.value);
    const options = preset.value === st.preset ? { ...(st.options || {}) } : {};
    delete options.target_score;
    if (Number.isInteger(goal) && goal >= 1 && goal !== defaultTarget(preset.value)) options.target_score = goal;
    page.send({ type: "settings", preset: preset.value, options });
  };
  const field = (id, label, control) => h("div", { class: "field" }, h("label", { for: id, text: label }), control);
  box.append(h("div", { class: "row" }, field("rematch-preset", t("create.preset"), preset), field("rematch-target", t("create.target"), target)));
  const buttons = h("div", { class: "row buttons" });
  if (!offer) {
    buttons.append(h("button", { type: "button", class: "primary big", id: "rematch", "data-key": "rematch", text: t("rematch.propose"),
      onclick: () => {
        if (changed()) sendSettings();
        page.drafts.rematch = null;
        page.send({ type: "rematch" });
      } }));
  } else {
    buttons.append(h("button", { type: "button", id: "rematch-apply", "data-key": "rematch-apply", text: t("rematch.change"),
      onclick: () => { if (changed()) sendSettings(); page.drafts.rematch = null; } }));
    buttons.append(h("button", { type: "button", id: "rematch-now", "data-key": "rematch-now", text: t("rematch.now"),
      onclick: () => page.send({ type: "rematch" }) }));
  }
  box.append(buttons);
  return box;
}
