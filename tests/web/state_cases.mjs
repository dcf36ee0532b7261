// Cases of the table page's state reducer (unotable/server/web/state.js), run by test_state.py in
// node and in the browser. run(S) takes the module and returns the failures (empty: all pass).

export function run(S) {
  const failures = [];
  const check = (name, got, want) => {
    const a = JSON.stringify(got);
    const b = JSON.stringify(want);
    if (a !== b) failures.push(`${name}: got ${a}, want ${b}`);
  };
  const view = (over) => ({
    seq: 5, hand: ["R1", "R2"], hand_sizes: [2, 3, 3], scores: [0, 0, 0], called: [false, false, false],
    exposed: [false, false, false], knocked_out: [false, false, false], eliminated: [false, false, false],
    active: 0, direction: 1, phase: "play", legal: ["R1!", "R1", "draw"], pending_penalty: 0, ...over,
  });
  const seats = (auto = false) => [{ kind: "human", autopilot: auto }, { kind: "human" }, { kind: "bot" }];
  const welcome = (over = {}) => ({
    type: "welcome", you: { seat: 0, host: true }, table: { status: "playing", seats: seats(), turn_deadline: 30 },
    static: null, view: view(), events: [], ...over,
  });

  // a welcome sets everything, and says it is this seat's turn
  let s = S.reduce(S.initialState(), welcome());
  check("welcome seat", s.you.seat, 0);
  check("welcome turn", s.moments.yourTurn, true);
  check("welcome deadline", s.deadline, 30);
  // a welcome that carries the round's history and the chat replaces the log and the chat
  s = S.reduce(s, welcome({ history: [{ type: "passed", seat: 1, seq: 1 }], chat: [{ name: "Bo", text: "hi" }] }));
  check("history", s.log.map((l) => l.e.type), ["passed"]);
  check("chat", s.chat, [{ name: "Bo", text: "hi" }]);
  // a welcome without history keeps what was seen and adds the missed events
  s = S.reduce(s, welcome({ events: [{ type: "drew", seat: 1, count: 1, reason: "draw", seq: 2 }] }));
  check("resume keeps the log", s.log.map((l) => l.seq), [1, 2]);

  // choosing a card, then an update with a new seq forgets the choice
  s = S.reduce(s, { type: "ui/select", key: "card-R1-1" });
  check("selected", [s.selected, S.selectedCard(s)], ["card-R1-1", "R1"]);
  const caught = { type: "caught", catcher: 1, target: 0, penalty: 2, seq: 6 };
  const drewCatch = { type: "drew", seat: 0, count: 2, reason: "catch", seq: 7 };
  s = S.reduce(s, { type: "update", view: view({ seq: 7, active: 1, legal: [] }), events: [caught, drewCatch] });
  check("choice forgotten", s.selected, null);
  check("banners: the catch once, about me", s.moments.banners.map((b) => [b.e.type, b.mine]), [["caught", true]]);
  check("sounds: a penalty to me", s.moments.sounds, ["penalty", "penalty"]);
  // someone else's catch and a play by anyone: the "all" setting's sounds, not the default's
  check("others' catch", S.momentsOf([{ type: "caught", catcher: 0, target: 2, penalty: 2 }, { type: "card_played", seat: 1, card: "R2" }], 0).sounds, ["catch", "play"]);
  check("a penalty to me", S.momentsOf([{ type: "drew", seat: 0, count: 2, reason: "penalty" }, { type: "drew", seat: 0, count: 1, reason: "draw" }], 0).sounds, ["penalty"]);
  check("a spectator's penalty sound", S.momentsOf([{ type: "drew", seat: 0, count: 2, reason: "penalty" }], null).sounds, []);
  check("not my turn", s.moments.yourTurn, false);
  // the turn comes back: one signal
  s = S.reduce(s, { type: "update", view: view({ seq: 8, active: 0 }), events: [{ type: "passed", seat: 2, seq: 8 }] });
  check("my turn again", [s.moments.yourTurn, s.moments.sounds], [true, ["turn"]]);
  // an error is kept with its code; the state is otherwise unchanged
  const before = s.view;
  s = S.reduce(s, { type: "error", code: "illegal", message: "no" });
  check("error", [s.error.code, s.view === before], ["illegal", true]);
  // the log is bounded
  let big = S.initialState();
  const many = Array.from({ length: S.LOG_MAX + 20 }, (_, i) => ({ type: "passed", seat: 1, seq: i }));
  big = S.reduce(big, { type: "update", view: view(), events: many });
  check("log bounded", [big.log.length, big.log[0].seq], [S.LOG_MAX, 20]);
  // a penalty draw is a banner of its own; a plain draw is not
  check("penalty banner", S.momentsOf([{ type: "drew", seat: 2, count: 4, reason: "penalty" }, { type: "drew", seat: 2, count: 1, reason: "draw" }], 0).banners.length, 1);
  // autopilot: the seat's own flag
  check("autopilot", S.onAutopilot(S.reduce(S.initialState(), welcome({ table: { status: "playing", seats: seats(true) } }))), true);
  // a reaction is a moment, not state
  const r = S.reduce(s, { type: "reaction", seat: 1, name: "Bo", reaction: "gg", seq: 9 });
  check("reaction", [r.moments.reactions, r.log.length === s.log.length], [[{ seat: 1, name: "Bo", reaction: "gg" }], true]);
  // unknown messages leave the state as it was
  check("unknown", S.reduce(s, { type: "nonsense" }) === s, true);

  // plays: the UNO call rides on the play that leaves one card
  const legal = S.legalOf(view());
  check("plays with uno", S.playsOf(legal, "R1", true).map((a) => a.text), ["R1!"]);
  check("plays without", S.playsOf(legal, "R1", false).map((a) => a.text), ["R1"]);
  check("leaves one", [S.leavesOne(legal, "R1"), S.leavesOne(legal, "R2")], [true, false]);

  // the ring: turn order from the viewer, places on the arc from bottom left over the top
  check("ring order", S.ringOrder(5, 3), [4, 0, 1, 2]);
  check("ring order spectator", S.ringOrder(3, null), [0, 1, 2]);
  const p = S.ringPlaces(3);
  check("ring: first on the left, last on the right, middle on top", [p[0].x < 50, p[2].x > 50, p[1].y < p[0].y], [true, true, true]);
  check("ring: one seat at the top", S.ringPlaces(1), [{ x: 50, y: 0 }]);
  // evenly spaced along the arc (in pixels of a box twice as tall as wide)
  const q = S.ringPlaces(9, 2);
  const gaps = q.slice(1).map((b, i) => Math.hypot(b.x - q[i].x, (b.y - q[i].y) * 2));
  check("ring: even gaps", Math.max(...gaps) / Math.min(...gaps) < 1.15, true);
  for (let k = 1; k <= 9; k++) {
    const ps = S.ringPlaces(k);
    const inside = ps.every((q) => q.x >= 0 && q.x <= 100 && q.y >= 0 && q.y <= 100);
    const sorted = ps.every((q, i) => i === 0 || q.x >= ps[i - 1].x - 0.01);
    check(`ring ${k}`, [ps.length, inside, sorted], [k, true, true]);
  }
  // next: in the direction of play, skipping seats out of the round
  check("next cw", S.nextSeat(view({ active: 2 })), 0);
  check("next ccw", S.nextSeat(view({ active: 0, direction: -1 })), 2);
  check("next skips", S.nextSeat(view({ active: 0, knocked_out: [false, true, false] })), 2);

  // the rules in force
  const toggles = [{ opt: "stacking", off: "none" }, { opt: "jump_in", off: false }, { opt: "seven_zero", off: false }];
  const base = (preset, opt) => ({ house: { stacking: "same_kind", jump_in: true } }[preset]?.[opt] ?? toggles.find((x) => x.opt === opt).off);
  check("rules official", S.rulesInForce({ preset: "official", options: {} }, toggles, base), []);
  check("rules official+7-0", S.rulesInForce({ preset: "official", options: { seven_zero: true } }, toggles, base), ["seven_zero"]);
  check("rules house-jump", S.rulesInForce({ preset: "house", options: { jump_in: false } }, toggles, base), ["stacking"]);
  // a challenge's stakes (CL-ACT-12, CL-ACT-13)
  check("stakes", S.challengeStakes(view({ pending_penalty: 4 })), { take: 4, lose: 6, win: 4 });
  check("stakes stacked", S.challengeStakes(view({ pending_penalty: 8 })), { take: 8, lose: 10, win: 8 });
  // links friends can reach
  check("reachable", ["127.0.0.1", "localhost", "[::1]", "192.168.1.20", "uno.example.org"].map(S.reachable), [false, false, false, true, true]);
  return failures;
}
