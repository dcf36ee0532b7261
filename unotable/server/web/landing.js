// The landing page: create a table (preset, house rules, seats, bots, turn timer, target), then
// share its link (copy, the phone's share sheet) and open it. The host token the server answers is
// kept in localStorage for that table only.

import { copyText, clear, h } from "./dom.js";
import { num, t } from "./i18n.js";
import { store } from "./net.js";
import { BOT_LEVELS, botLabel, DEFAULTS, defaultTarget, houseSwitches, PRESETS, seatCounts } from "./options.js";
import { qrSvg } from "./qr.js";
import { reachable } from "./state.js";

export { BOT_LEVELS, PRESETS };

export function renderLanding(root) {
  clear(root);
  const form = h("form", { class: "panel create", id: "create-form", novalidate: true });
  const presetSel = h(
    "select",
    { id: "preset", name: "preset" },
    PRESETS.map((p) => h("option", { value: p, text: t(`preset.${p}`) })),
  );
  presetSel.value = DEFAULTS.preset;
  const presetDesc = h("p", { class: "hint", id: "preset-desc" });
  const switches = houseSwitches("opt");
  const seats = h("select", { id: "seats", name: "seats" });
  const bots = h("select", { id: "bots", name: "bots" });
  const level = h("select", { id: "bot-level", name: "bot_level" },
    BOT_LEVELS.map((l) => h("option", { value: l, text: botLabel(l) })));
  level.value = DEFAULTS.bot_level;
  const timer = h("select", { id: "timer", name: "turn_seconds" },
    [0, 20, 30, 60, 90, 120].map((s) => h("option", { value: s, text: s ? t("create.seconds", { n: s }) : t("create.no_timer") })));
  timer.value = "60";
  const target = h("input", { id: "target", name: "target_score", type: "number", min: 1, max: 100000, step: 1, inputmode: "numeric" });
  const error = h("p", { class: "error", role: "alert", id: "create-error" });

  function fillSeats() {
    const preset = presetSel.value;
    const range = seatCounts(preset);
    const keep = Number(seats.value) || DEFAULTS.seats;
    clear(seats);
    for (const n of range) seats.append(h("option", { value: n, text: num(n) }));
    seats.value = String(range.includes(keep) ? keep : range.includes(DEFAULTS.seats) ? DEFAULTS.seats : range[0]);
    fillBots();
  }
  function fillBots() {
    const n = Number(seats.value);
    const keep = Number(bots.value || 0);
    clear(bots);
    for (let b = 0; b < n; b++) bots.append(h("option", { value: b, text: num(b) }));
    bots.value = String(Math.min(keep, n - 1));
  }
  function onPreset() {
    const preset = presetSel.value;
    presetDesc.textContent = t(`preset.${preset}.desc`);
    switches.set(preset);
    target.value = String(defaultTarget(preset));
    fillSeats();
  }
  presetSel.addEventListener("change", onPreset);
  seats.addEventListener("change", fillBots);

  const field = (id, label, control, hint) =>
    h("div", { class: "field" }, h("label", { for: id, text: label }), control, hint ? h("span", { class: "hint", text: hint }) : null);

  form.append(
    h("h1", { text: t("create.title") }),
    h("p", { class: "lead", text: t("create.lead") }),
    field("preset", t("create.preset"), presetSel),
    presetDesc,
    switches.element,
    h("div", { class: "row" },
      field("seats", t("create.seats"), seats),
      field("bots", t("create.bots"), bots),
      field("bot-level", t("create.bot_level"), level)),
    h("div", { class: "row" },
      field("timer", t("create.timer"), timer, t("create.timer.hint")),
      field("target", t("create.target"), target)),
    error,
    h("button", { type: "submit", class: "primary big", id: "create-btn", text: t("create.submit") }),
  );
  onPreset();
  root.append(form, h("p", { class: "panel rules-teaser" },
    h("a", { href: "/rules", id: "rules-link", class: "button", text: t("rules.title") }),
    h("span", { class: "hint", text: t("rules.teaser") })));

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    const preset = presetSel.value;
    const options = switches.read(preset);
    const goal = Number(target.value);
    if (Number.isInteger(goal) && goal >= 1 && goal !== defaultTarget(preset)) options.target_score = goal;
    const n = Number(seats.value);
    const nb = Number(bots.value);
    const body = {
      preset,
      options,
      seats: n,
      bots: Array.from({ length: n }, (_, i) => (i >= n - nb ? level.value : null)),
      bot_level: level.value,
      turn_seconds: Number(timer.value),
    };
    const btn = form.querySelector("#create-btn");
    btn.disabled = true;
    try {
      const res = await fetch("/api/tables", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const doc = await res.json();
      if (!res.ok) {
        error.textContent = t("create.failed", { reason: doc.message || res.status });
        return;
      }
      store.set(doc.table, "host", doc.host_token);
      renderShare(root, doc);
    } catch (exc) {
      error.textContent = t("create.failed", { reason: String(exc) });
    } finally {
      btn.disabled = false;
    }
  });
}

/** The share panel: the link, a copy button, the share sheet where there is one, and the way in. */
export function shareBox(url, { compact = false, id = null } = {}) {
  const name = id || (compact ? "share-link-small" : "share-link");
  const input = h("input", { type: "text", readonly: true, class: "link", id: name, dir: "ltr", "aria-label": t(id ? "move.link" : "share.link") });
  input.value = url;
  input.addEventListener("focus", () => input.select());
  const status = h("span", { class: "hint", role: "status" });
  const copy = h("button", {
    type: "button", class: "copy", id: `copy-${name}`, text: t("share.copy"),
    onclick: async () => {
      status.textContent = (await copyText(url)) ? t("share.copied") : t("share.copy_failed");
    },
  });
  const share = navigator.share && !id
    ? h("button", {
      type: "button", class: "share", text: t("share.share"),
      onclick: () => navigator.share({ title: t("app.title"), text: t("share.invite"), url }).catch(() => {}),
    })
    : null;
  let qr = null;
  try {
    qr = qrSvg(url, t("share.qr"));
  } catch {
    qr = null; // a link too long for version 10: the link and the buttons still work
  }
  const code = qr && (compact
    ? h("details", { class: "qr-box", "data-key": `qr-${name}` }, h("summary", { text: t("share.show_qr") }), qr)
    : h("div", { class: "qr-box" }, qr, h("span", { class: "hint", text: t("share.scan") })));
  // a link to 127.0.0.1 or localhost reaches only this computer: say so, and how to share instead
  let host = "";
  try {
    host = new URL(url).hostname;
  } catch {
    host = location.hostname;
  }
  const local = !id && !reachable(host)
    ? h("p", { class: "warn", id: `${name}-local`, role: "note" }, h("strong", { text: t("share.local_only") }), " ", t("share.local_hint"))
    : null;
  return h("div", { class: "share-box" }, local, input, h("div", { class: "row" }, copy, share), status, code);
}

function renderShare(root, doc) {
  clear(root);
  root.append(
    h("section", { class: "panel share-panel", "aria-labelledby": "share-title" },
      h("h1", { id: "share-title", text: t("share.title") }),
      h("p", { class: "lead", text: t("share.lead") }),
      shareBox(doc.url),
      h("a", { class: "button primary big", href: `/t/${doc.table}`, id: "open-table", text: t("share.open") })),
  );
  root.querySelector("#open-table").focus();
}
