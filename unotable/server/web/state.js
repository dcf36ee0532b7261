// The table page's state as a pure reducer: reduce(state, message) -> the next state, for every
// server message (docs/protocol.md) and for the page's own choices ("ui/..." messages). No DOM, no
// clock, no strings of the page's language: the view modules (view_*.js) draw a state, and
// tests/web/state_cases.mjs checks this module in node and in the browser.
//
// A state also carries `moments`: what the last message made happen for this seat (the events to
// show as banners, the sounds to play, whether the turn just came to this seat). The page reads
// them once after each reduce.

import { parseAction } from "./notation.js";

export const LOG_MAX = 200;

/** Events that change a player's situation: each is shown as a banner above the table. */
export const BANNER_EVENTS = new Set([
  "caught", "false_catch", "false_uno", "drew", "challenged", "hands_swapped", "hands_passed",
  "skipped", "direction_changed", "knocked_out", "round_ended", "match_ended",
]);
/** Penalty draws told by the banner of their cause (a catch, a challenge) rather than twice. */
const TOLD_BY_CAUSE = new Set(["catch", "challenge", "false_catch", "false_uno"]);

export function initialState() {
  return {
    you: { seat: null, host: false },
    table: null,
    static: null,
    view: null,
    log: [],
    chat: [],
    error: null,
    deadline: null,
    selected: null,
    choice: null,
    moments: { banners: [], sounds: [], yourTurn: false, reactions: [] },
  };
}

const noMoments = () => ({ banners: [], sounds: [], yourTurn: false, reactions: [] });

function seated(you) {
  return you.seat !== null && you.seat !== undefined;
}

/** True when this seat is the one to act now in a round being played. */
export function myTurn(state) {
  const v = state.view;
  return Boolean(v && seated(state.you) && v.active === state.you.seat && v.phase !== "round_over" && v.phase !== "match_over");
}

/** True when a bot plays for this seat (two time-outs, or away too long). */
export function onAutopilot(state) {
  if (!seated(state.you) || !state.table) return false;
  return Boolean(state.table.seats?.[state.you.seat]?.autopilot);
}

function withEvents(log, events) {
  const next = log.concat(events.map((e) => ({ seq: e.seq, e })));
  return next.length > LOG_MAX ? next.slice(next.length - LOG_MAX) : next;
}

/** Whether an event costs seat `me` cards (a penalty to you: a sound of the default setting). */
export function penalizes(e, me) {
  if (me === null || me === undefined) return false;
  if (e.type === "drew") return e.seat === me && e.reason !== "draw";
  if (e.type === "caught") return e.target === me;
  if (e.type === "false_catch") return e.catcher === me;
  if (e.type === "false_uno") return e.seat === me;
  return false;
}

/**
 * The banners and sounds that a batch of events makes for seat `me` (null: a spectator). Sounds
 * by name (sound.js): "play" and "catch" are everyone's (heard under the "all" setting only);
 * "penalty" (a penalty to you), "uno", "round" and "turn" are heard by default.
 */
export function momentsOf(events, me) {
  const m = noMoments();
  for (const e of events) {
    if (e.type === "card_played") m.sounds.push(e.uno ? "uno" : "play");
    if (e.type === "uno_called") m.sounds.push("uno");
    if (penalizes(e, me)) m.sounds.push("penalty");
    else if (e.type === "caught" || e.type === "false_catch") m.sounds.push("catch");
    if (e.type === "round_ended" || e.type === "match_ended") m.sounds.push("round");
    if (!BANNER_EVENTS.has(e.type)) continue;
    if (e.type === "drew" && (e.reason === "draw" || TOLD_BY_CAUSE.has(e.reason))) continue;
    m.banners.push({ e, mine: involves(e, me) });
  }
  return m;
}

/** Whether an event is about seat `me` (it is then shown louder). */
export function involves(e, me) {
  if (me === null || me === undefined) return false;
  const seats = [e.seat, e.target, e.victim, e.catcher, e.challenger, e.player, e.winner];
  if (e.type === "hands_passed" || e.type === "direction_changed") return true;
  return seats.includes(me) || (e.winners || []).includes(me);
}

/** The next state after one message. */
export function reduce(state, msg) {
  const s = { ...state, moments: noMoments() };
  switch (msg.type) {
    case "welcome": {
      s.you = msg.you;
      s.table = msg.table;
      s.static = msg.static;
      s.view = msg.view;
      s.error = null;
      s.selected = null;
      s.choice = null;
      // the welcome carries the round's events this seat may see, and the chat: they replace
      // what was kept, so that a resume neither loses nor repeats a line
      if (Array.isArray(msg.history)) s.log = withEvents([], msg.history);
      else s.log = withEvents(s.log, msg.events || []);
      if (Array.isArray(msg.chat)) s.chat = msg.chat.slice(-LOG_MAX);
      s.deadline = msg.table?.turn_deadline ?? null;
      s.moments.yourTurn = myTurn(s);
      return s;
    }
    case "token":
      s.you = { ...s.you, seat: msg.seat };
      return s;
    case "update": {
      const before = state.view;
      const wasMine = myTurn(state);
      if (msg.table) s.table = msg.table;
      if (msg.static) s.static = msg.static;
      s.view = msg.view;
      if (!msg.view || !before || msg.view.seq !== before.seq) {
        s.choice = null;
        s.selected = null;
      }
      const events = [...(msg.events || [])];
      if (typeof msg.timed_out === "number") {
        events.unshift({ type: "timed_out", seat: msg.timed_out, seq: events[0]?.seq ?? msg.view?.seq ?? 0 });
      }
      s.log = withEvents(s.log, events);
      s.moments = momentsOf(events, s.you.seat);
      s.moments.yourTurn = myTurn(s) && (!wasMine || (events.length > 0 && !onAutopilot(s)));
      if (s.moments.yourTurn) s.moments.sounds.push("turn");
      s.deadline = msg.turn_deadline ?? msg.table?.turn_deadline ?? null;
      s.error = null;
      return s;
    }
    case "presence":
      s.table = msg.table;
      return s;
    case "chat": {
      const chat = s.chat.concat([{ name: msg.name, text: msg.text }]);
      s.chat = chat.length > LOG_MAX ? chat.slice(chat.length - LOG_MAX) : chat;
      return s;
    }
    case "reaction":
      // shown for a moment at the sender's seat: the page times the bubble
      s.moments.reactions = [{ seat: msg.seat, name: msg.name, reaction: msg.reaction }];
      return s;
    case "error":
      s.error = { code: msg.code, message: msg.message };
      return s;
    case "ui/error":
      s.error = msg.error;
      return s;
    case "ui/select":
      s.selected = msg.key;
      s.choice = null;
      return s;
    case "ui/choice":
      s.choice = msg.choice;
      return s;
    case "ui/cancel":
      s.choice = null;
      s.selected = null;
      return s;
    default:
      return state;
  }
}

/** The card (in notation) of the chosen card's key ("card-R1-2" -> "R1"), or null. */
export function selectedCard(state) {
  return state.selected ? state.selected.replace(/^card-/, "").replace(/-\d+$/, "") : null;
}

/** The quick reactions (the protocol's fixed set). */
export const REACTIONS = ["gg", "nice", "oops", "wow", "hurry", "thanks"];

/** The seat's legal actions, parsed ({text, kind, card, color, target, uno}). */
export function legalOf(view) {
  return (view?.legal || []).map((text) => ({ text, ...parseAction(text) }));
}

/**
 * The ways to play one card (in notation): with the UNO call (`uno` true) when that play leaves
 * one card and may carry the call, else without it.
 */
export function playsOf(legal, card, uno) {
  const all = legal.filter((a) => a.kind === "play" && a.card === card);
  const withUno = all.filter((a) => a.uno);
  const without = all.filter((a) => !a.uno);
  if (uno && withUno.length) return withUno;
  return without.length ? without : withUno;
}

/** True when playing this card leaves one card, so that the play may carry the UNO call. */
export function leavesOne(legal, card) {
  return legal.some((a) => a.kind === "play" && a.card === card && a.uno);
}

/** The other seats in turn order from the viewer (the seat after it first); everyone for a spectator. */
export function ringOrder(n, me) {
  const start = me === null || me === undefined ? 0 : me + 1;
  const order = [];
  for (let k = 0; k < n; k++) {
    const s = (start + k) % n;
    if (s !== me) order.push(s);
  }
  return order;
}

/**
 * Places around the table for k seats, in percent of the box their centres may take ({x, y},
 * physical: the same geometry in every language). The viewer sits at the bottom; the others sit
 * on the upper arc of an ellipse (centre at 62% of the height) from the left over the top to the
 * right, spaced evenly along the arc for a box `aspect` times as tall as wide, so that clockwise
 * play runs clockwise and neighbours never crowd at the top.
 */
export function ringPlaces(k, aspect = 0.8) {
  if (k === 1) return [{ x: 50, y: 0 }];
  const from = 192;
  const to = -12;
  const steps = 240;
  const point = (deg) => {
    const rad = (deg * Math.PI) / 180;
    return { x: 50 + 50 * Math.cos(rad), y: 62 - 62 * Math.sin(rad) };
  };
  // arc length, measured in pixels of the box (x in widths, y in heights times the aspect)
  const lengths = [0];
  let prev = point(from);
  for (let i = 1; i <= steps; i++) {
    const p = point(from + ((to - from) * i) / steps);
    lengths.push(lengths[i - 1] + Math.hypot(p.x - prev.x, (p.y - prev.y) * aspect));
    prev = p;
  }
  const total = lengths[steps];
  const places = [];
  let j = 0;
  for (let n = 0; n < k; n++) {
    const want = (total * n) / (k - 1);
    while (j < steps && lengths[j + 1] < want) j++;
    const span = lengths[j + 1] - lengths[j] || 1;
    const deg = from + ((to - from) * (j + Math.min(1, (want - lengths[j]) / span))) / steps;
    const p = point(deg);
    places.push({ x: Math.round(Math.min(100, Math.max(0, p.x)) * 10) / 10, y: Math.round(Math.min(100, Math.max(0, p.y)) * 10) / 10 });
  }
  return places;
}

/** The seat that plays after the active one in the current direction (seats still in the round). */
export function nextSeat(view) {
  if (!view || view.active === null || view.active === undefined) return null;
  const n = view.hand_sizes.length;
  const out = (s) => Boolean(view.knocked_out?.[s] || view.eliminated?.[s]);
  let s = view.active;
  for (let k = 0; k < n; k++) {
    s = (((s + view.direction) % n) + n) % n;
    if (!out(s)) return s === view.active ? null : s;
  }
  return null;
}

/** The house rules in force: each switched option whose value is not its "off" value. */
export function rulesInForce(settings, toggles, presetValue) {
  const preset = settings?.preset || "official";
  const options = settings?.options || {};
  return toggles.filter((tg) => (options[tg.opt] ?? presetValue(preset, tg.opt)) !== tg.off).map((tg) => tg.opt);
}

/** What answering a Wild Draw Four costs or wins: {take, lose, win} cards (CL-ACT-12, CL-ACT-13). */
export function challengeStakes(view) {
  const take = view?.pending_penalty || 4;
  return { take, lose: take + 2, win: take };
}

/** The origin a friend can reach: false for a loopback address (this computer only). */
export function reachable(hostname) {
  const h = String(hostname).replace(/^\[|\]$/g, "").toLowerCase();
  return !(h === "localhost" || h.endsWith(".localhost") || h === "::1" || /^127\./.test(h));
}
