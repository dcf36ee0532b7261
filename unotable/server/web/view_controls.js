// The controls under the table: the chosen card's play and its UNO call (one large control, in
// the same gesture as the play), the call and the catch while they are open, the color and target
// choosers, the answers to a penalty (with what a challenge costs or wins), and the host's buttons
// between rounds. Each control comes from the seat's own legal actions (NET-2).

import { cardName, COLORS, SHAPES } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { challengeStakes, leavesOne, selectedCard } from "./state.js";
import { nameOf } from "./words.js";

export function renderControls(page, v, legal) {
  const state = page.state;
  const me = state.you.seat;
  const box = h("div", { class: "controls", id: "controls", role: "group", "aria-label": t("act.label") });
  const btn = (id, text, action, cls = "", keys = null) =>
    h("button", { type: "button", id, class: cls, "data-key": id, "aria-keyshortcuts": keys, text, onclick: () => page.act(action) });
  if (state.choice) {
    box.append(renderChooser(page, v));
    return box;
  }
  const colors = legal.filter((a) => a.kind === "color");
  if (colors.length) {
    const why = v.awaiting_color_for === "first_card" ? "act.name_color.first" : "act.name_color.roulette";
    const targets = new Set(colors.map((a) => a.target));
    box.append(h("p", { class: "prompt", text: t(why) }));
    const row = h("div", { class: "color-row" });
    for (const a of colors) {
      const label = a.target === null ? t(`color.${a.color}`) : t("act.color_target", { color: t(`color.${a.color}`), name: nameOf(state, a.target) });
      row.append(h("button", { type: "button", class: `color-btn cb-${a.color}`, "data-key": `color-${a.text}`, "data-action": a.text, onclick: () => page.act(a.text) },
        h("span", { "aria-hidden": "true", text: `${SHAPES[a.color]} ${a.color}` }), " ", label));
    }
    if (targets.size > 1) box.classList.add("with-targets");
    box.append(row);
  }
  const card = selectedCard(state);
  if (card && legal.some((a) => a.kind === "play" && a.card === card)) {
    // the chosen card: play it, or (when it leaves one card) play it and call UNO in one tap
    const moment = leavesOne(legal, card);
    const row = h("div", { class: "play-row" });
    if (moment) {
      row.append(h("button", { type: "button", id: "uno-play", class: "uno-btn huge", "data-key": "uno-play", "aria-keyshortcuts": "U",
        onclick: () => page.playCard(card, true) }, h("span", { class: "uno-word", text: t("act.uno_short") }), h("span", { class: "uno-sub", text: t("act.play_with_uno", { card: cardName(card) }) })));
    }
    row.append(h("button", { type: "button", id: "play-selected", class: moment ? "" : "primary", "data-key": "play-selected",
      text: t(moment ? "act.play_without_uno" : "act.play_card", { card: cardName(card) }), onclick: () => page.playCard(card, false) }));
    box.append(row);
    if (!moment) box.append(h("p", { class: "hint tap-again", text: t("act.tap_again") }));
  }
  if (legal.some((a) => a.kind === "accept")) {
    const pending = v.pending_penalty;
    box.append(btn("accept", pending ? t("act.accept_n", { n: pending }) : t("act.accept"), "accept", "", "A"));
  }
  if (legal.some((a) => a.kind === "challenge")) {
    const stakes = challengeStakes(v);
    box.append(btn("challenge", t("act.challenge"), "challenge", "danger", "X"));
    box.append(h("p", { class: "prompt stakes", id: "stakes", text: t("act.challenge_stakes", { win: stakes.win, lose: stakes.lose }) }));
  }
  if (legal.some((a) => a.kind === "pass")) box.append(btn("pass", t("act.pass"), "pass", "", "P"));
  if (legal.some((a) => a.kind === "uno")) {
    // exposed with one card: the call stays open until someone catches it
    box.append(h("button", { type: "button", id: "call-uno", class: "uno-btn huge", "data-key": "call-uno", "aria-keyshortcuts": "U", onclick: () => page.act("uno") },
      h("span", { class: "uno-word", text: t("act.uno_short") }), h("span", { class: "uno-sub", text: t("act.uno_now") })));
  }
  const playsNow = legal.filter((a) => a.kind === "play");
  if (playsNow.length && v.active !== me) box.append(h("p", { class: "prompt jump", text: t("act.jump_in") }));
  if (v.phase === "respond" && v.active === me && playsNow.length) box.append(h("p", { class: "prompt", text: t("act.respond") }));
  for (const a of legal.filter((x) => x.kind === "catch")) {
    box.append(h("button", { type: "button", id: `catch-btn-${a.target}`, class: "danger catch huge", "data-key": `catch-btn-${a.target}`, "aria-keyshortcuts": "C",
      text: t("act.catch", { name: nameOf(state, a.target) }), onclick: () => page.act(a.text) }));
  }
  if (state.you.host && state.table.status === "round_over") {
    box.append(h("button", { type: "button", id: "next-round", class: "primary", "data-key": "next-round", text: t("act.next_round"), onclick: () => page.send({ type: "next_round" }) }));
  }
  if (!box.childNodes.length) box.append(h("p", { class: "hint", text: waitingFor(page, v) }));
  return box;
}

function waitingFor(page, v) {
  const state = page.state;
  if (state.table.status === "round_over") return t("table.next_round_soon");
  if (state.table.status === "match_over") return t("table.match_over");
  if (v.active === state.you.seat) return t("act.play_hint");
  return t("table.waiting_for", { name: nameOf(state, v.active) });
}

function renderChooser(page, v) {
  const state = page.state;
  const c = state.choice;
  const box = h("div", { class: "chooser", role: "dialog", "aria-label": t("act.choose") });
  const colors = [...new Set(c.options.map((a) => a.color).filter(Boolean))];
  if (c.color === null && colors.length > 1) {
    box.append(h("p", { class: "prompt", text: t("act.choose_color", { card: cardName(c.card) }) }));
    const row = h("div", { class: "color-row" });
    for (const col of COLORS.filter((x) => colors.includes(x))) {
      row.append(h("button", { type: "button", class: `color-btn cb-${col}`, "data-key": `pick-${col}`, "data-color": col, onclick: () => page.chooseColor(col) },
        h("span", { "aria-hidden": "true", text: `${SHAPES[col]} ${col}` }), " ", t(`color.${col}`)));
    }
    box.append(row);
  } else {
    const options = c.color ? c.options.filter((a) => a.color === c.color) : c.options;
    const seven = /^[RYGB]7$/.test(c.card);
    box.append(h("p", { class: "prompt", text: t(seven ? "act.choose_swap" : "act.choose_target", { card: cardName(c.card) }) }));
    const row = h("div", { class: "target-row" });
    for (const a of options) {
      row.append(h("button", { type: "button", class: "target-btn", "data-key": `target-${a.target}`, "data-target": a.target, onclick: () => page.act(a.text) },
        t("act.target", { name: nameOf(state, a.target), n: v.hand_sizes[a.target] })));
    }
    box.append(row);
  }
  box.append(h("button", { type: "button", class: "cancel", "data-key": "cancel", text: t("act.cancel"), onclick: () => page.dispatch({ type: "ui/cancel" }) }));
  return box;
}
