// The card as the page draws it (notation.js reads the notation): a symbol, a color letter and a
// shape (for color-blind players), an ARIA label in words, and lists of cards in words.

import { t } from "./i18n.js";
import { COLORS, parseAction, parseCard, sortKey } from "./notation.js";

export { COLORS, parseAction, parseCard, sortKey };

/** A shape per color, printed next to its letter, so that no card depends on hue alone. */
export const SHAPES = { R: "●", Y: "▲", G: "■", B: "◆" };

const SYMBOLS = {
  S: "⊘", R: "⇄", D2: "+2", D4: "+4", SE: "⊘⊘", DA: "⇊",
  W: "W", W4: "+4", WS: "⇆", WX: "⤨", WC: "✎", WB: "✎", WR4: "⇄+4", W6: "+6", W10: "+10", WCR: "◎",
};

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

/**
 * Cards in words as a list in the current language ("Red 2, Yellow 9 and Wild"): each name is
 * isolated (FSI ... PDI) so that a right-to-left sentence keeps the list's order and its commas.
 */
export function cardList(codes, lang) {
  const names = codes.map((c) => `\u2068${cardName(c)}\u2069`);
  try {
    return new Intl.ListFormat(lang, { style: "long", type: "unit" }).format(names);
  } catch {
    return names.join(", ");
  }
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
