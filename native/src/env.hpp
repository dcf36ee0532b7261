// The RL layouts of unotable/env/spaces.py: the action index (Discrete(445)), the legal-action mask
// and the 854-byte observation, written byte for byte as spaces.index_of, legal_mask and encode do.
#pragma once
#include <cstring>

#include "core.hpp"

namespace uno {

constexpr int NUM_ACTIONS = 445, NOOP = 444, OBS_SIZE = 854;
enum : int {
    O_HAND = 0, O_DRAWN = 74, O_TOP = 148, O_COLOR = 222, O_AWAIT = 227, O_PENDING = 230, O_PENDING_CARD = 231,
    O_MAY_CHALLENGE = 305, O_PHASE = 306, O_DIRECTION = 312, O_DRAW_SIZE = 313, O_DISCARD_SIZE = 314,
    O_ROUND_NO = 315, O_NUM_SEATS = 316, O_SEATS_IN_ROUND = 317, O_SEATS = 318, O_DISCARD_COUNTS = 458,
    O_HISTORY = 532, O_RULESET = 772, RULESET_SIZE = 82,
};

// (target - seat) % n for seats 0..n-1, without a division
inline int rel_of(int target, int seat, int n) {
    int r = target - seat;
    return r < 0 ? r + n : r;
}

// spaces.index_of
inline int index_of(const Act& a, int seat, int n) {
    switch (a.kind) {
        case K_PLAY: {
            int c = a.card, u = a.uno ? 1 : 0;
            if (c < 64) {
                if (a.target < 0) return 2 * c + u;
                return 128 + 2 * (9 * id_color(c) + rel_of(a.target, seat, n) - 1) + u;
            }
            int s = a.color < 0 ? 0 : 1 + a.color;
            if (a.target < 0) return 200 + 2 * (5 * (c - 64) + s) + u;
            return 300 + 2 * (9 * s + rel_of(a.target, seat, n) - 1) + u;
        }
        case K_DRAW: return 390;
        case K_PASS: return 391;
        case K_ACCEPT: return 392;
        case K_CHALLENGE: return 393;
        case K_CHOOSE: return 394 + 10 * a.color + (a.target < 0 ? 0 : rel_of(a.target, seat, n));
        case K_CALL: return 434;
        case K_CATCH: return 435 + rel_of(a.target, seat, n) - 1;
        default: return NOOP;
    }
}

// spaces.legal_mask (no NOOP: the core's tables ask only the active seat, which always has a turn action)
inline void write_mask(const Act* legal, int k, int seat, int n, uint8_t* mask) {
    std::memset(mask, 0, NUM_ACTIONS);
    for (int i = 0; i < k; i++) mask[index_of(legal[i], seat, n)] = 1;
}

// spaces.History.push: record `seat`'s action with the top card and colour before it
inline void history_push(Table& t, int seat, const Act& a) {
    static const int8_t kinds[9] = {1, 3, 4, 5, 6, 7, 8, 9, 0};
    int8_t e[6];
    e[0] = a.kind == K_PLAY ? (a.uno ? 2 : 1) : kinds[a.kind];
    if (e[0] == 0) return;
    e[1] = static_cast<int8_t>(a.kind == K_PLAY ? a.card + 1 : 0);
    e[2] = static_cast<int8_t>((a.kind == K_PLAY || a.kind == K_CHOOSE) && a.color >= 0 ? a.color + 1 : 0);
    e[3] = static_cast<int8_t>(a.kind == K_PLAY || a.kind == K_CHOOSE || a.kind == K_CATCH ? a.target : -1);
    e[4] = static_cast<int8_t>(t.top());
    e[5] = t.color;
    int m = t.hist_n[seat] < 4 ? t.hist_n[seat] + 1 : 4;
    std::memmove(t.hist[seat][1], t.hist[seat][0], static_cast<size_t>(3 * 6));
    std::memcpy(t.hist[seat][0], e, 6);
    t.hist_n[seat] = static_cast<uint8_t>(m);
}

inline void history_clear(Table& t) {
    std::memset(t.hist, 0, sizeof(t.hist));
    std::memset(t.hist_n, 0, sizeof(t.hist_n));
}

inline uint8_t cap(long long x) { return static_cast<uint8_t>(x > 255 ? 255 : (x < 0 ? 0 : x)); }

// spaces.encode of the seat's PlayerView (views.player_view) and the table's history.
// `legal`/`k` are the seat's legal actions now (for the challenge byte), `block` the ruleset block.
inline void encode(const Rules& R, const Table& t, int me, const Act* legal, int k, const uint8_t* block,
                   int target_score, uint8_t* out) {
    std::memset(out, 0, OBS_SIZE);
    const int n = t.n;
    const uint8_t* h = t.hand(me);
    // (no cap needed on the counts: a deck holds at most 8 copies of a card)
    for (int i = 0, m = t.hsize(me); i < m; i++) out[O_HAND + h[i]]++;
    if (t.phase == PH_PLAY_DRAWN && t.active == me && t.drawn >= 0) out[O_DRAWN + t.drawn] = 1;
    if (t.ndiscard) out[O_TOP + t.top()] = 1;
    out[O_COLOR + (t.color < 0 ? 4 : t.color)] = 1;
    if (t.phase == PH_CHOOSE_COLOR) out[O_AWAIT + t.color_reason] = 1;
    out[O_PENDING] = cap(t.pending);
    if (t.pending_card >= 0) out[O_PENDING_CARD + t.pending_card] = 1;
    for (int i = 0; i < k; i++) if (legal[i].kind == K_CHALLENGE) out[O_MAY_CHALLENGE] = 1;
    out[O_PHASE + t.phase] = 1;
    out[O_DIRECTION] = t.direction == 1 ? 0 : 1;
    out[O_DRAW_SIZE] = cap(t.ndraw);
    out[O_DISCARD_SIZE] = cap(t.ndiscard);
    out[O_ROUND_NO] = cap(t.round_no);
    out[O_NUM_SEATS] = static_cast<uint8_t>(n);
    out[O_SEATS_IN_ROUND] = static_cast<uint8_t>(t.seats_in_round());
    // views.public_seats_to_act
    bool live = t.phase < PH_ROUND_OVER;
    int catchable = 0;
    for (int s = 0; s < n; s++) if (t.exposed[s] && t.in_round[s]) catchable++;
    for (int r = 0, s = me; r < n; r++, s = s + 1 == n ? 0 : s + 1) {
        uint8_t* o = out + O_SEATS + 14 * r;
        o[0] = 1;
        o[1] = cap(t.hsize(s));
        o[2] = t.in_round[s];
        o[3] = t.called[s] && t.hsize(s) == 1;
        o[4] = t.exposed[s];
        o[5] = t.knocked[s];
        o[6] = t.eliminated[s];
        o[7] = R.partnership && s % 2 == me % 2;
        o[8] = s == t.dealer;
        o[9] = s == t.active;
        o[10] = s == t.top_player;
        long long num = static_cast<long long>(t.scores[s]) * 255;
        long long q = num / target_score;
        if ((num % target_score != 0) && ((num < 0) != (target_score < 0))) q--;  // Python's floor division
        o[11] = cap(q);
        o[12] = cap(t.round_wins[s]);
        bool acts = false;
        if (live && t.in_round[s]) {
            bool may_call = t.hsize(s) == 1 && !t.called[s];
            bool may_catch = R.uno_penalty && (catchable - (t.exposed[s] && t.in_round[s] ? 1 : 0)) > 0;
            acts = s == t.active || may_call || may_catch;
        }
        o[13] = acts;
    }
    for (int i = 0; i < t.ndiscard; i++) out[O_DISCARD_COUNTS + t.discard[i]]++;
    for (int r = 0, s = me; r < n; r++, s = s + 1 == n ? 0 : s + 1) {
        uint8_t* o = out + O_HISTORY + 24 * r;
        for (int i = 0; i < t.hist_n[s]; i++, o += 6) {
            const int8_t* e = t.hist[s][i];
            o[0] = static_cast<uint8_t>(e[0]);
            o[1] = static_cast<uint8_t>(e[1]);
            o[2] = static_cast<uint8_t>(e[2]);
            o[3] = static_cast<uint8_t>(e[3] < 0 ? 0 : rel_of(e[3], me, n) + 1);
            o[4] = static_cast<uint8_t>(e[4] + 1);
            o[5] = static_cast<uint8_t>(e[5] + 1);
        }
    }
    std::memcpy(out + O_RULESET, block, RULESET_SIZE);
}

}  // namespace uno
