// The table in play: the other seats around it in turn order from the viewer (who sits at the
// bottom), the piles in the middle with the current color, the direction and the next player, and
// the round's summary. Draws a state (state.js); acts through the page.

import { cardBack, cardElement, SHAPES } from "./cards.js";
import { h } from "./dom.js";
import { num, t } from "./i18n.js";
import { botLabel } from "./options.js";
import { nextSeat, ringOrder, ringPlaces } from "./state.js";
import { readingLine, renderRematch } from "./view_offers.js";
import { renderReview } from "./view_review.js";
import { nameOf, namesList } from "./words.js";

function acting(v, s) {
  return v.active === s && v.phase !== "round_over" && v.phase !== "match_over";
}

/** The seat's chip: name, cards, UNO state, timer, and the catch control when it may be caught. */
function seatChip(page, v, s, legal, place) {
  const state = page.state;
  const info = state.table.seats[s] || {};
  const now = acting(v, s);
  const next = nextSeat(v) === s && !now;
  const catchAct = legal.find((a) => a.kind === "catch" && a.target === s);
  const badges = [];
  if (v.dealer === s) badges.push(h("span", { class: "badge dealer", text: t("seat.dealer") }));
  if (info.kind === "bot") badges.push(h("span", { class: "badge bot", text: t("seat.bot", { level: botLabel(info.level) }) }));
  if (info.autopilot) badges.push(h("span", { class: "badge", text: t("seat.autopilot") }));
  if (info.kind === "human" && !info.connected) badges.push(h("span", { class: "badge off", text: t("seat.away") }));
  if (v.called[s]) badges.push(h("span", { class: "badge uno", text: t("seat.uno") }));
  if (v.exposed[s]) badges.push(h("span", { class: "badge exposed", text: t("seat.exposed") }));
  if (v.knocked_out[s]) badges.push(h("span", { class: "badge off", text: t("seat.knocked_out") }));
  if (v.eliminated[s]) badges.push(h("span", { class: "badge off", text: t("seat.eliminated") }));
  if (next) badges.push(h("span", { class: "badge next", text: t("seat.next") }));
  const count = v.hand_sizes[s];
  const style = place ? `--x:${place.x};--y:${place.y}` : null;
  return h("li", {
    class: `seat${now ? " acting" : ""}${next ? " next" : ""}${v.exposed[s] ? " exposed" : ""}`, "data-seat": s, style,
    "aria-label": t("seat.aria", { name: nameOf(state, s), n: count }),
    "aria-current": now ? "true" : null,
  },
  h("span", { class: "seat-name", text: nameOf(state, s) }),
  h("span", { class: "count" }, h("span", { class: "mini-back", "aria-hidden": "true" }), h("span", { class: "n", text: num(count) }),
    h("span", { class: "sr-only", text: t("seat.cards", { n: count }) })),
  h("span", { class: "score", text: t("seat.score", { n: v.scores[s] }) }),
  badges.length ? h("span", { class: "badges" }, badges) : null,
  now ? h("span", { class: "turn-mark" }, h("span", { class: "sr-only", text: t("seat.acting") }), page.turnEndsAt !== null ? h("span", { class: "timer" }) : null) : null,
  page.bubbles?.has(s) ? h("span", { class: "bubble", "data-reaction": page.bubbles.get(s).reaction, role: "presentation", text: t(`react.${page.bubbles.get(s).reaction}`) }) : null,
  catchAct ? h("button", { type: "button", class: "catch danger", "data-key": `catch-${s}`, "data-target": s, text: t("act.catch_short"), "aria-label": t("act.catch", { name: nameOf(state, s) }), onclick: () => page.act(catchAct.text) }) : null);
}

export function renderRing(page, v, legal) {
  const state = page.state;
  const me = state.you.seat;
  const order = ringOrder(v.hand_sizes.length, me);
  const places = ringPlaces(order.length);
  const ring = h("div", { class: "ring", "data-seats": v.hand_sizes.length, style: `--others:${order.length}` });
  const list = h("ol", { class: "seats", "aria-label": t("table.seats") });
  order.forEach((s, i) => list.append(seatChip(page, v, s, legal, places[i])));
  ring.append(list);
  if (me !== null && me !== undefined) {
    const mine = acting(v, me);
    ring.append(h("div", { class: `me-spot${mine ? " acting" : ""}${nextSeat(v) === me && !mine ? " next" : ""}`, "aria-hidden": "true" },
      h("span", { class: "seat-name", text: t("seat.you") }),
      page.bubbles?.has(me) ? h("span", { class: "bubble", "data-reaction": page.bubbles.get(me).reaction, text: t(`react.${page.bubbles.get(me).reaction}`) }) : null,
      nextSeat(v) === me && !mine ? h("span", { class: "badge next", text: t("seat.next") }) : null));
  }
  ring.append(renderCenter(page, v, legal));
  return ring;
}

/**
 * Place the seats for the ring's real shape (once it is laid out): evenly along the arc whatever
 * the width and height of the screen.
 */
export function placeSeats(root) {
  for (const ring of root.querySelectorAll(".ring")) {
    const chips = [...ring.querySelectorAll(".seats .seat")];
    if (!chips.length) continue;
    const box = ring.getBoundingClientRect();
    const chip = chips[0].getBoundingClientRect();
    const w = box.width - chip.width;
    const hgt = box.height - chip.height;
    if (w <= 0 || hgt <= 0) continue;
    ringPlaces(chips.length, hgt / w).forEach((p, i) => {
      chips[i].style.setProperty("--x", String(p.x));
      chips[i].style.setProperty("--y", String(p.y));
    });
  }
}

function renderCenter(page, v, legal) {
  const state = page.state;
  const drawAct = legal.find((a) => a.kind === "draw");
  const pile = h("div", { class: "pile draw-pile" },
    drawAct
      ? h("button", { type: "button", class: "draw-btn", id: "draw", "data-key": "draw", "aria-keyshortcuts": "D", "aria-label": t("act.draw_aria", { n: v.draw_pile_size }), onclick: () => page.act("draw") },
        cardBack(), h("span", { class: "pile-label", text: t("act.draw") }))
      : h("div", { class: "draw-static" }, cardBack()),
    h("span", { class: "pile-count", id: "draw-count", text: t("table.draw_pile", { n: v.draw_pile_size }) }));
  const top = v.top_card;
  const color = v.current_color;
  const topKey = `${v.discard_pile.length}:${top}`;
  const fresh = topKey !== page.lastTopKey;
  page.lastTopKey = topKey;
  const topEl = top ? cardElement(top, { big: true }) : h("div", { class: "card empty" });
  if (fresh) topEl.classList.add("arrive");
  const discard = h("div", { class: `pile discard${color ? ` ring-${color}` : ""}`, id: "discard", "data-color": color || "" },
    topEl,
    h("span", { class: `current-color cc-${color || "none"}`, id: "current-color" },
      color ? `${SHAPES[color]} ${t("table.color", { color: t(`color.${color}`) })}` : t("table.no_color")));
  const cw = v.direction > 0;
  const dirText = t(cw ? "table.direction.cw" : "table.direction.ccw");
  const next = nextSeat(v);
  const info = h("div", { class: "table-info" },
    h("span", { class: "direction", id: "direction", title: dirText, "data-dir": cw ? "cw" : "ccw" },
      h("span", { class: "arrow", "aria-hidden": "true", text: cw ? "↻" : "↺" }), h("span", { class: "dir-text", text: dirText })),
    next !== null ? h("span", { class: "next-player", id: "next-player", text: t("table.next", { name: next === state.you.seat ? t("seat.you") : nameOf(state, next) }) }) : null);
  return h("div", { class: "center" }, h("div", { class: "piles" }, pile, discard), info);
}

/** The penalty waiting ("+2 pending against Dara"), above the controls that answer it. */
export function penaltyPill(page, v) {
  return h("p", { class: "penalty", id: "penalty", role: "status" },
    t("table.pending", { n: v.pending_penalty, name: nameOf(page.state, v.active) }));
}

/** The round's (or the match's) summary: who won, each seat's hand points and total. */
export function renderSummary(page, v) {
  const state = page.state;
  const last = v.last_round;
  const box = h("section", { class: "summary panel", id: "summary", "aria-labelledby": "summary-title" });
  const over = state.table.status === "match_over";
  box.append(h("h2", { id: "summary-title", text: over ? t("sum.match_over") : t("sum.round_over", { n: last ? last.round_no : v.round_no }) }));
  // first, before the standings: "Ready", the countdown and who is ready (below the table they
  // were under the fold on every screen, and the next round was dealt before anyone scrolled)
  if (!over) box.append(renderWaitForReady(page));
  if (last) {
    box.append(h("p", { class: "lead", text: last.winner === null ? t("ev.round_blocked") : t("ev.round_won", { name: nameOf(state, last.winner), n: last.points }) }));
  }
  if (v.outcome) box.append(h("p", { class: "lead winner", text: t("ev.match_won", { names: namesList(state, v.outcome.winners) }) }));
  // the rematch, proposed and accepted here: the summary and the review stay until everyone accepted
  if (over) box.append(renderRematch(page));
  const rows = v.scores.map((score, s) => ({ s, score, hand: last ? last.hand_points[s] : null }));
  rows.sort((a, b) => b.score - a.score);
  const target = state.static?.ruleset?.target_score ?? 500;
  box.append(h("table", { class: "standings" },
    h("caption", { text: t("sum.standings", { n: target }) }),
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("sum.player") }), h("th", { scope: "col", text: t("sum.hand_points") }), h("th", { scope: "col", text: t("sum.total") }))),
    h("tbody", {}, rows.map((r) => h("tr", { class: r.s === state.you.seat ? "me" : "" },
      h("th", { scope: "row", text: nameOf(state, r.s) }),
      h("td", { text: r.hand === null ? "–" : num(r.hand) }),
      h("td", {}, num(r.score), h("meter", { min: 0, max: target, value: Math.min(r.score, target), "aria-hidden": "true" })))))));
  if (over) {
    box.append(h("a", { href: `/t/${page.tableId}/record`, class: "button", download: "", text: t("sum.record") }));
    if (state.table.deal) box.append(renderVerify(page));
    const review = renderReview(page);
    if (review) box.append(review);
  }
  return box;
}

/**
 * "Verify this match": the page of the server's check of the record against the seed commitment it
 * showed before the first deal (/t/ID/verify, view_verify.js), and the command that checks the
 * record anywhere (it works as printed from a clone of the source, nothing installed).
 */
function renderVerify(page) {
  const cmd = `python3 -m unotable verify ${location.origin}/t/${page.tableId}`;
  return h("p", { class: "verify", id: "verify" },
    h("a", { href: `/t/${page.tableId}/verify`, id: "verify-link", class: "button", target: "_blank", rel: "noopener", text: t("sum.verify") }),
    " ",
    h("small", { text: t("sum.verify_how", { cmd }) }));
}

/**
 * The summary waits: a countdown to the next deal (the table's setting), who is done reading,
 * and this player's "Ready" (the round starts when every connected player is ready).
 */
function renderWaitForReady(page) {
  const state = page.state;
  const table = state.table;
  const me = state.you.seat;
  const ready = new Set(table.ready || []);
  const seated = me !== null && me !== undefined;
  const names = [...ready].map((s) => nameOf(state, s));
  return h("div", { class: "wait-ready", id: "wait-ready" },
    seated && !ready.has(me)
      ? h("button", { type: "button", class: "primary big", id: "ready", "data-key": "ready", text: t("sum.ready"), onclick: () => page.send({ type: "ready" }) })
      : seated ? h("p", { class: "hint", id: "you-ready", text: t("sum.you_ready") }) : null,
    typeof table.next_round_in === "number" ? h("p", { class: "countdown", id: "next-round-in", role: "timer", "aria-live": "off" }) : null,
    h("p", { class: "hint", id: "ready-list", text: names.length ? t("sum.ready_list", { names: namesList(state, [...ready]) }) : t("sum.nobody_ready") }),
    readingLine(state));
}
