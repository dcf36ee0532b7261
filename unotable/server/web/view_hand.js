// The player's hand: an overlapping fan that fits the width (a 7-card hand whole on a 360 px
// phone, each card showing at least a 44 px strip of its own; a longer hand than the width holds
// scrolls sideways inside the fan), sorted by color, playable cards raised.
// Tap a card to choose it, tap it again (or drag it up) to play it; a keyboard plays the focused
// card with Enter (and U plays it with the UNO call). Every card stays a button with its name.
// When the fan scrolls, each side where cards sit beyond it fades and says how many ("+3 ›").

import { cardElement, cardName, sortKey } from "./cards.js";
import { h } from "./dom.js";
import { currentLang, num, t } from "./i18n.js";
import { leavesOne } from "./state.js";
import { nameOf } from "./words.js";

const DRAG_UP = 36; // px a card is dragged upwards to be played

export function renderHand(page, v, legal) {
  const state = page.state;
  const me = state.you.seat;
  const playable = new Set(legal.filter((a) => a.kind === "play").map((a) => a.card));
  const cards = [...v.hand].map((code, i) => ({ code, i })).sort((a, b) => sortKey(a.code) - sortKey(b.code) || a.i - b.i);
  const hand = h("div", {
    class: "hand", role: "toolbar", "aria-label": t("hand.label", { n: cards.length }),
    "aria-orientation": "horizontal", style: `--cards:${cards.length}`,
  });
  const seen = {};
  let focusable = null;
  for (const { code } of cards) {
    seen[code] = (seen[code] || 0) + 1;
    const key = `card-${code}-${seen[code]}`;
    const el = cardElement(code, { button: true });
    const ok = playable.has(code);
    el.dataset.key = key;
    el.setAttribute("tabindex", "-1");
    if (ok) {
      const chosen = state.selected === key;
      el.classList.add("playable");
      if (chosen) el.classList.add("selected");
      el.setAttribute("aria-pressed", chosen ? "true" : "false");
      el.setAttribute("aria-label", t(chosen ? "hand.chosen" : "hand.playable", { card: cardName(code) }));
      wireCard(page, el, code, key);
    } else {
      el.setAttribute("aria-disabled", "true");
      el.addEventListener("click", () => page.dispatch({ type: "ui/error", error: { text: t("hand.not_playable", { card: cardName(code) }) } }));
    }
    if (v.drawn_card === code) el.classList.add("drawn");
    if (focusable === null && ok) focusable = el;
    hand.append(h("span", { class: "slot" }, el));
  }
  const all = hand.querySelectorAll(".card");
  (focusable || all[0])?.setAttribute("tabindex", "0");
  const header = h("div", { class: "hand-head" },
    h("span", { class: "me-name", text: nameOf(state, me) }),
    h("span", { class: "count", text: t("seat.cards", { n: v.hand.length }) }),
    h("span", { class: "score", text: t("seat.score", { n: v.scores[me] }) }),
    v.called[me] ? h("span", { class: "badge uno", text: t("seat.uno") }) : null,
    v.exposed[me] ? h("span", { class: "badge exposed", text: t("seat.exposed") }) : null,
    h("span", { class: "keys hint", text: t("hand.keys") }));
  return h("div", { class: "hand-wrap", "data-lang": currentLang() }, header, hand);
}

function wireCard(page, el, code, key) {
  let down = null;
  let dragged = false;
  el.addEventListener("pointerdown", (ev) => {
    down = { x: ev.clientX, y: ev.clientY };
    dragged = false;
    try {
      el.setPointerCapture(ev.pointerId); // the card hears the release wherever the finger ends
    } catch {
      // no capture: a release over the card itself still counts
    }
  });
  el.addEventListener("pointerup", (ev) => {
    if (!down) return;
    const dy = ev.clientY - down.y;
    down = null;
    if (dy < -DRAG_UP) {
      dragged = true;
      page.playCard(code, false);
    }
  });
  el.addEventListener("click", () => {
    if (dragged) {
      dragged = false;
      return;
    }
    if (page.state.selected === key) page.playCard(code, false);
    else page.dispatch({ type: "ui/select", key, card: code });
  });
  el.addEventListener("keydown", (ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      ev.stopPropagation();
      page.playCard(code, false);
    } else if (ev.key.toLowerCase() === "u" && leavesOne(page.legal(), code)) {
      ev.preventDefault();
      ev.stopPropagation();
      page.playCard(code, true);
    }
  });
}

/**
 * The cards beyond the fan's edges (a hand longer than the width holds): each such side fades and
 * shows a count ("‹ 2", "3 ›"), kept up to date as the fan is swiped. Physical sides: the count
 * stands where the cards are, in every language. The counts take no pointer and are not read out
 * (the hand's label says how many cards it holds).
 */
export function markHandMore(root) {
  const wrap = root.querySelector(".hand-wrap");
  const hand = wrap?.querySelector(".hand");
  if (!hand) return;
  const pills = { left: wrap.querySelector(".more-left"), right: wrap.querySelector(".more-right") };
  for (const side of ["left", "right"]) {
    if (!pills[side]) {
      pills[side] = h("span", { class: `more more-${side}`, "aria-hidden": "true", hidden: true });
      wrap.append(pills[side]);
    }
  }
  const update = () => {
    const box = hand.getBoundingClientRect();
    let left = 0;
    let right = 0;
    for (const card of hand.querySelectorAll(".card")) {
      const r = card.getBoundingClientRect();
      if (r.left < box.left - 2) left++;
      else if (r.right > box.right + 2) right++;
    }
    const top = `${hand.offsetTop + hand.offsetHeight / 2 + 8}px`;
    for (const [side, n] of [["left", left], ["right", right]]) {
      const pill = pills[side];
      pill.hidden = n === 0;
      pill.textContent = side === "left" ? `‹ ${num(n)}` : `${num(n)} ›`;
      pill.style.top = top;
    }
    hand.classList.toggle("more-at-left", left > 0);
    hand.classList.toggle("more-at-right", right > 0);
    wrap.dataset.moreLeft = String(left);
    wrap.dataset.moreRight = String(right);
  };
  if (!hand.dataset.moreWired) {
    hand.dataset.moreWired = "1";
    hand.addEventListener("scroll", update, { passive: true });
  }
  update();
}
