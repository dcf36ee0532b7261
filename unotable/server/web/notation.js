// Cards and actions in the engine's notation (docs/reference/notation), as plain values: no DOM,
// no strings of the page's language, so that the state reducer (state.js) and its tests in node
// read them too. cards.js draws them.

export const COLORS = ["R", "Y", "G", "B"];

const RANK_ORDER = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "D2", "D4", "SE", "DA"];
const WILD_ORDER = ["W", "WC", "WB", "WS", "WX", "W4", "WR4", "W6", "W10", "WCR"];

/** {code, color, rank, wild} of a card in notation ("R7", "BD2", "W4"). */
export function parseCard(code) {
  const c = String(code).toUpperCase();
  if (c.startsWith("W")) return { code: c, color: null, rank: c, wild: true };
  return { code: c, color: c[0], rank: c.slice(1), wild: false };
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
