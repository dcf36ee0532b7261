// Cards and actions in the engine's notation (README, "Card notation", "Action notation"), and the
// card as the page draws it: a symbol, a color letter and a shape (for color-blind players), and
// an ARIA label in words.

import { t } from "./i18n.js";

export const COLORS = ["R", "Y", "G", "B"];
/** A shape per color, printed next to its letter, so that no card depends on hue alone. */
export const SHAPES = { R: "●", Y: "▲", G: "■", B: "◆" };

const SYMBOLS = {
  S: "⊘", R: "⇄", D2: "+2", D4: "+4", SE: "⊘⊘", DA: "⇊",
  W: "W", W4: "+4", WS: "⇆", WX: "⤨", WC: "✎", WB: "✎", WR4: "⇄+4", W6: "+6", W10: "+10", WCR: "◎",
};
const RANK_ORDER = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "D2", "D4", "SE", "DA"];
const WILD_ORDER = ["W", "WC", "WB", "WS", "WX", "W4", "WR4", "W6", "W10", "WCR"];

/** {code, color, rank, wild} of a card in notation ("R7", "BD2", "W4"). */
export function parseCard(code) {
  const c = String(code).toUpperCase();
  if (c.startsWith("W")) return { code: c, color: null, rank: c, wild: true };
  return { code: c, color: c[0], rank: c.slice(1), wild: false };
}

export function symbolOf(code) {
  const { rank } = parseCard(code);
  return SYMBOLS[rank] ?? rank;
}

/** The card in words, in the current language: "Red 7", "Wild Draw Four". */
export function cardName(code) {
  if (!code) return "";
  const card = parseCard(code);
  if (card.wild) return t(`card.${card.rank}`);
  const rank = /^\d$/.test(card.rank) ? t("card.number", { n: Number(card.rank) }) : t(`card.${card.rank}`);
  return t("card.colored", { color: t(`color.${card.color}`), rank });
}

/** Sort key: by color (R, Y, G, B, then wilds), then rank. */
export function sortKey(code) {
  const card = parseCard(code);
  if (card.wild) return 400 + WILD_ORDER.indexOf(card.rank);
  return COLORS.indexOf(card.color) * 100 + RANK_ORDER.indexOf(card.rank);
}

/** An action in notation as {kind, card, color, target, uno}. */
export function parseAction(text) {
  const s = String(text);
  if (s === "draw" || s === "pass" || s === "accept" || s === "challenge" || s === "uno") return { kind: s };
  if (s.startsWith("catch:")) return { kind: "catch", target: Number(s.slice(6)) };
  const m = /^(?:(color):)?([A-Z0-9]+?)(?::([RYGB]))?(?:>(\d+))?(!)?$/.exec(s);
  if (!m) return { kind: "unknown", text: s };
  if (m[1]) return { kind: "color", color: m[2], target: m[4] === undefined ? null : Number(m[4]) };
  return {
    kind: "play",
    card: m[2],
    color: m[3] ?? null,
    target: m[4] === undefined ? null : Number(m[4]),
    uno: Boolean(m[5]),
  };
}

/** A card element: a <button> when it may be acted on, else a <div>. */
export function cardElement(code, { button = false, big = false } = {}) {
  const card = parseCard(code);
  const el = document.createElement(button ? "button" : "div");
  if (button) el.type = "button";
  el.className = `card ${card.wild ? "c-W" : `c-${card.color}`}${big ? " big" : ""}`;
  el.dataset.card = card.code;
  el.setAttribute("aria-label", cardName(code));
  if (!button) el.setAttribute("role", "img");
  const corner = document.createElement("span");
  corner.className = "corner";
  corner.setAttribute("aria-hidden", "true");
  corner.textContent = card.wild ? "W ✦" : `${card.color} ${SHAPES[card.color]}`;
  const sym = document.createElement("span");
  sym.className = "sym";
  sym.setAttribute("aria-hidden", "true");
  sym.textContent = symbolOf(code);
  el.append(corner, sym);
  return el;
}

/** A face-down card (the draw pile, other hands). */
export function cardBack() {
  const el = document.createElement("div");
  el.className = "card back";
  el.setAttribute("aria-hidden", "true");
  const sym = document.createElement("span");
  sym.className = "sym";
  sym.textContent = "UNO";
  el.append(sym);
  return el;
}
