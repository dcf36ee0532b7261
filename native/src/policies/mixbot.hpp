// The policies mixbot and mixbot2 in the core: unotable.bots.mixbot.MixBot (default options) and
// unotable.bots.mixbot2.MixBot2 (its limits and rankings as MixParams; colors "ranked", counting
// on), function by function and draw for draw.
//
// Each takes the seat's table (reading only what the seat's PlayerView holds: its hand, the hand
// sizes, who is in the round, the direction, the phase, the discard pile's counts), the seat's
// legal actions in the engine's order and the seat's generator (random.Random's randrange), and
// returns the index of the action its Python bot returns, or -1 for None (out of turn). mixbot2
// also reads the table's PublicRecord (policies/tracker.hpp, its Bounds) and the deck's
// composition. Its no-match chances are computed in doubles in the Python code's order, so that
// its comparisons tie exactly where the Python bot's do.
#pragma once
#include <cstdint>
#include <stdexcept>

#include "../core.hpp"
#include "../vecpool.hpp"
#include "tracker.hpp"

namespace uno {

// MixBot's and MixBot2's options, their defaults ("wins"). ranking and attack (mixbot2 only; mixbot
// keeps MIX_WINS and MIX_ATTACK) hold the place of each MixKind in the ranking, best first at 0:
// MixBot2._place and _attack_place, from its options ranking and attack.
struct MixParams {
    static constexpr int SIZE = 15;  // the flat form: the three limits, ranking, attack
    int wild_limit = 2;
    int wd4_limit = 4;
    int drawn_wild_limit = 2;
    int ranking[6] = {0, 1, 2, 3, 4, 5};
    int attack[6] = {0, 2, 4, 3, 1, 5};

    // From MixBot2.native_params(): throws std::invalid_argument on a bad value
    static MixParams from(const int* v, int size) {
        if (size != SIZE) throw std::invalid_argument("mixbot2 params: 15 numbers (3 limits, 2 rankings of 6)");
        MixParams p;
        p.wild_limit = v[0];
        p.wd4_limit = v[1];
        p.drawn_wild_limit = v[2];
        if (v[0] < 0 || v[1] < 0 || v[2] < 0) throw std::invalid_argument("mixbot2 params: the limits must be >= 0");
        for (int r = 0; r < 2; r++) {
            int* place = r ? p.attack : p.ranking;
            bool seen[6] = {false, false, false, false, false, false};
            for (int k = 0; k < 6; k++) {
                int x = v[3 + 6 * r + k];
                if (x < 0 || x > 5 || seen[x])
                    throw std::invalid_argument("mixbot2 params: a ranking places each of the 6 kinds once (0 to 5)");
                seen[x] = true;
                place[k] = x;
            }
        }
        return p;
    }
};

// What mixbot2 reads beyond the table: the public record and Ruleset.composition() per card id
struct MixContext {
    const PublicRecord* record;
    const int* composition;
};

// Rank classes of the rankings (mixbot._kind, mixbot2._kind)
enum MixKind { MK_DRAW_TWO, MK_SKIP, MK_NUMBER, MK_REVERSE, MK_WD4, MK_WILD };
// The place of each kind in a ranking, best first: "wins" (D2 > S > number > R > W4 > W) is the
// kind's own order; "attack" is D2 > W4 > S > R > number > W
constexpr int MIX_WINS[6] = {0, 1, 2, 3, 4, 5};
constexpr int MIX_ATTACK[6] = {0, 2, 4, 3, 1, 5};

inline int mix_kind(int c, bool heads_up) {
    if (c == C_WD4) return MK_WD4;
    if (id_wild(c)) return MK_WILD;
    int r = id_rank(c);
    if (r == R_DRAW_TWO) return MK_DRAW_TWO;
    if (r == R_SKIP) return MK_SKIP;
    if (r == R_REVERSE) return heads_up ? MK_SKIP : MK_REVERSE;
    return MK_NUMBER;
}

// mixbot.next_seat / mixbot2._next: the first seat in the round stepping from seat in direction d
inline int mix_next(const Table& t, int seat, int d) {
    int s = seat;
    for (int k = 0; k < t.n; k++) {
        s = t.step_seat(s, d);
        if (t.in_round[s]) return s;
    }
    return seat;
}

inline void mix_color_counts(const Table& t, int seat, int skip_card, int* counts) {
    counts[0] = counts[1] = counts[2] = counts[3] = 0;
    const uint8_t* h = t.hand(seat);
    bool skipped = skip_card < 0;
    for (int i = 0, m = t.hsize(seat); i < m; i++) {
        if (!skipped && h[i] == skip_card) {
            skipped = true;
            continue;
        }
        if (id_color(h[i]) >= 0) counts[id_color(h[i])]++;
    }
}

// mixbot._most (or [0, 1, 2, 3] when it is empty): the colors held most; returns how many
inline int mix_most(const int* counts, int* out) {
    int top = 0;
    for (int c = 0; c < 4; c++) if (counts[c] > top) top = counts[c];
    int m = 0;
    if (top > 0)
        for (int c = 0; c < 4; c++) if (counts[c] == top) out[m++] = c;
    if (!m)
        for (int c = 0; c < 4; c++) out[m++] = c;
    return m;
}

inline int mix_first(const Act* legal, const int* idx, int m, int kind) {
    for (int i = 0; i < m; i++) if (legal[idx[i]].kind == kind) return idx[i];
    return -1;
}

// MixBot._name_color
inline int mix_name_color(const Table& t, int seat, const Act* legal, const int* acts, int m, Rng& rng) {
    int counts[4], colors[4];
    mix_color_counts(t, seat, -1, counts);
    int nc = mix_most(counts, colors);
    int want = colors[rng.randbelow(static_cast<uint32_t>(nc))];
    int first = -1;
    for (int i = 0; i < m; i++) {
        const Act& a = legal[acts[i]];
        if (a.kind != K_CHOOSE) continue;
        if (a.color == want) return acts[i];
        if (first < 0) first = acts[i];
    }
    return first >= 0 ? first : acts[0];
}

// MixBot._variant: the play of card naming the color the rest of the hand holds most, at the
// smallest target hand
inline int mix_variant(const Table& t, int seat, const Act* legal, const int* plays, int np, int card, Rng& rng) {
    int counts[4], colors[4];
    mix_color_counts(t, seat, card, counts);
    int nc = mix_most(counts, colors);
    int want = colors[rng.randbelow(static_cast<uint32_t>(nc))];
    int options[MAXA];
    int no = 0;
    for (int i = 0; i < np; i++)
        if (legal[plays[i]].color < 0 || legal[plays[i]].color == want) options[no++] = plays[i];
    if (!no)
        for (int i = 0; i < np; i++) options[no++] = plays[i];
    int best = no ? options[0] : -1, best_size = 1 << 30;
    for (int i = 0; i < no; i++) {
        const Act& a = legal[options[i]];
        int size = a.target >= 0 ? t.hsize(a.target) : 0;
        if (size < best_size) {
            best_size = size;
            best = options[i];
        }
    }
    return best;
}

// MixBot._diversity: the other non-wild cards of the hand that match card (color, or rank)
inline int mix_diversity(const Table& t, int seat, int card) {
    const uint8_t* h = t.hand(seat);
    bool skipped = false;
    int score = 0;
    for (int i = 0, m = t.hsize(seat); i < m; i++) {
        int c = h[i];
        if (!skipped && c == card) {
            skipped = true;
            continue;
        }
        if (id_wild(c)) continue;
        if (id_color(c) == id_color(card) || (!id_wild(card) && id_rank(c) == id_rank(card))) score++;
    }
    return score;
}

// MixBot._turn
inline int mixbot_turn(const Table& t, int seat, const Act* legal, const int* acts, int m, const int* plays, int np,
                       Rng& rng, const MixParams& p) {
    int plain = 0;
    const uint8_t* h = t.hand(seat);
    for (int i = 0, z = t.hsize(seat); i < z; i++) plain += !id_wild(h[i]);
    bool present[NIDS] = {false};
    for (int i = 0; i < np; i++) present[legal[plays[i]].card] = true;
    int cards[NIDS];
    int nc = 0;
    for (int c = 0; c < NIDS; c++) if (present[c]) cards[nc++] = c;  // sorted({a.card for a in plays})
    bool attack = t.hsize(mix_next(t, seat, t.direction)) == 1;
    int allowed[NIDS];
    int na = 0;
    for (int i = 0; i < nc; i++) {
        int c = cards[i];
        int kind = mix_kind(c, false);
        if (!attack && ((kind == MK_WD4 && plain > p.wd4_limit) || (kind == MK_WILD && plain > p.wild_limit))) continue;
        allowed[na++] = c;
    }
    if (!na) {
        int draw = mix_first(legal, acts, m, K_DRAW);
        if (draw >= 0) return draw;
        for (int i = 0; i < nc; i++) allowed[na++] = cards[i];
    }
    if (!na) return acts[0];
    int counts[4];
    mix_color_counts(t, seat, -1, counts);
    int top = 0;
    for (int c = 0; c < 4; c++) if (counts[c] > top) top = counts[c];
    bool held[4] = {false, false, false, false};
    for (int c = 0; c < 4; c++) held[c] = top > 0 && counts[c] == top;
    bool any = false;  // _held_most
    for (int i = 0; i < na && !any; i++) any = id_color(allowed[i]) >= 0 && held[id_color(allowed[i])];
    if (any) {
        int k = 0;
        for (int i = 0; i < na; i++)
            if (id_color(allowed[i]) < 0 || held[id_color(allowed[i])]) allowed[k++] = allowed[i];
        na = k;
    }
    const int* ranking = attack ? MIX_ATTACK : MIX_WINS;
    int best = 6;
    for (int i = 0; i < na; i++) {
        int r = ranking[mix_kind(allowed[i], false)];
        if (r < best) best = r;
    }
    int k = 0;
    for (int i = 0; i < na; i++) if (ranking[mix_kind(allowed[i], false)] == best) allowed[k++] = allowed[i];
    na = k;
    if (na > 1) {
        int scores[NIDS];
        int high = -1;
        for (int i = 0; i < na; i++) {
            scores[i] = mix_diversity(t, seat, allowed[i]);
            if (scores[i] > high) high = scores[i];
        }
        k = 0;
        for (int i = 0; i < na; i++) if (scores[i] == high) allowed[k++] = allowed[i];
        na = k;
    }
    int card = allowed[rng.randbelow(static_cast<uint32_t>(na))];
    int mine[MAXA];
    int nm = 0;
    for (int i = 0; i < np; i++) if (legal[plays[i]].card == card) mine[nm++] = plays[i];
    return mix_variant(t, seat, legal, mine, nm, card, rng);
}

// mixbot2.no_match_chance
inline double no_match_chance(int total, int matching, int hand) {
    int h = hand < total ? hand : total;
    int free = total - matching;
    if (free < h) return 0.0;
    double p = 1.0;
    for (int i = 0; i < h; i++) p *= static_cast<double>(free - i) / static_cast<double>(total - i);
    return p;
}

// MixBot2._escape: the chance that the seat acting after play a cannot follow it
inline double mix_escape(const Table& t, int seat, const Act& a, const MixContext& ctx) {
    int card = a.card;
    int color = id_color(card) >= 0 ? id_color(card) : a.color;
    int d = t.direction;
    bool heads_up = t.seats_in_round() == 2;
    int rank = id_rank(card);
    bool colored = id_color(card) >= 0;
    int nxt = mix_next(t, seat, d);
    if (rank == R_REVERSE && colored) nxt = heads_up ? seat : mix_next(t, seat, -d);
    else if (((rank == R_SKIP || rank == R_DRAW_TWO) && colored) || card == C_WD4) nxt = mix_next(t, nxt, d);
    const uint8_t* h = t.hand(seat);
    int m = t.hsize(seat);
    if (nxt == seat) {
        bool skipped = false;
        for (int i = 0; i < m; i++) {
            if (!skipped && h[i] == card) {
                skipped = true;
                continue;
            }
            if (in_playable_set(h[i], card, color)) return 1.0;
        }
        return 0.0;
    }
    int unseen[NIDS];
    for (int c = 0; c < NIDS; c++) unseen[c] = ctx.composition[c] - t.dcount[c];
    for (int i = 0; i < m; i++) unseen[h[i]]--;
    int bounds[NIDS];
    ctx.record->capped(nxt, unseen, bounds);
    int total = 0, hit = 0;
    for (int c = 0; c < NIDS; c++) {
        total += bounds[c];
        if (in_playable_set(c, card, color)) hit += bounds[c];
    }
    return no_match_chance(total, hit, t.hsize(nxt));
}

// MixBot2._pick (colors "ranked", counting on): steps 3 and 4, then a random one of the best.
// Without a record (ctx->record null: the search's playout model, not the bot) step 4 is skipped.
inline int mix2_pick(const Table& t, int seat, const Act* legal, const int* plays_in, int np, Rng& rng,
                     const MixContext& ctx) {
    int plays[MAXA];
    int counts[4];
    mix_color_counts(t, seat, -1, counts);
    int top = 0;
    for (int c = 0; c < 4; c++) if (counts[c] > top) top = counts[c];
    int n = 0;
    for (int i = 0; i < np; i++) {  // _held_most
        const Act& a = legal[plays_in[i]];
        int col = id_color(a.card);
        bool preferred = col >= 0 ? counts[col] == top : (a.color < 0 || counts[a.color] >= top - 1);
        if (preferred) plays[n++] = plays_in[i];
    }
    if (!n)
        for (int i = 0; i < np; i++) plays[n++] = plays_in[i];
    if (n > 1 && ctx.record) {
        double scores[MAXA];
        double high = 0.0;
        for (int i = 0; i < n; i++) {
            scores[i] = mix_escape(t, seat, legal[plays[i]], ctx);
            if (i == 0 || scores[i] > high) high = scores[i];
        }
        int k = 0;
        for (int i = 0; i < n; i++) if (scores[i] == high) plays[k++] = plays[i];
        n = k;
    }
    if (n > 1) return plays[rng.randbelow(static_cast<uint32_t>(n))];
    return plays[0];
}

// MixBot2._turn
inline int mixbot2_turn(const Table& t, int seat, const Act* legal, const int* acts, int m, const int* plays_in,
                        int np, Rng& rng, const MixParams& p, const MixContext& ctx) {
    if (!np) {
        int draw = mix_first(legal, acts, m, K_DRAW);
        return draw >= 0 ? draw : acts[0];
    }
    int plays[MAXA];
    int n = 0;
    bool attack = t.hsize(mix_next(t, seat, t.direction)) == 1;
    if (!attack) {
        int plain = 0;
        const uint8_t* h = t.hand(seat);
        for (int i = 0, z = t.hsize(seat); i < z; i++) plain += !id_wild(h[i]);
        for (int i = 0; i < np; i++) {
            int c = legal[plays_in[i]].card;
            if (c == C_WD4 && plain > p.wd4_limit) continue;
            if (id_wild(c) && c != C_WD4 && plain > p.wild_limit) continue;
            plays[n++] = plays_in[i];
        }
        if (!n) {
            int draw = mix_first(legal, acts, m, K_DRAW);
            if (draw >= 0) return draw;
        }
    }
    if (!n)
        for (int i = 0; i < np; i++) plays[n++] = plays_in[i];
    bool heads_up = t.seats_in_round() == 2;
    const int* ranking = attack ? p.attack : p.ranking;
    int best = 6;
    for (int i = 0; i < n; i++) {
        int r = ranking[mix_kind(legal[plays[i]].card, heads_up)];
        if (r < best) best = r;
    }
    int k = 0;
    for (int i = 0; i < n; i++) if (ranking[mix_kind(legal[plays[i]].card, heads_up)] == best) plays[k++] = plays[i];
    return mix2_pick(t, seat, legal, plays, k, rng, ctx);
}

// MixBot.choose (and MixBot2's, which answers all but its turn and its variants alike): the
// index in legal, -1 for None. ctx is read by mixbot2 only (v2).
inline int mixbot_choose(bool v2, const Table& t, int seat, const Act* legal, int k, Rng& rng, const MixContext* ctx,
                         const MixParams& p = MixParams()) {
    if (!k) return -1;
    for (int i = 0; i < k; i++) if (legal[i].kind == K_CALL || legal[i].kind == K_CATCH) return i;
    if (!(t.active == seat && t.phase < PH_ROUND_OVER && t.in_round[seat])) return -1;  // base.is_turn
    int acts[MAXA];
    int m = best_uno(legal, k, acts);
    int plays[MAXA];
    int np = 0;
    for (int i = 0; i < m; i++) if (legal[acts[i]].kind == K_PLAY) plays[np++] = acts[i];
    switch (t.phase) {
        case PH_CHOOSE_COLOR: return mix_name_color(t, seat, legal, acts, m, rng);
        case PH_RESPOND: {
            int accept = mix_first(legal, acts, m, K_ACCEPT);
            return accept >= 0 ? accept : acts[0];
        }
        case PH_PLAY_DRAWN: {
            int drawn = np ? legal[plays[0]].card : -1;
            if (drawn < 0 || (id_wild(drawn) && t.hsize(seat) > p.drawn_wild_limit)) {
                int pass = mix_first(legal, acts, m, K_PASS);
                if (pass >= 0) return pass;
            }
            if (!np) return acts[0];
            if (v2) return mix2_pick(t, seat, legal, plays, np, rng, *ctx);
            return mix_variant(t, seat, legal, plays, np, drawn, rng);
        }
        default:
            if (v2) return mixbot2_turn(t, seat, legal, acts, m, plays, np, rng, p, *ctx);
            return mixbot_turn(t, seat, legal, acts, m, plays, np, rng, p);
    }
}

}  // namespace uno
