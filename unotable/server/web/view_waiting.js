// The waiting room: the seats (sit, leave, bots, kicks), the rules in force, the invitation, and
// the host's settings. Draws a state (state.js); acts through the page.

import { h } from "./dom.js";
import { num, t } from "./i18n.js";
import { shareBox } from "./landing.js";
import { store } from "./net.js";
import { BOT_LEVELS, botLabel, defaultTarget, houseSwitches, PRESETS, presetValue, PUBLIC_URL, TOGGLES } from "./options.js";
import { rulesInForce } from "./state.js";
import { fullFor, renderFullTable, renderSeatAsks } from "./view_offers.js";
import { nameOf } from "./words.js";

export function errorLine(state) {
  const err = state.error;
  const text = err ? err.text ?? t(`error.${err.code}`) : "";
  return h("p", { class: "error", role: "alert", id: "error", title: err?.message || "" }, text);
}

/**
 * The rules in force as a chip: the rule set and every house rule switched on, each a link to
 * its section of the rules page (opened beside the table, which stays connected).
 */
export function rulesChip(settings, { id = "rules-chip" } = {}) {
  const preset = settings?.preset || "official";
  const link = (href, text, cls) => h("a", { href, class: cls, target: "_blank", rel: "noopener", text });
  const on = rulesInForce(settings, TOGGLES, presetValue);
  return h("nav", { class: "rules-chip", id, "aria-label": t("rules.in_force") },
    link(`/rules#preset-${preset}`, t(`preset.${preset}`), "preset"),
    on.map((opt) => link(`/rules#opt-${opt}`, t(`opt.${opt}`), "rule")));
}

export function renderWaiting(page) {
  const state = page.state;
  const table = state.table;
  const mine = state.you.seat;
  const host = state.you.host;
  const filled = table.seats.filter((s) => s.kind !== "empty").length;
  const nameInput = h("input", {
    type: "text", id: "my-name", "data-key": "my-name", maxlength: 24, autocomplete: "nickname",
    placeholder: t("wait.name_placeholder"), "aria-label": t("wait.name"),
  });
  nameInput.value = page.drafts.name ?? (localStorage.getItem("ut:name") || "");
  nameInput.addEventListener("input", () => { page.drafts.name = nameInput.value; });
  const levelSel = h("select", { id: "add-level", "aria-label": t("create.bot_level") },
    BOT_LEVELS.map((l) => h("option", { value: l, text: botLabel(l) })));
  levelSel.value = table.settings.bot_level || "heuristic";
  const sit = (seat) => {
    const name = nameInput.value.trim() || t("wait.default_name", { n: seat + 1 });
    localStorage.setItem("ut:name", name);
    page.send({ type: "sit", seat, name });
  };
  const rows = table.seats.map((s, i) => {
    const label = s.kind === "empty" ? t("wait.free") : s.kind === "bot" ? t("seat.bot_named", { name: nameOf({ table }, i), level: botLabel(s.level) }) : s.name;
    const actions = [];
    if (s.kind === "empty" && mine === null) {
      actions.push(h("button", { type: "button", class: "primary sit", "data-key": `sit-${i}`, "data-seat": i, text: t("wait.sit"), onclick: () => sit(i) }));
    }
    if (host && s.kind === "empty") {
      actions.push(h("button", { type: "button", class: "add-bot", "data-key": `bot-${i}`, text: t("wait.add_bot"), onclick: () => page.send({ type: "add_bot", seat: i, level: levelSel.value }) }));
    }
    if (host && s.kind === "bot") {
      actions.push(h("button", { type: "button", class: "remove-bot", "data-key": `unbot-${i}`, text: t("wait.remove_bot"), onclick: () => page.send({ type: "remove_bot", seat: i }) }));
    }
    if (host && s.kind === "human" && i !== mine) {
      actions.push(h("button", { type: "button", class: "kick", "data-key": `kick-${i}`, text: t("wait.kick"), onclick: () => page.send({ type: "kick", seat: i }) }));
    }
    if (i === mine) {
      actions.push(renameForm(page, s.name));
      actions.push(h("button", { type: "button", class: "leave", "data-key": "leave", text: t("wait.leave"), onclick: () => { store.set(page.tableId, "seat", null); page.leaveSeat(); page.send({ type: "leave" }); } }));
    }
    return h("li", { class: `seat-row kind-${s.kind}${i === mine ? " me" : ""}`, "data-seat": i },
      h("span", { class: "seat-no", text: num(i + 1) }),
      h("span", { class: "seat-name" }, label, i === mine ? h("span", { class: "badge", text: t("seat.you") }) : null),
      s.kind === "human" ? h("span", { class: `dot ${s.connected ? "on" : "off"}`, text: t(s.connected ? "seat.connected" : "seat.away") }) : null,
      h("span", { class: "seat-actions" }, actions));
  });
  const settings = table.settings;
  const summary = [
    settings.turn_seconds ? t("create.seconds", { n: settings.turn_seconds }) : t("create.no_timer"),
  ];
  if (settings.options?.target_score) summary.push(t("wait.target", { n: settings.options.target_score }));
  // how soon a bot catches a person who did not call UNO (the table's catch_reaction)
  if (settings.catch_reaction) summary.push(t("wait.catch_reaction", { n: Number(settings.catch_reaction) }));
  const invite = [h("h2", { text: t("wait.invite") }), shareBox((PUBLIC_URL || location.origin) + location.pathname, { compact: true })];
  // a full table says so, and asks the host for a seat (the name box goes with the request)
  const full = fullFor(state);
  const seatsPart = [
    full ? renderFullTable(page, nameInput) : null,
    h("h2", { text: t("wait.seats") }),
    mine === null && !full ? h("div", { class: "field" }, h("label", { for: "my-name", text: t("wait.name") }), nameInput) : null,
    h("ol", { class: "seats-list" }, rows),
  ];
  // the host shares the link first; a friend who opened it finds the seats first
  return h("section", { class: "panel waiting", "aria-labelledby": "wait-title" },
    h("h1", { id: "wait-title", text: t("wait.title") }),
    h("p", { class: "hint", text: summary.join(" · ") }),
    rulesChip(settings),
    renderSeatAsks(page),
    host ? invite : seatsPart,
    host ? seatsPart : null,
    host ? h("div", { class: "host-controls" },
      h("label", { for: "add-level", text: t("create.bot_level") }), levelSel,
      h("button", { type: "button", class: "primary big", id: "start", "data-key": "start", disabled: filled < 2, text: t("wait.start"), onclick: () => page.send({ type: "start" }) }),
      filled < 2 ? h("p", { class: "hint", text: t("wait.need_two") }) : null) : full ? null : h("p", { class: "hint", text: t("wait.host_starts") }),
    host ? renderSettings(page, table) : invite,
    h("p", { class: "hint", text: t("table.spectators", { n: table.spectators }) }),
    errorLine(state));
}

/** Change my name without leaving the seat. */
function renameForm(page, current) {
  const input = h("input", { type: "text", id: "rename-input", "data-key": "rename-input", maxlength: 24, autocomplete: "nickname", "aria-label": t("wait.rename_label") });
  input.value = page.drafts.rename ?? current ?? "";
  input.addEventListener("input", () => { page.drafts.rename = input.value; });
  const form = h("form", { class: "rename", id: "rename-form" }, input, h("button", { type: "submit", id: "rename-btn", text: t("wait.rename") }));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const name = input.value.trim();
    if (!name) return;
    localStorage.setItem("ut:name", name);
    page.drafts.rename = undefined;
    page.send({ type: "rename", name });
  });
  return form;
}

/** The host's settings in the waiting room: rules and house rules, seats, turn timer, points to win. */
function renderSettings(page, table) {
  const st = table.settings;
  const preset = h("select", { id: "set-preset", "data-key": "set-preset" }, PRESETS.map((p) => h("option", { value: p, text: t(`preset.${p}`) })));
  preset.value = st.preset;
  const seats = h("select", { id: "set-seats", "data-key": "set-seats" });
  for (let n = 2; n <= 10; n++) seats.append(h("option", { value: n, text: num(n) }));
  seats.value = String(st.seats);
  const timer = h("select", { id: "set-timer", "data-key": "set-timer" },
    [0, 20, 30, 60, 90, 120].map((x) => h("option", { value: x, text: x ? t("create.seconds", { n: x }) : t("create.no_timer") })));
  timer.value = String(st.turn_seconds || 0);
  const pause = h("select", { id: "set-pause", "data-key": "set-pause" },
    [8, 15, 30, 60, 120, 300].map((x) => h("option", { value: x, text: t("create.seconds", { n: x }) })));
  // a table created with another countdown (through the API) keeps it as a choice
  if (![8, 15, 30, 60, 120, 300].includes(st.round_pause)) {
    pause.append(h("option", { value: st.round_pause, text: t("create.seconds", { n: st.round_pause }) }));
  }
  pause.value = String(st.round_pause ?? 8);
  // the longest the countdown waits while someone reads the summary (read_limit)
  const readLimits = [30, 60, 120, 300, 600];
  const readLimit = h("select", { id: "set-read-limit", "data-key": "set-read-limit" },
    [...new Set([...readLimits, st.read_limit ?? 60])].map((x) => h("option", { value: x, text: t("create.seconds", { n: x }) })));
  readLimit.value = String(st.read_limit ?? 60);
  if (!timer.value) timer.value = "0";
  const target = h("input", { id: "set-target", "data-key": "set-target", type: "number", min: 1, max: 100000, inputmode: "numeric" });
  // the table's points to win, or another rule set's own
  const goalOf = (name) => String(name === st.preset ? st.options?.target_score ?? defaultTarget(name) : defaultTarget(name));
  target.value = goalOf(st.preset);
  const switches = houseSwitches("set-opt");
  const field = (id, label, control) => h("div", { class: "field" }, h("label", { for: id, text: label }), control);
  // what the host changed but has not applied yet survives the re-renders of other updates
  const draft = page.drafts.settings || {};
  for (const [el, key] of [[preset, "preset"], [seats, "seats"], [timer, "timer"], [target, "target"], [pause, "pause"], [readLimit, "readLimit"]]) {
    if (draft[key] !== undefined) el.value = draft[key];
    el.addEventListener("change", () => { page.drafts.settings = { ...(page.drafts.settings || {}), [key]: el.value }; });
  }
  switches.set(preset.value, preset.value === st.preset ? st.options || {} : {});
  for (const [opt, on] of Object.entries(draft.switches || {})) {
    if (!switches.boxes[opt].disabled) switches.boxes[opt].checked = on;
  }
  for (const [opt, box] of Object.entries(switches.boxes)) {
    box.addEventListener("change", () => {
      const d = page.drafts.settings || {};
      page.drafts.settings = { ...d, switches: { ...(d.switches || {}), [opt]: box.checked } };
    });
  }
  preset.addEventListener("change", () => {
    // another rule set: its own house rules and points to win, until the host changes them
    page.drafts.settings = { ...(page.drafts.settings || {}), switches: {}, target: goalOf(preset.value) };
    switches.set(preset.value, preset.value === st.preset ? st.options || {} : {});
    target.value = goalOf(preset.value);
  });
  const apply = () => {
    page.drafts.settings = null;
    // options the switches do not show (set through the API) are kept while the rule set stays
    const kept = preset.value === st.preset ? { ...(st.options || {}) } : {};
    for (const tg of TOGGLES) delete kept[tg.opt];
    delete kept.target_score;
    const options = { ...kept, ...switches.read(preset.value) };
    const goal = Number(target.value);
    if (Number.isInteger(goal) && goal >= 1 && goal !== defaultTarget(preset.value)) options.target_score = goal;
    page.send({
      type: "settings", preset: preset.value, seats: Number(seats.value), turn_seconds: Number(timer.value),
      round_pause: Number(pause.value), read_limit: Number(readLimit.value), options,
    });
  };
  return h("details", { class: "settings-box", id: "settings" },
    h("summary", { text: t("wait.settings") }),
    h("div", { class: "row" }, field("set-preset", t("create.preset"), preset), field("set-seats", t("create.seats"), seats)),
    switches.element,
    h("div", { class: "row" }, field("set-timer", t("create.timer"), timer), field("set-target", t("create.target"), target)),
    h("div", { class: "row" }, field("set-pause", t("wait.round_pause"), pause), field("set-read-limit", t("wait.read_limit"), readLimit)),
    h("button", { type: "button", id: "apply-settings", "data-key": "apply-settings", text: t("wait.apply"), onclick: apply }));
}

