// The table page: the waiting room, the table in play, the round summary and the standings, the
// event log, the chat. Everything a seat may decide (NET-2) is a control drawn from the seat's own
// legal actions in its view, so a control appears only when its action is legal for this seat.

import { cardBack, cardElement, cardName, COLORS, parseAction, SHAPES, sortKey } from "./cards.js";
import { clear, h } from "./dom.js";
import { currentLang, isRtl, num, t } from "./i18n.js";
import { shareBox } from "./landing.js";
import { BOT_LEVELS, defaultTarget, houseSwitches, PRESETS, TOGGLES } from "./options.js";
import { store } from "./net.js";

const LOG_MAX = 200;

export class TablePage {
  constructor(root, tableId, conn) {
    this.root = root;
    this.tableId = tableId;
    this.conn = conn;
    this.you = { seat: null, host: false };
    this.table = null;
    this.static = null;
    this.view = null;
    this.log = [];
    this.chat = [];
    this.error = "";
    this.connState = "connecting";
    this.unoWithPlay = true;
    this.choice = null; // {card, options, color} while a color or a target is being chosen
    this.turnEndsAt = null;
    this.lastTopKey = null;
    this.focusKey = null;
    this.ticker = setInterval(() => this.tick(), 500);
    document.addEventListener("keydown", (ev) => this.onKey(ev));
  }

  // -- messages ------------------------------------------------------------------------------------

  handle(msg) {
    switch (msg.type) {
      case "welcome":
        this.you = msg.you;
        this.table = msg.table;
        this.static = msg.static;
        this.view = msg.view;
        this.error = "";
        this.addEvents(msg.events || [], false);
        this.resetTimer(msg.table?.turn_deadline);
        break;
      case "token":
        this.you = { ...this.you, seat: msg.seat };
        break;
      case "update": {
        const before = this.view;
        if (msg.table) this.table = msg.table;
        if (msg.static) this.static = msg.static;
        this.view = msg.view;
        if (msg.view && before && msg.view.seq !== before.seq) this.choice = null;
        if (typeof msg.timed_out === "number") {
          const e = { type: "timed_out", seat: msg.timed_out, seq: (msg.events || [])[0]?.seq ?? msg.view?.seq ?? 0 };
          this.addEvents([e], true);
        }
        this.addEvents(msg.events || [], true);
        this.moves = msg.events || [];
        this.resetTimer(msg.turn_deadline ?? msg.table?.turn_deadline);
        break;
      }
      case "presence":
        this.table = msg.table;
        break;
      case "chat":
        this.chat.push({ name: msg.name, text: msg.text });
        if (this.chat.length > LOG_MAX) this.chat.shift();
        this.announce(t("chat.said", { name: msg.name, text: msg.text }));
        break;
      case "error":
        this.error = t(`error.${msg.code}`);
        this.errorDetail = msg.message;
        this.announce(this.error);
        break;
      case "reconnect":
        break;
      default:
        return;
    }
    this.render();
  }

  setConn(state) {
    this.connState = state;
    const el = document.getElementById("conn");
    if (el) {
      el.hidden = state === "open";
      el.textContent = t(`conn.${state}`);
      el.dataset.state = state;
    }
    if (state === "taken_over" || state === "gone") this.render();
  }

  /** The turn clock counts down from the seconds the server says are left (null: nothing timed). */
  resetTimer(left) {
    if (typeof left !== "number" || this.table?.status !== "playing") {
      this.turnEndsAt = null;
      return;
    }
    this.turnEndsAt = Date.now() + left * 1000;
  }

  tick() {
    const el = this.root.querySelector(".timer");
    if (!el || this.turnEndsAt === null) return;
    const left = Math.max(0, Math.ceil((this.turnEndsAt - Date.now()) / 1000));
    el.textContent = t("seat.timer", { n: left });
    el.classList.toggle("low", left <= 5);
  }

  names() {
    if (this.static?.names) return this.static.names;
    return (this.table?.seats || []).map((s, i) => s.name || t("seat.label", { n: i + 1 }));
  }

  name(seat) {
    if (seat === null || seat === undefined) return t("seat.host");
    return this.names()[seat] ?? t("seat.label", { n: seat + 1 });
  }

  addEvents(events, announce) {
    const lines = [];
    for (const e of events) {
      const text = this.describe(e);
      if (!text) continue;
      this.log.push({ seq: e.seq, e });
      lines.push(text);
    }
    while (this.log.length > LOG_MAX) this.log.shift();
    if (announce && lines.length) this.announce(lines.slice(-4).join(" "));
  }

  announce(text) {
    const live = document.getElementById("live");
    if (!live) return;
    const p = h("p", { text });
    live.append(p);
    while (live.childNodes.length > 5) live.removeChild(live.firstChild);
  }

  /** An event in words (events.py): who did what, from this seat's point of view. */
  describe(e) {
    const n = (s) => this.name(s);
    const cardList = (cards) => cards.map(cardName).join(t("list.sep"));
    switch (e.type) {
      case "timed_out": // not an engine event: the server's word that it moved for the seat
        return t("ev.timed_out", { name: n(e.seat) });
      case "dealer_chosen":
        return t("ev.dealer", { name: n(e.dealer) });
      case "round_started":
        return t("ev.round_started", { n: e.round_no, name: n(e.dealer) });
      case "hand_dealt":
        return t("ev.hand_dealt", { n: e.cards.length });
      case "first_card":
        return t(e.returned ? "ev.first_card_returned" : "ev.first_card", { card: cardName(e.card) });
      case "card_played": {
        let text = t(e.jump_in ? "ev.jumped_in" : "ev.played", { name: n(e.seat), card: cardName(e.card) });
        if (e.color) text += ` ${t("ev.named_color", { color: t(`color.${e.color}`) })}`;
        if (e.target !== null && e.target !== undefined) text += ` ${t("ev.target", { name: n(e.target) })}`;
        if (e.uno) text += ` ${t("ev.with_uno")}`;
        return text;
      }
      case "color_chosen":
        return t("ev.color_chosen", { name: n(e.seat), color: t(`color.${e.color}`) });
      case "drew":
        return t(`ev.drew.${e.reason}`, { name: n(e.seat), n: e.count });
      case "drew_cards":
        return t("ev.you_drew", { cards: cardList(e.cards) });
      case "passed":
        return t("ev.passed", { name: n(e.seat) });
      case "skipped":
        return t("ev.skipped", { name: n(e.seat) });
      case "direction_changed":
        return t(e.direction > 0 ? "ev.direction.cw" : "ev.direction.ccw");
      case "penalty_pending":
        return t("ev.penalty", { name: n(e.victim), n: e.total });
      case "challenged":
        return t(e.guilty ? "ev.challenge.guilty" : "ev.challenge.innocent", { name: n(e.challenger), player: n(e.player) });
      case "challenge_reveal":
        return t("ev.reveal", { player: n(e.player), cards: cardList(e.cards) });
      case "hands_swapped":
        return t("ev.swapped", { name: n(e.seat), target: n(e.target) });
      case "hands_passed":
        return t("ev.passed_hands");
      case "hands_shuffled":
        return t("ev.shuffled", { name: n(e.seat) });
      case "new_hand":
        return t("ev.new_hand", { n: e.cards.length });
      case "exposed":
        return t("ev.exposed", { name: n(e.seat) });
      case "uno_called":
        return t("ev.uno", { name: n(e.seat) });
      case "caught":
        return t("ev.caught", { name: n(e.catcher), target: n(e.target), n: e.penalty });
      case "false_catch":
        return t("ev.false_catch", { name: n(e.catcher), target: n(e.target), n: e.penalty });
      case "false_uno":
        return t("ev.false_uno", { name: n(e.seat), n: e.penalty });
      case "slipped":
        return t("ev.slipped", { name: n(e.seat), n: e.cards.length });
      case "reshuffled":
        return t("ev.reshuffled", { n: e.count });
      case "revealed":
        return t("ev.revealed", { name: n(e.seat), card: cardName(e.card) });
      case "knocked_out":
        return t("ev.knocked_out", { name: n(e.seat), n: e.cards });
      case "round_ended":
        return e.winner === null || e.winner === undefined
          ? t("ev.round_blocked")
          : t("ev.round_won", { name: n(e.winner), n: e.points });
      case "match_ended":
        return t("ev.match_won", { names: e.winners.map(n).join(t("list.sep")) });
      default:
        return "";
    }
  }

  // -- acting --------------------------------------------------------------------------------------

  send(msg) {
    this.error = "";
    if (!this.conn.send(msg)) {
      this.error = t("conn.reconnecting");
      this.render();
    }
  }

  act(action) {
    this.choice = null;
    this.send({ type: "act", action });
  }

  legal() {
    return (this.view?.legal || []).map((text) => ({ text, ...parseAction(text) }));
  }

  /** The plays of one card (in notation) among the legal actions, with the UNO toggle applied. */
  playsOf(card) {
    const all = this.legal().filter((a) => a.kind === "play" && a.card === card);
    const withUno = all.filter((a) => a.uno);
    const without = all.filter((a) => !a.uno);
    if (this.unoWithPlay && withUno.length) return withUno;
    return without.length ? without : withUno;
  }

  playCard(card) {
    const options = this.playsOf(card);
    if (!options.length) return;
    if (options.length === 1) {
      this.act(options[0].text);
      return;
    }
    this.choice = { card, options, color: null };
    this.render();
    this.root.querySelector(".chooser button")?.focus();
  }

  chooseColor(color) {
    const options = this.choice.options.filter((a) => a.color === color);
    const targets = new Set(options.map((a) => a.target));
    if (targets.size <= 1) {
      this.act(options[0].text);
      return;
    }
    this.choice = { ...this.choice, color };
    this.render();
    this.root.querySelector(".chooser button")?.focus();
  }

  onKey(ev) {
    if (ev.defaultPrevented || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const tag = (ev.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "textarea" || tag === "select") return;
    if (ev.key === "Escape" && this.choice) {
      this.choice = null;
      this.render();
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
      this.moveFocus(cards, i);
    }
  }

  moveFocus(cards, i) {
    cards.forEach((c, j) => c.setAttribute("tabindex", j === i ? "0" : "-1"));
    cards[i]?.focus();
    cards[i]?.scrollIntoView({ block: "nearest", inline: "nearest" });
    this.focusKey = cards[i]?.dataset.key ?? null;
  }

  // -- rendering -----------------------------------------------------------------------------------

  render() {
    const active = document.activeElement;
    const focusKey = active?.dataset?.key ?? null;
    const inHand = Boolean(active?.closest?.(".hand"));
    // what the reader opened or closed stays so across renders
    const opened = new Map([...this.root.querySelectorAll("details")].map((d, i) => [d.dataset.key || d.id || d.className || i, d.open]));
    clear(this.root);
    if (this.connState === "taken_over") {
      this.root.append(this.renderTakenOver());
      return;
    }
    if (this.connState === "gone" || !this.table) {
      this.root.append(h("section", { class: "panel" }, h("p", { text: t(this.connState === "gone" ? "table.gone" : "conn.connecting") })));
      return;
    }
    const status = this.table.status;
    const page = h("div", { class: `table-page status-${status}`, "data-status": status });
    if (status === "waiting") page.append(this.renderWaiting());
    else page.append(this.renderPlay());
    page.append(this.renderSide());
    this.root.append(page);
    this.tick();
    this.animate(this.moves || []);
    this.moves = [];
    for (const d of this.root.querySelectorAll("details")) {
      const key = d.dataset.key || d.id || d.className;
      if (opened.has(key)) d.open = opened.get(key);
    }
    const again = focusKey ? this.root.querySelector(`[data-key="${CSS.escape(focusKey)}"]`) : null;
    if (again) again.focus({ preventScroll: true });
    else if (inHand) this.root.querySelector(".hand .card[tabindex='0']")?.focus({ preventScroll: true });
  }

  /**
   * Card movements, in the order of the events: a played card flies from its seat to the discard
   * pile, drawn cards from the draw pile to the seat. Clones only (they take no clicks), a few
   * hundred milliseconds in all; nothing moves for people who ask for reduced motion.
   */
  animate(events) {
    if (!events.length || !document.body.animate || matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    const me = this.you.seat;
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

  renderTakenOver() {
    return h("section", { class: "panel", role: "alert" },
      h("p", { text: t("conn.taken_over_long") }),
      h("button", { type: "button", class: "primary", "data-key": "take-back", text: t("conn.take_back"), onclick: () => this.conn.open() }));
  }

  errorLine() {
    return h("p", { class: "error", role: "alert", id: "error", title: this.errorDetail || "" }, this.error || "");
  }

  renderWaiting() {
    const table = this.table;
    const mine = this.you.seat;
    const host = this.you.host;
    const filled = table.seats.filter((s) => s.kind !== "empty").length;
    const nameInput = h("input", {
      type: "text", id: "my-name", "data-key": "my-name", maxlength: 24, autocomplete: "nickname",
      placeholder: t("wait.name_placeholder"), "aria-label": t("wait.name"),
    });
    nameInput.value = this.nameDraft ?? (localStorage.getItem("ut:name") || "");
    nameInput.addEventListener("input", () => { this.nameDraft = nameInput.value; });
    const levelSel = h("select", { id: "add-level", "aria-label": t("create.bot_level") },
      BOT_LEVELS.map((l) => h("option", { value: l, text: t(`bot.${l}`) })));
    levelSel.value = table.settings.bot_level || "heuristic";
    const sit = (seat) => {
      const name = nameInput.value.trim() || t("wait.default_name", { n: seat + 1 });
      localStorage.setItem("ut:name", name);
      this.send({ type: "sit", seat, name });
    };
    const rows = table.seats.map((s, i) => {
      const label = s.kind === "empty" ? t("wait.free") : s.kind === "bot" ? t("seat.bot_named", { name: s.name, level: t(`bot.${s.level}`) }) : s.name;
      const actions = [];
      if (s.kind === "empty" && mine === null) {
        actions.push(h("button", { type: "button", class: "primary sit", "data-key": `sit-${i}`, "data-seat": i, text: t("wait.sit"), onclick: () => sit(i) }));
      }
      if (host && s.kind === "empty") {
        actions.push(h("button", { type: "button", class: "add-bot", "data-key": `bot-${i}`, text: t("wait.add_bot"), onclick: () => this.send({ type: "add_bot", seat: i, level: levelSel.value }) }));
      }
      if (host && s.kind === "bot") {
        actions.push(h("button", { type: "button", class: "remove-bot", "data-key": `unbot-${i}`, text: t("wait.remove_bot"), onclick: () => this.send({ type: "remove_bot", seat: i }) }));
      }
      if (host && s.kind === "human" && i !== mine) {
        actions.push(h("button", { type: "button", class: "kick", "data-key": `kick-${i}`, text: t("wait.kick"), onclick: () => this.send({ type: "kick", seat: i }) }));
      }
      if (i === mine) {
        actions.push(h("button", { type: "button", class: "leave", "data-key": "leave", text: t("wait.leave"), onclick: () => { store.set(this.tableId, "seat", null); this.you = { ...this.you, seat: null }; this.send({ type: "leave" }); } }));
      }
      return h("li", { class: `seat-row kind-${s.kind}${i === mine ? " me" : ""}`, "data-seat": i },
        h("span", { class: "seat-no", text: num(i + 1) }),
        h("span", { class: "seat-name" }, label, i === mine ? h("span", { class: "badge", text: t("seat.you") }) : null),
        s.kind === "human" ? h("span", { class: `dot ${s.connected ? "on" : "off"}`, text: t(s.connected ? "seat.connected" : "seat.away") }) : null,
        h("span", { class: "seat-actions" }, actions));
    });
    const settings = table.settings;
    const summary = [
      t(`preset.${settings.preset}`),
      settings.turn_seconds ? t("create.seconds", { n: settings.turn_seconds }) : t("create.no_timer"),
    ];
    if (settings.options?.target_score) summary.push(t("wait.target", { n: settings.options.target_score }));
    return h("section", { class: "panel waiting", "aria-labelledby": "wait-title" },
      h("h1", { id: "wait-title", text: t("wait.title") }),
      h("p", { class: "hint", text: summary.join(" · ") }),
      h("h2", { text: t("wait.invite") }),
      shareBox(location.origin + location.pathname, { compact: true }),
      h("h2", { text: t("wait.seats") }),
      mine === null ? h("div", { class: "field" }, h("label", { for: "my-name", text: t("wait.name") }), nameInput) : null,
      h("ol", { class: "seats-list" }, rows),
      host ? h("div", { class: "host-controls" },
        h("label", { for: "add-level", text: t("create.bot_level") }), levelSel,
        h("button", { type: "button", class: "primary big", id: "start", "data-key": "start", disabled: filled < 2, text: t("wait.start"), onclick: () => this.send({ type: "start" }) }),
        filled < 2 ? h("p", { class: "hint", text: t("wait.need_two") }) : null) : h("p", { class: "hint", text: t("wait.host_starts") }),
      host ? this.renderSettings(table) : null,
      h("p", { class: "hint", text: t("table.spectators", { n: table.spectators }) }),
      this.errorLine());
  }

  /** The host's settings in the waiting room: rules and house rules, seats, turn timer, points to win. */
  renderSettings(table) {
    const st = table.settings;
    const preset = h("select", { id: "set-preset", "data-key": "set-preset" }, PRESETS.map((p) => h("option", { value: p, text: t(`preset.${p}`) })));
    preset.value = st.preset;
    const seats = h("select", { id: "set-seats", "data-key": "set-seats" });
    for (let n = 2; n <= 10; n++) seats.append(h("option", { value: n, text: num(n) }));
    seats.value = String(st.seats);
    const timer = h("select", { id: "set-timer", "data-key": "set-timer" },
      [0, 20, 30, 60, 90, 120].map((x) => h("option", { value: x, text: x ? t("create.seconds", { n: x }) : t("create.no_timer") })));
    timer.value = String(st.turn_seconds || 0);
    if (!timer.value) timer.value = "0";
    const target = h("input", { id: "set-target", "data-key": "set-target", type: "number", min: 1, max: 100000, inputmode: "numeric" });
    // the table's points to win, or another rule set's own
    const goalOf = (name) => String(name === st.preset ? st.options?.target_score ?? defaultTarget(name) : defaultTarget(name));
    target.value = goalOf(st.preset);
    const switches = houseSwitches("set-opt");
    const field = (id, label, control) => h("div", { class: "field" }, h("label", { for: id, text: label }), control);
    // what the host changed but has not applied yet survives the re-renders of other updates
    const draft = this.settingsDraft || {};
    for (const [el, key] of [[preset, "preset"], [seats, "seats"], [timer, "timer"], [target, "target"]]) {
      if (draft[key] !== undefined) el.value = draft[key];
      el.addEventListener("change", () => { this.settingsDraft = { ...(this.settingsDraft || {}), [key]: el.value }; });
    }
    switches.set(preset.value, preset.value === st.preset ? st.options || {} : {});
    for (const [opt, on] of Object.entries(draft.switches || {})) {
      if (!switches.boxes[opt].disabled) switches.boxes[opt].checked = on;
    }
    for (const [opt, box] of Object.entries(switches.boxes)) {
      box.addEventListener("change", () => {
        const d = this.settingsDraft || {};
        this.settingsDraft = { ...d, switches: { ...(d.switches || {}), [opt]: box.checked } };
      });
    }
    preset.addEventListener("change", () => {
      // another rule set: its own house rules and points to win, until the host changes them
      this.settingsDraft = { ...(this.settingsDraft || {}), switches: {}, target: goalOf(preset.value) };
      switches.set(preset.value, preset.value === st.preset ? st.options || {} : {});
      target.value = goalOf(preset.value);
    });
    const apply = () => {
      this.settingsDraft = null;
      // options the switches do not show (set through the API) are kept while the rule set stays
      const kept = preset.value === st.preset ? { ...(st.options || {}) } : {};
      for (const tg of TOGGLES) delete kept[tg.opt];
      delete kept.target_score;
      const options = { ...kept, ...switches.read(preset.value) };
      const goal = Number(target.value);
      if (Number.isInteger(goal) && goal >= 1 && goal !== defaultTarget(preset.value)) options.target_score = goal;
      this.send({ type: "settings", preset: preset.value, seats: Number(seats.value), turn_seconds: Number(timer.value), options });
    };
    return h("details", { class: "settings-box", id: "settings" },
      h("summary", { text: t("wait.settings") }),
      h("div", { class: "row" }, field("set-preset", t("create.preset"), preset), field("set-seats", t("create.seats"), seats)),
      switches.element,
      h("div", { class: "row" }, field("set-timer", t("create.timer"), timer), field("set-target", t("create.target"), target)),
      h("button", { type: "button", id: "apply-settings", "data-key": "apply-settings", text: t("wait.apply"), onclick: apply }));
  }

  renderPlay() {
    const v = this.view;
    const wrap = h("section", { class: "play", "aria-label": t("table.label") });
    if (!v) {
      wrap.append(h("p", { text: t("conn.connecting") }));
      return wrap;
    }
    const me = this.you.seat;
    const legal = this.legal();
    wrap.append(this.renderSeats(v, legal));
    wrap.append(this.renderCenter(v, legal));
    if (this.table.status === "round_over" || this.table.status === "match_over") wrap.append(this.renderSummary(v));
    wrap.append(this.renderControls(v, legal));
    if (me !== null && me !== undefined && v.hand) wrap.append(this.renderHand(v, legal));
    else wrap.append(h("p", { class: "watching", text: t("table.watching") }));
    wrap.append(this.errorLine());
    return wrap;
  }

  renderSeats(v, legal) {
    const n = v.hand_sizes.length;
    const me = this.you.seat;
    const start = me === null || me === undefined ? 0 : me + 1;
    const list = h("ol", { class: "seats", "aria-label": t("table.seats") });
    const order = [];
    for (let k = 0; k < n; k++) order.push((start + k) % n);
    for (const s of order) {
      if (s === me) continue;
      list.append(this.seatBox(v, s, legal));
    }
    return list;
  }

  seatBox(v, s, legal) {
    const info = this.table.seats[s] || {};
    const acting = v.active === s && v.phase !== "round_over" && v.phase !== "match_over";
    const catchAct = legal.find((a) => a.kind === "catch" && a.target === s);
    const badges = [];
    if (v.dealer === s) badges.push(h("span", { class: "badge", text: t("seat.dealer") }));
    if (info.kind === "bot") badges.push(h("span", { class: "badge", text: t("seat.bot", { level: t(`bot.${info.level}`) }) }));
    if (info.autopilot) badges.push(h("span", { class: "badge", text: t("seat.autopilot") }));
    if (info.kind === "human" && !info.connected) badges.push(h("span", { class: "badge off", text: t("seat.away") }));
    if (v.called[s]) badges.push(h("span", { class: "badge uno", text: t("seat.uno") }));
    if (v.exposed[s]) badges.push(h("span", { class: "badge exposed", text: t("seat.exposed") }));
    if (v.knocked_out[s]) badges.push(h("span", { class: "badge off", text: t("seat.knocked_out") }));
    if (v.eliminated[s]) badges.push(h("span", { class: "badge off", text: t("seat.eliminated") }));
    const count = v.hand_sizes[s];
    return h("li", {
      class: `seat${acting ? " acting" : ""}`, "data-seat": s,
      "aria-label": t("seat.aria", { name: this.name(s), n: count }),
      "aria-current": acting ? "true" : null,
    },
    h("span", { class: "seat-name", text: this.name(s) }),
    h("span", { class: "count" }, h("span", { class: "mini-back", "aria-hidden": "true" }), t("seat.cards", { n: count })),
    h("span", { class: "score", text: t("seat.score", { n: v.scores[s] }) }),
    h("span", { class: "badges" }, badges),
    acting ? h("span", { class: "turn-mark" }, t("seat.acting"), this.turnEndsAt !== null ? h("span", { class: "timer" }) : null) : null,
    catchAct ? h("button", { type: "button", class: "catch danger", "data-key": `catch-${s}`, "data-target": s, text: t("act.catch", { name: this.name(s) }), onclick: () => this.act(catchAct.text) }) : null);
  }

  renderCenter(v, legal) {
    const drawAct = legal.find((a) => a.kind === "draw");
    const pile = h("div", { class: "pile draw-pile" },
      drawAct
        ? h("button", { type: "button", class: "draw-btn", id: "draw", "data-key": "draw", "aria-keyshortcuts": "D", "aria-label": t("act.draw_aria", { n: v.draw_pile_size }), onclick: () => this.act("draw") },
          cardBack(), h("span", { class: "pile-label", text: t("act.draw") }))
        : h("div", { class: "draw-static" }, cardBack()),
      h("span", { class: "pile-count", id: "draw-count", text: t("table.draw_pile", { n: v.draw_pile_size }) }));
    const top = v.top_card;
    const color = v.current_color;
    const topKey = `${v.discard_pile.length}:${top}`;
    const fresh = topKey !== this.lastTopKey;
    this.lastTopKey = topKey;
    const topEl = top ? cardElement(top, { big: true }) : h("div", { class: "card empty" });
    if (fresh) topEl.classList.add("arrive");
    const discard = h("div", { class: `pile discard${color ? ` ring-${color}` : ""}`, id: "discard", "data-color": color || "" },
      topEl,
      h("span", { class: `current-color cc-${color || "none"}`, id: "current-color" },
        color ? `${SHAPES[color]} ${t("table.color", { color: t(`color.${color}`) })}` : t("table.no_color")));
    const dirText = t(v.direction > 0 ? "table.direction.cw" : "table.direction.ccw");
    const info = h("div", { class: "table-info" },
      h("span", { class: "direction", id: "direction", title: dirText }, h("span", { class: "arrow", "aria-hidden": "true", text: v.direction > 0 ? "↻" : "↺" }), dirText),
      h("span", { class: "round", text: t("table.round", { n: v.round_no }) }),
      h("span", { class: "target", text: t("table.target", { n: this.static?.ruleset?.target_score ?? 500 }) }));
    const banners = [];
    if (v.pending_penalty > 0) {
      banners.push(h("p", { class: "penalty", id: "penalty", role: "status" }, t("table.pending", { n: v.pending_penalty, name: this.name(v.active) })));
    }
    const me = this.you.seat;
    if (me !== null && me !== undefined && v.active === me && v.phase !== "round_over" && v.phase !== "match_over") {
      banners.push(h("p", { class: "your-turn", id: "your-turn" }, t("table.your_turn"), this.turnEndsAt !== null ? h("span", { class: "timer" }) : null));
    }
    return h("div", { class: "center" }, h("div", { class: "piles" }, pile, discard), info, banners);
  }

  renderControls(v, legal) {
    const box = h("div", { class: "controls", id: "controls", role: "group", "aria-label": t("act.label") });
    const btn = (id, text, action, cls = "", keys = null) =>
      h("button", { type: "button", id, class: cls, "data-key": id, "aria-keyshortcuts": keys, text, onclick: () => this.act(action) });
    if (this.choice) {
      box.append(this.renderChooser());
      return box;
    }
    const colors = legal.filter((a) => a.kind === "color");
    if (colors.length) {
      const why = v.awaiting_color_for === "first_card" ? "act.name_color.first" : "act.name_color.roulette";
      const targets = new Set(colors.map((a) => a.target));
      box.append(h("p", { class: "prompt", text: t(why) }));
      const row = h("div", { class: "color-row" });
      for (const a of colors) {
        const label = a.target === null ? t(`color.${a.color}`) : t("act.color_target", { color: t(`color.${a.color}`), name: this.name(a.target) });
        row.append(h("button", { type: "button", class: `color-btn cb-${a.color}`, "data-key": `color-${a.text}`, "data-action": a.text, onclick: () => this.act(a.text) },
          h("span", { "aria-hidden": "true", text: `${SHAPES[a.color]} ${a.color}` }), " ", label));
      }
      if (targets.size > 1) box.classList.add("with-targets");
      box.append(row);
    }
    if (legal.some((a) => a.kind === "accept")) {
      const pending = v.pending_penalty;
      box.append(btn("accept", pending ? t("act.accept_n", { n: pending }) : t("act.accept"), "accept", "", "A"));
    }
    if (legal.some((a) => a.kind === "challenge")) box.append(btn("challenge", t("act.challenge"), "challenge", "danger", "X"));
    if (legal.some((a) => a.kind === "pass")) box.append(btn("pass", t("act.pass"), "pass", "", "P"));
    if (legal.some((a) => a.kind === "uno")) box.append(btn("call-uno", t("act.uno"), "uno", "uno-btn", "U"));
    const me = this.you.seat;
    const playsNow = legal.filter((a) => a.kind === "play");
    if (playsNow.length && v.active !== me) box.append(h("p", { class: "prompt jump", text: t("act.jump_in") }));
    if (v.phase === "respond" && v.active === me && playsNow.length) box.append(h("p", { class: "prompt", text: t("act.respond") }));
    if (playsNow.some((a) => a.uno)) {
      const toggle = h("input", { type: "checkbox", id: "uno-toggle", checked: this.unoWithPlay });
      toggle.checked = this.unoWithPlay;
      toggle.addEventListener("change", () => { this.unoWithPlay = toggle.checked; });
      box.append(h("label", { class: "toggle uno-toggle", for: "uno-toggle" }, toggle, h("span", { text: t("act.uno_with_play") })));
    }
    for (const a of legal.filter((x) => x.kind === "catch")) {
      box.append(btn(`catch-btn-${a.target}`, t("act.catch", { name: this.name(a.target) }), a.text, "danger catch", "C"));
    }
    if (this.you.host && this.table.status === "round_over") {
      box.append(h("button", { type: "button", id: "next-round", class: "primary", "data-key": "next-round", text: t("act.next_round"), onclick: () => this.send({ type: "next_round" }) }));
    }
    if (this.you.host && this.table.status === "match_over") {
      box.append(h("button", { type: "button", id: "rematch", class: "primary", "data-key": "rematch", text: t("act.rematch"), onclick: () => this.send({ type: "rematch" }) }));
    }
    if (!box.childNodes.length) box.append(h("p", { class: "hint", text: this.waitingFor(v) }));
    return box;
  }

  waitingFor(v) {
    if (this.table.status === "round_over") return t("table.next_round_soon");
    if (this.table.status === "match_over") return t("table.match_over");
    if (v.active === this.you.seat) return t("act.play_hint");
    return t("table.waiting_for", { name: this.name(v.active) });
  }

  renderChooser() {
    const c = this.choice;
    const box = h("div", { class: "chooser", role: "dialog", "aria-label": t("act.choose") });
    const colors = [...new Set(c.options.map((a) => a.color).filter(Boolean))];
    if (c.color === null && colors.length > 1) {
      box.append(h("p", { class: "prompt", text: t("act.choose_color", { card: cardName(c.card) }) }));
      const row = h("div", { class: "color-row" });
      for (const col of COLORS.filter((x) => colors.includes(x))) {
        row.append(h("button", { type: "button", class: `color-btn cb-${col}`, "data-key": `pick-${col}`, "data-color": col, onclick: () => this.chooseColor(col) },
          h("span", { "aria-hidden": "true", text: `${SHAPES[col]} ${col}` }), " ", t(`color.${col}`)));
      }
      box.append(row);
    } else {
      const options = c.color ? c.options.filter((a) => a.color === c.color) : c.options;
      box.append(h("p", { class: "prompt", text: t("act.choose_target", { card: cardName(c.card) }) }));
      const row = h("div", { class: "target-row" });
      for (const a of options) {
        row.append(h("button", { type: "button", class: "target-btn", "data-key": `target-${a.target}`, "data-target": a.target, onclick: () => this.act(a.text) },
          t("act.target", { name: this.name(a.target), n: this.view.hand_sizes[a.target] })));
      }
      box.append(row);
    }
    box.append(h("button", { type: "button", class: "cancel", "data-key": "cancel", text: t("act.cancel"), onclick: () => { this.choice = null; this.render(); } }));
    return box;
  }

  renderHand(v, legal) {
    const playable = new Set(legal.filter((a) => a.kind === "play").map((a) => a.card));
    const cards = [...v.hand].map((code, i) => ({ code, i })).sort((a, b) => sortKey(a.code) - sortKey(b.code) || a.i - b.i);
    const hand = h("div", { class: "hand", role: "toolbar", "aria-label": t("hand.label", { n: cards.length }), "aria-orientation": "horizontal" });
    let group = null;
    let groupKey = null;
    const seen = {};
    let focusable = null;
    for (const { code } of cards) {
      const color = code.startsWith("W") ? "W" : code[0];
      if (color !== groupKey) {
        groupKey = color;
        group = h("div", { class: `group g-${color}`, role: "group", "aria-label": color === "W" ? t("hand.wilds") : t(`color.${color}`) });
        hand.append(group);
      }
      seen[code] = (seen[code] || 0) + 1;
      const el = cardElement(code, { button: true });
      const ok = playable.has(code);
      el.dataset.key = `card-${code}-${seen[code]}`;
      el.setAttribute("tabindex", "-1");
      if (ok) {
        el.classList.add("playable");
        el.setAttribute("aria-label", t("hand.playable", { card: cardName(code) }));
        el.addEventListener("click", () => this.playCard(code));
      } else {
        el.setAttribute("aria-disabled", "true");
        el.addEventListener("click", () => {
          this.error = t("hand.not_playable", { card: cardName(code) });
          this.render();
        });
      }
      if (v.drawn_card === code) el.classList.add("drawn");
      if (focusable === null && ok) focusable = el;
      group.append(el);
    }
    const all = hand.querySelectorAll(".card");
    (focusable || all[0])?.setAttribute("tabindex", "0");
    const header = h("div", { class: "hand-head" },
      h("span", { class: "me-name", text: this.name(this.you.seat) }),
      h("span", { class: "count", text: t("seat.cards", { n: v.hand.length }) }),
      h("span", { class: "score", text: t("seat.score", { n: v.scores[this.you.seat] }) }),
      v.called[this.you.seat] ? h("span", { class: "badge uno", text: t("seat.uno") }) : null,
      v.exposed[this.you.seat] ? h("span", { class: "badge exposed", text: t("seat.exposed") }) : null,
      h("span", { class: "keys hint", text: t("hand.keys") }));
    return h("div", { class: "hand-wrap", "data-lang": currentLang() }, header, hand);
  }

  renderSummary(v) {
    const last = v.last_round;
    const box = h("section", { class: "summary panel", id: "summary", "aria-labelledby": "summary-title" });
    const over = this.table.status === "match_over";
    box.append(h("h2", { id: "summary-title", text: over ? t("sum.match_over") : t("sum.round_over", { n: last ? last.round_no : v.round_no }) }));
    if (last) {
      box.append(h("p", { class: "lead", text: last.winner === null ? t("ev.round_blocked") : t("ev.round_won", { name: this.name(last.winner), n: last.points }) }));
    }
    if (v.outcome) box.append(h("p", { class: "lead winner", text: t("ev.match_won", { names: v.outcome.winners.map((s) => this.name(s)).join(t("list.sep")) }) }));
    const rows = v.scores.map((score, s) => ({ s, score, hand: last ? last.hand_points[s] : null }));
    rows.sort((a, b) => b.score - a.score);
    const target = this.static?.ruleset?.target_score ?? 500;
    const tableEl = h("table", { class: "standings" },
      h("caption", { text: t("sum.standings", { n: target }) }),
      h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("sum.player") }), h("th", { scope: "col", text: t("sum.hand_points") }), h("th", { scope: "col", text: t("sum.total") }))),
      h("tbody", {}, rows.map((r) => h("tr", { class: r.s === this.you.seat ? "me" : "" },
        h("th", { scope: "row", text: this.name(r.s) }),
        h("td", { text: r.hand === null ? "–" : num(r.hand) }),
        h("td", {}, num(r.score), h("meter", { min: 0, max: target, value: Math.min(r.score, target), "aria-hidden": "true" }))))));
    box.append(tableEl);
    if (over) box.append(h("a", { href: `/t/${this.tableId}/record`, class: "button", download: "", text: t("sum.record") }));
    return box;
  }

  renderSide() {
    const side = h("aside", { class: "side" });
    const log = h("ol", { class: "log", id: "log", "aria-label": t("log.label") });
    for (const line of this.log.slice(-60)) log.append(h("li", { text: this.describe(line.e) }));
    const chatList = h("ol", { class: "chat-list", id: "chat-list" });
    for (const c of this.chat.slice(-50)) chatList.append(h("li", {}, h("strong", { text: `${c.name}: ` }), h("span", { text: c.text })));
    const input = h("input", { type: "text", id: "chat-input", "data-key": "chat-input", maxlength: 200, "aria-label": t("chat.placeholder"), placeholder: t("chat.placeholder"), autocomplete: "off" });
    input.value = this.chatDraft || "";
    input.addEventListener("input", () => { this.chatDraft = input.value; });
    const canChat = this.you.seat !== null && this.you.seat !== undefined || this.you.host;
    const form = h("form", { class: "chat-form", id: "chat-form" }, input, h("button", { type: "submit", text: t("chat.send") }));
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      this.send({ type: "chat", text });
      input.value = "";
      this.chatDraft = "";
    });
    const token = store.get(this.tableId, "seat");
    const hostToken = store.get(this.tableId, "host");
    let move = null;
    if ((token && this.you.seat !== null && this.you.seat !== undefined) || (hostToken && this.you.host)) {
      const params = new URLSearchParams();
      if (token && this.you.seat !== null && this.you.seat !== undefined) params.set("seat", token);
      if (hostToken && this.you.host) params.set("host", hostToken);
      const link = `${location.origin}/t/${this.tableId}#${params}`;
      move = h("details", { class: "move-box" },
        h("summary", { text: t("move.title") }),
        h("p", { class: "hint", text: t("move.hint") }),
        shareBox(link, { compact: true, id: "move" }));
    }
    side.append(
      h("details", { class: "log-box", open: true }, h("summary", { text: t("log.title") }), log),
      h("details", { class: "chat-box", open: true }, h("summary", { text: t("chat.title") }), chatList, canChat ? form : h("p", { class: "hint", text: t("chat.spectator") })),
      h("p", { class: "hint", text: t("table.spectators", { n: this.table.spectators }) }),
      move);
    queueMicrotask(() => {
      log.scrollTop = log.scrollHeight;
      chatList.scrollTop = chatList.scrollHeight;
    });
    return side;
  }
}
