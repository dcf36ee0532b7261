// The table page: holds the state (state.js, a pure reducer), sends what the person chooses, and
// draws the state with the view modules: view_waiting.js (the waiting room), view_table.js (the
// seats around the table, the piles, the summary), view_controls.js, view_hand.js and
// view_side.js (the log, the chat). Around them: the event banners, the autopilot notice, the
// turn's sound, vibration, title and notification, and the card movements.

import { cardBack, cardElement } from "./cards.js";
import { clear, h } from "./dom.js";
import { isRtl, t } from "./i18n.js";
import { play as playSound, yourTurnSignals } from "./sound.js";
import { initialState, legalOf, myTurn, onAutopilot, playsOf, REACTIONS, reduce } from "./state.js";
import { renderControls } from "./view_controls.js";
import { markHandMore, renderHand } from "./view_hand.js";
import { followAsk, syncReading } from "./view_offers.js";
import { renderSide, renderSoundSetting } from "./view_side.js";
import { penaltyPill, placeSeats, renderRing, renderSummary } from "./view_table.js";
import { errorLine, renderWaiting, rulesChip } from "./view_waiting.js";
import { describe, nameOf } from "./words.js";

const BANNER_MS = 3500;
const BANNERS_AT_ONCE = 3;
const BANNERS_AT_ONCE_SHORT = 2; // a phone on its side (under 500 px high): two at most
const BUBBLE_MS = 3000;

export class TablePage {
  constructor(root, tableId, conn) {
    this.root = root;
    this.tableId = tableId;
    this.conn = conn;
    this.state = initialState();
    this.connState = "connecting";
    this.drafts = {};
    this.turnEndsAt = null;
    this.lastTopKey = null;
    this.moves = [];
    this.bubbles = new Map(); // seat -> the reaction shown at it, for a moment
    this.ticker = setInterval(() => this.tick(), 500);
    document.addEventListener("keydown", (ev) => this.onKey(ev));
    document.addEventListener("visibilitychange", () => {
      this.title();
      syncReading(this); // a hidden page reads no summary: the countdown runs on
    });
    window.addEventListener("resize", () => {
      placeSeats(this.root);
      markHandMore(this.root);
    });
  }

  // the state, as the tests and the terminal-minded read it
  get you() { return this.state.you; }
  get table() { return this.state.table; }
  get view() { return this.state.view; }
  get log() { return this.state.log; }
  get chat() { return this.state.chat; }
  get error() {
    const err = this.state.error;
    return err ? err.text ?? t(`error.${err.code}`) : "";
  }

  // -- messages ------------------------------------------------------------------------------------

  handle(msg) {
    if (msg.type === "reconnect" || msg.type === "pong") return;
    if (msg.type === "error" && this.backPending) {
      // "I'm back" is an act the server answers by taking the seat back, then refuses as a move
      this.backPending = false;
      return;
    }
    const before = this.state;
    this.state = reduce(this.state, msg);
    if (this.state === before) return;
    const m = this.state.moments;
    if (msg.type === "welcome" || msg.type === "update") this.resetTimer(this.state.deadline);
    const next = this.state.table?.next_round_in;
    if (msg.table) this.roundEndsAt = typeof next === "number" ? Date.now() + next * 1000 : null;
    // while someone reads the summary the countdown stands still (the server's number, as told)
    if (msg.table) this.roundHeld = (this.state.table?.reading || []).length > 0 ? next : null;
    if (msg.type === "update") {
      this.moves = msg.events || [];
      const lines = (msg.events || []).map((e) => describe(this.state, e)).filter(Boolean);
      if (typeof msg.timed_out === "number") lines.unshift(t("ev.timed_out", { name: nameOf(this.state, msg.timed_out) }));
      if (lines.length) this.announce(lines.slice(-4).join(" "));
    }
    if (msg.type === "chat") this.announce(t("chat.said", { name: msg.name, text: msg.text }));
    if (msg.type === "error") this.announce(this.error);
    for (const r of m.reactions || []) this.bubble(r);
    for (const s of new Set(m.sounds)) playSound(s);
    if (m.yourTurn) {
      yourTurnSignals(t("table.your_turn"));
      if (msg.type === "update") this.announce(t("table.your_turn"));
    }
    this.render();
    followAsk(this);
    syncReading(this);
    // after the render: the banners start under the turn bar this update may have brought
    if (msg.type === "update") for (const b of m.banners) this.banner(b);
    if (m.yourTurn && msg.type === "update") this.bringBackTheHand();
  }

  /**
   * Your turn while a phone shows the chat or the log (the hand wholly off the screen) and nobody
   * is typing: the hand comes back into view.
   */
  bringBackTheHand() {
    const typing = document.activeElement?.matches?.("input, textarea, select");
    const wrap = this.root.querySelector(".hand-wrap");
    if (typing || !wrap) return;
    const r = wrap.getBoundingClientRect();
    if (r.bottom < 0 || r.top > innerHeight) wrap.scrollIntoView({ block: "nearest" });
  }

  dispatch(msg) {
    this.state = reduce(this.state, msg);
    this.render();
    if (msg.type === "ui/select" || msg.type === "ui/choice") {
      this.root.querySelector(".chooser button, #uno-play")?.focus({ preventScroll: true });
    }
  }

  setConn(state) {
    this.connState = state;
    const el = document.getElementById("conn");
    if (el) {
      el.hidden = state === "open";
      el.textContent = t(`conn.${state}`);
      el.title = state === "taken_over" ? t("conn.taken_over_long") : "";
      el.dataset.state = state;
    }
    if (state === "taken_over" || state === "gone") this.render();
  }

  /** The turn clock counts down from the seconds the server says are left (null: nothing timed). */
  resetTimer(left) {
    if (typeof left !== "number" || this.state.table?.status !== "playing") {
      this.turnEndsAt = null;
      return;
    }
    this.turnEndsAt = Date.now() + left * 1000;
  }

  tick() {
    const countdown = this.root.querySelector("#next-round-in");
    if (countdown && typeof this.roundEndsAt === "number") {
      const held = typeof this.roundHeld === "number";
      const left = held ? Math.ceil(this.roundHeld) : Math.max(0, Math.ceil((this.roundEndsAt - Date.now()) / 1000));
      countdown.textContent = t(held ? "sum.next_held" : "sum.next_in", { n: left });
    }
    if (this.turnEndsAt === null) return;
    const left = Math.max(0, Math.ceil((this.turnEndsAt - Date.now()) / 1000));
    for (const el of this.root.querySelectorAll(".timer")) {
      el.textContent = t("seat.timer", { n: left });
      el.classList.toggle("low", left <= 10);
      el.classList.toggle("urgent", left <= 5);
    }
  }

  name(seat) {
    return nameOf(this.state, seat);
  }

  announce(text) {
    const live = document.getElementById("live");
    if (!live || !text) return;
    live.append(h("p", { text }));
    while (live.childNodes.length > 5) live.removeChild(live.firstChild);
  }

  /**
   * A banner for an event that changes someone's situation: at the top of the screen whatever the
   * scroll, brief, never in the way of a control (it takes no pointer), read out by the live region
   * (the banner itself is hidden from screen readers so that it is not read twice).
   */
  banner({ e, mine, text: given = null }) {
    const layer = document.getElementById("banners");
    const text = given ?? describe(this.state, e);
    if (!layer || !text) return;
    placeBanners(layer);
    const el = h("p", { class: `banner ev-${e.type}${mine ? " mine" : ""}`, "data-event": e.type, text });
    layer.append(el);
    const most = innerHeight < 500 ? BANNERS_AT_ONCE_SHORT : BANNERS_AT_ONCE;
    while (layer.childNodes.length > most) layer.removeChild(layer.firstChild);
    setTimeout(() => el.remove(), BANNER_MS);
  }

  /** A reaction: a bubble at the sender's seat (the host's or a spectator's as a banner). */
  bubble({ seat, name, reaction }) {
    const text = t(`react.${reaction}`);
    this.announce(t("react.said", { name, text }));
    if (seat === null || seat === undefined) {
      this.banner({ e: { type: "reaction" }, mine: false, text: t("react.said", { name, text }) });
      return;
    }
    const until = Date.now() + BUBBLE_MS;
    this.bubbles.set(seat, { reaction, until });
    setTimeout(() => {
      if (this.bubbles.get(seat)?.until === until) {
        this.bubbles.delete(seat);
        this.render();
      }
    }, BUBBLE_MS);
  }

  title() {
    const base = t("app.title");
    document.title = myTurn(this.state) && !onAutopilot(this.state) ? `● ${t("table.your_turn")} · ${base}` : base;
  }

  // -- acting --------------------------------------------------------------------------------------

  send(msg) {
    if (!this.conn.send(msg)) this.dispatch({ type: "ui/error", error: { text: t("conn.reconnecting") } });
  }

  act(action) {
    this.state = reduce(this.state, { type: "ui/cancel" });
    this.send({ type: "act", action });
  }

  legal() {
    return legalOf(this.state.view);
  }

  /** Play a card (in notation), with the UNO call when `uno`; a chooser when there is a choice left. */
  playCard(card, uno) {
    const options = playsOf(this.legal(), card, uno);
    if (!options.length) return;
    if (options.length === 1) {
      this.act(options[0].text);
      return;
    }
    this.dispatch({ type: "ui/choice", choice: { card, options, color: null } });
  }

  chooseColor(color) {
    const options = this.state.choice.options.filter((a) => a.color === color);
    const targets = new Set(options.map((a) => a.target));
    if (targets.size <= 1) {
      this.act(options[0].text);
      return;
    }
    this.dispatch({ type: "ui/choice", choice: { ...this.state.choice, color } });
  }

  /** "I'm back": the player takes the seat back from the bot that stands in for them. */
  back() {
    this.backPending = true;
    this.send({ type: "act", action: "back" });
  }

  leaveSeat() {
    this.state = { ...this.state, you: { ...this.state.you, seat: null } };
  }

  onKey(ev) {
    if (ev.defaultPrevented || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const tag = (ev.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "textarea" || tag === "select") return;
    if (ev.key === "Escape" && (this.state.choice || this.state.selected)) {
      this.dispatch({ type: "ui/cancel" });
      return;
    }
    const legal = this.legal();
    const has = (kind) => legal.find((a) => a.kind === kind);
    const key = ev.key.toLowerCase();
    let action = null;
    if (key === "d" && has("draw")) action = "draw";
    else if (key === "p" && has("pass")) action = "pass";
    else if (key === "a" && has("accept")) action = "accept";
    else if (key === "x" && has("challenge")) action = "challenge";
    else if (key === "u" && has("uno")) action = "uno";
    else if (key === "c" && has("catch")) action = has("catch").text;
    if (action) {
      ev.preventDefault();
      this.act(action);
      return;
    }
    if (ev.target.closest?.(".hand") && ["ArrowLeft", "ArrowRight", "Home", "End"].includes(ev.key)) {
      ev.preventDefault();
      const cards = [...this.root.querySelectorAll(".hand .card")];
      let i = cards.indexOf(ev.target.closest(".card"));
      const forward = (ev.key === "ArrowRight") !== isRtl(); // arrows follow what the eye sees
      if (ev.key === "Home") i = 0;
      else if (ev.key === "End") i = cards.length - 1;
      else i = Math.max(0, Math.min(cards.length - 1, i + (forward ? 1 : -1)));
      cards.forEach((c, j) => c.setAttribute("tabindex", j === i ? "0" : "-1"));
      cards[i]?.focus();
      cards[i]?.scrollIntoView({ block: "nearest", inline: "nearest" });
    }
  }

  // -- rendering -----------------------------------------------------------------------------------

  render() {
    const active = document.activeElement;
    const focusKey = active?.dataset?.key ?? null;
    const inHand = Boolean(active?.closest?.(".hand"));
    // what the reader opened or closed stays so across renders
    const opened = new Map([...this.root.querySelectorAll("details")].map((d, i) => [d.dataset.key || d.id || d.className || i, d.open]));
    const firstTable = !this.root.querySelector(".play");
    const hadSummary = Boolean(this.root.querySelector("#summary"));
    const handScroll = this.root.querySelector(".hand")?.scrollLeft ?? 0; // a long hand's swipe stays
    clear(this.root);
    this.title();
    if (this.soundLang !== document.documentElement.lang) {
      // the sound setting in the top bar (drawn again only for a new language: an open picker stays)
      this.soundLang = document.documentElement.lang;
      renderSoundSetting(document.getElementById("sound-slot"));
    }
    if (this.connState === "taken_over") {
      this.root.append(h("section", { class: "panel", role: "alert" },
        h("p", { text: t("conn.taken_over_long") }),
        h("button", { type: "button", class: "primary", "data-key": "take-back", text: t("conn.take_back"), onclick: () => this.conn.open() })));
      return;
    }
    const state = this.state;
    if (this.connState === "gone" || !state.table) {
      this.root.append(h("section", { class: "panel" }, h("p", { text: t(this.connState === "gone" ? "table.gone" : "conn.connecting") })));
      return;
    }
    const status = state.table.status;
    const page = h("div", { class: `table-page status-${status}`, "data-status": status });
    page.append(status === "waiting" ? renderWaiting(this) : this.renderPlay(), renderSide(this));
    this.root.append(page);
    placeSeats(this.root);
    const hand = this.root.querySelector(".hand");
    if (hand && handScroll) hand.scrollLeft = handScroll;
    markHandMore(this.root);
    const layer = document.getElementById("banners");
    if (layer?.childNodes.length) placeBanners(layer); // a turn bar that came in moves them down
    this.tick();
    this.animate(this.moves || []);
    this.moves = [];
    for (const d of this.root.querySelectorAll("details")) {
      const key = d.dataset.key || d.id || d.className;
      if (opened.has(key)) d.open = opened.get(key);
    }
    // the table appears at the top of the page, whatever was scrolled in the waiting room
    if (firstTable && status !== "waiting") window.scrollTo(0, 0);
    // a round's summary opens with its "Ready" and countdown in view (a match's, with its rematch)
    if (!hadSummary && !firstTable) this.root.querySelector("#wait-ready, #rematch-box")?.scrollIntoView({ block: "nearest" });
    const again = focusKey ? this.root.querySelector(`[data-key="${CSS.escape(focusKey)}"]`) : null;
    if (again) again.focus({ preventScroll: true });
    else if (inHand) this.root.querySelector(".hand .card[tabindex='0']")?.focus({ preventScroll: true });
  }

  renderPlay() {
    const state = this.state;
    const v = state.view;
    const wrap = h("section", { class: "play", "aria-labelledby": "table-title" },
      h("h1", { class: "sr-only", id: "table-title", text: t("table.label") }));
    if (!v) {
      wrap.append(h("p", { text: t("conn.connecting") }));
      return wrap;
    }
    const me = state.you.seat;
    const legal = this.legal();
    const head = h("div", { class: "play-head" },
      rulesChip(state.table.settings),
      h("span", { class: "round", text: t("table.round", { n: v.round_no }) }),
      h("span", { class: "target", text: t("table.target", { n: state.static?.ruleset?.target_score ?? 500 }) }));
    wrap.append(head);
    if (onAutopilot(state)) {
      wrap.append(h("div", { class: "autopilot-notice", id: "autopilot", role: "alert" },
        h("span", { text: t("table.autopilot_you") }),
        h("button", { type: "button", class: "primary", id: "im-back", "data-key": "im-back", text: t("table.im_back"), onclick: () => this.back() })));
    } else if (myTurn(state)) {
      wrap.append(h("p", { class: "your-turn", id: "your-turn" }, t("table.your_turn"), this.turnEndsAt !== null ? h("span", { class: "timer" }) : null));
    }
    const stage = h("div", { class: "stage" }, renderRing(this, v, legal));
    const below = h("div", { class: "below" });
    if (state.table.status === "round_over" || state.table.status === "match_over") below.append(renderSummary(this, v));
    // a penalty waiting is said above the controls that answer it (in the ring's middle it covered "you")
    if (v.pending_penalty > 0 && v.phase !== "round_over" && v.phase !== "match_over") below.append(penaltyPill(this, v));
    below.append(renderControls(this, v, legal));
    if (me !== null && me !== undefined && v.hand) below.append(renderHand(this, v, legal));
    else below.append(h("p", { class: "watching", text: t("table.watching") }));
    below.append(this.renderReactions());
    below.append(errorLine(state));
    wrap.append(h("div", { class: "play-body" }, stage, below));
    return wrap;
  }

  /** The quick reactions, for players and spectators alike (the server limits their pace). */
  renderReactions() {
    return h("div", { class: "reactions", id: "reactions", role: "group", "aria-label": t("react.label") },
      REACTIONS.map((r) => h("button", { type: "button", class: "react", "data-key": `react-${r}`, "data-reaction": r, text: t(`react.${r}`),
        onclick: () => this.send({ type: "react", reaction: r }) })));
  }

  /**
   * Card movements, in the order of the events: a played card flies from its seat to the discard
   * pile, drawn cards from the draw pile to the seat. Clones only (they take no clicks), a few
   * hundred milliseconds in all; nothing moves for people who ask for reduced motion.
   */
  animate(events) {
    if (!events.length || !document.body.animate || matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    const me = this.state.you.seat;
    const seatBox = (s) => (s === me ? this.root.querySelector(".hand-wrap") : this.root.querySelector(`.seat[data-seat="${s}"]`));
    const discard = this.root.querySelector("#discard .card");
    const pile = this.root.querySelector(".draw-pile .card");
    let delay = 0;
    const fly = (make, from, to) => {
      if (!from || !to) return;
      const a = from.getBoundingClientRect();
      const b = to.getBoundingClientRect();
      const el = make();
      el.classList.add("flying");
      el.style.insetInlineStart = "auto";
      el.style.left = `${a.left + a.width / 2 - 28}px`;
      el.style.top = `${a.top + a.height / 2 - 42}px`;
      document.body.append(el);
      const dx = b.left + b.width / 2 - (a.left + a.width / 2);
      const dy = b.top + b.height / 2 - (a.top + a.height / 2);
      const anim = el.animate(
        [{ transform: "translate(0, 0) scale(0.8)", opacity: 0.9 }, { transform: `translate(${dx}px, ${dy}px) scale(1)`, opacity: 1 }],
        { duration: 180, delay, easing: "ease-out", fill: "backwards" },
      );
      anim.onfinish = () => el.remove();
      anim.oncancel = () => el.remove();
      delay += 90;
    };
    for (const e of events.slice(-6)) {
      if (e.type === "card_played") fly(() => cardElement(e.card), seatBox(e.seat), discard);
      else if (e.type === "drew" && e.count > 0) fly(cardBack, pile, seatBox(e.seat));
    }
  }
}

/**
 * The banners start under what must stay readable at the top of the screen: the top bar, the
 * rules chips and the turn bar (or the autopilot notice), where they show; nothing when the page
 * is scrolled past them.
 */
function placeBanners(layer) {
  let top = 0;
  for (const sel of [".topbar", ".play-head", "#your-turn", "#autopilot"]) {
    const el = document.querySelector(sel);
    if (!el) continue;
    const r = el.getBoundingClientRect();
    if (r.height > 0 && r.bottom > 0 && r.top < innerHeight * 0.4) top = Math.max(top, r.bottom);
  }
  layer.style.setProperty("--banner-top", `${Math.round(top + 4)}px`);
}
