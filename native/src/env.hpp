// The RL layouts of unotable/env/spaces.py: the action index (Discrete(445)), the legal-action mask
// and the 854-byte observation, written byte for byte as spaces.index_of, legal_mask and encode do.
#pragma once
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

// spaces.index_of (plays first: the most common kind, tested without a jump table)
inline int index_of(const Act& a, int seat, int n) {
    if (a.kind == K_PLAY) {
        int c = a.card, u = a.uno ? 1 : 0;
        if (c < 64) {
            if (a.target < 0) return 2 * c + u;
            return 128 + 2 * (9 * id_color(c) + rel_of(a.target, seat, n) - 1) + u;
        }
        int s = a.color < 0 ? 0 : 1 + a.color;
        if (a.target < 0) return 200 + 2 * (5 * (c - 64) + s) + u;
        return 300 + 2 * (9 * s + rel_of(a.target, seat, n) - 1) + u;
    }
    if (a.kind <= K_CHALLENGE) return 389 + a.kind;  // draw 390, pass 391, accept 392, challenge 393
    if (a.kind == K_CHOOSE) return 394 + 10 * a.color + (a.target < 0 ? 0 : rel_of(a.target, seat, n));
    if (a.kind == K_CALL) return 434;
    if (a.kind == K_CATCH) return 435 + rel_of(a.target, seat, n) - 1;
    return NOOP;
}

// Zero BYTES (>= 16) bytes with unrolled 16-byte stores (the last one may overlap), not a call
template <int BYTES>
inline void zero_bytes(uint8_t* p) {
    static_assert(BYTES >= 16, "at least one store");
#if defined(__SSE2__)
    const __m128i z = _mm_setzero_si128();
#pragma GCC unroll 64
    for (int i = 0; i + 16 <= BYTES; i += 16) _mm_storeu_si128(reinterpret_cast<__m128i*>(p + i), z);
    if (BYTES % 16) _mm_storeu_si128(reinterpret_cast<__m128i*>(p + BYTES - 16), z);
#else
    std::memset(p, 0, BYTES);
#endif
}

// spaces.legal_mask (no NOOP: the core's tables ask only the active seat, which always has a turn action)
inline void write_mask(const Act* legal, int k, int seat, int n, uint8_t* mask) {
    zero_bytes<NUM_ACTIONS>(mask);
    for (int i = 0; i < k; i++) mask[index_of(legal[i], seat, n)] = 1;
}

// spaces.History.push: record `seat`'s action with the top card and colour before it, already as
// the observation's bytes (the target absolute, + 1; encode makes it relative to the observer)
inline void history_push(Table& t, int seat, const Act& a) {
    static const uint8_t kinds[9] = {1, 3, 4, 5, 6, 7, 8, 9, 0};
    uint8_t e[6];
    e[0] = a.kind == K_PLAY ? (a.uno ? 2 : 1) : kinds[a.kind];
    if (e[0] == 0) return;
    e[1] = static_cast<uint8_t>(a.kind == K_PLAY ? a.card + 1 : 0);
    e[2] = static_cast<uint8_t>((a.kind == K_PLAY || a.kind == K_CHOOSE) && a.color >= 0 ? a.color + 1 : 0);
    e[3] = static_cast<uint8_t>(a.kind == K_PLAY || a.kind == K_CHOOSE || a.kind == K_CATCH ? a.target + 1 : 0);
    e[4] = static_cast<uint8_t>(t.top() + 1);
    e[5] = static_cast<uint8_t>(t.color + 1);
    uint8_t* h = t.hist[seat];
    uint8_t older[18];  // (fixed-size copies, inlined, where memmove would be a call)
    std::memcpy(older, h, 18);
    std::memcpy(h + 6, older, 18);
    std::memcpy(h, e, 6);
    if (t.hist_n[seat] < 4) t.hist_n[seat]++;
    t.hist_t[seat] = static_cast<uint8_t>(((t.hist_t[seat] << 1) | (e[3] != 0)) & 0xF);
}

inline void history_clear(Table& t) {
    std::memset(t.hist, 0, sizeof(t.hist));
    std::memset(t.hist_n, 0, sizeof(t.hist_n));
    std::memset(t.hist_t, 0, sizeof(t.hist_t));
}

inline uint8_t cap(long long x) { return static_cast<uint8_t>(x > 255 ? 255 : (x < 0 ? 0 : x)); }
inline uint8_t cap_pos(int x) { return static_cast<uint8_t>(x > 255 ? 255 : x); }  // x >= 0

// spaces.encode of the seat's PlayerView (views.player_view) and the table's history, for N seats
// (a constant, so that the per-seat loops unroll). `legal`/`k` are the seat's legal actions now
// (for the challenge byte), `block` the ruleset block. The discard counts and the history are
// kept in the table in their encoded form and copied.
template <int N>
inline void encode_n(const Rules& R, const Table& t, int me, const Act* legal, int k, const uint8_t* block,
                     int /*target_score: in the table's score_obs*/, uint8_t* out) {
    zero_bytes<O_RULESET>(out);
    const uint8_t* h = t.hand(me);
    // (no cap needed on the counts: a deck holds at most 8 copies of a card)
    for (int i = 0, m = t.hsize(me); i < m; i++) out[O_HAND + h[i]]++;
    if (t.phase == PH_PLAY_DRAWN && t.active == me && t.drawn >= 0) out[O_DRAWN + t.drawn] = 1;
    if (t.ndiscard) out[O_TOP + t.top()] = 1;
    out[O_COLOR + (t.color < 0 ? 4 : t.color)] = 1;
    if (t.phase == PH_CHOOSE_COLOR) out[O_AWAIT + t.color_reason] = 1;
    out[O_PENDING] = cap(t.pending);
    if (t.pending_card >= 0) out[O_PENDING_CARD + t.pending_card] = 1;
    if (t.phase == PH_RESPOND)  // a challenge is only ever legal in a response
        for (int i = 0; i < k; i++) if (legal[i].kind == K_CHALLENGE) out[O_MAY_CHALLENGE] = 1;
    out[O_PHASE + t.phase] = 1;
    out[O_DIRECTION] = t.direction == 1 ? 0 : 1;
    out[O_DRAW_SIZE] = cap_pos(t.ndraw);
    out[O_DISCARD_SIZE] = cap_pos(t.ndiscard);
    out[O_ROUND_NO] = cap(t.round_no);
    out[O_NUM_SEATS] = static_cast<uint8_t>(N);
    // views.public_seats_to_act
    const bool live = t.phase < PH_ROUND_OVER;
    int catchable = 0, in_round = 0;
    for (int s = 0; s < N; s++) {
        catchable += t.exposed[s] & t.in_round[s];
        in_round += t.in_round[s];
    }
    out[O_SEATS_IN_ROUND] = static_cast<uint8_t>(in_round);
    const bool catching = R.uno_penalty && catchable > 0;
#pragma GCC unroll 10
    for (int r = 0; r < N; r++) {
        const int s = me + r < N ? me + r : me + r - N;
        uint8_t* o = out + O_SEATS + 14 * r;
        const int size = t.hsize(s);
        o[0] = 1;
        o[1] = cap_pos(size);
        o[2] = t.in_round[s];
        o[3] = t.called[s] & (size == 1);
        o[4] = t.exposed[s];
        o[5] = t.knocked[s];
        o[6] = t.eliminated[s];
        o[7] = R.partnership & (((s ^ me) & 1) == 0);
        o[8] = s == t.dealer;
        o[9] = s == t.active;
        o[10] = s == t.top_player;
        o[11] = t.score_obs[s];  // (Engine::refresh_score_obs, the ruleset's target_score)
        o[12] = cap(t.round_wins[s]);
        bool may_call = size == 1 && !t.called[s];
        bool may_catch = catching && (catchable - t.exposed[s]) > 0;
        o[13] = live & t.in_round[s] & ((s == t.active) | may_call | may_catch);
    }
    std::memcpy(out + O_DISCARD_COUNTS, t.dcount, NIDS);
#pragma GCC unroll 10
    for (int r = 0; r < N; r++) {
        const int s = me + r < N ? me + r : me + r - N;
        uint8_t* o = out + O_HISTORY + 24 * r;
        std::memcpy(o, t.hist[s], 24);
        for (unsigned m = t.hist_t[s]; m; m &= m - 1) {  // the entries with a target
            uint8_t* x = o + 6 * __builtin_ctz(m) + 3;
            *x = static_cast<uint8_t>(rel_of(*x - 1, me, N) + 1);
        }
    }
    std::memcpy(out + O_RULESET, block, RULESET_SIZE);
}

inline void encode(const Rules& R, const Table& t, int me, const Act* legal, int k, const uint8_t* block,
                   int target_score, uint8_t* out) {
    switch (t.n) {
#define UNO_ENCODE_CASE(N) \
    case N: encode_n<N>(R, t, me, legal, k, block, target_score, out); break;
        UNO_ENCODE_CASE(2) UNO_ENCODE_CASE(3) UNO_ENCODE_CASE(4) UNO_ENCODE_CASE(5) UNO_ENCODE_CASE(6)
        UNO_ENCODE_CASE(7) UNO_ENCODE_CASE(8) UNO_ENCODE_CASE(9) UNO_ENCODE_CASE(10)
#undef UNO_ENCODE_CASE
        default: break;
    }
}

}  // namespace uno
