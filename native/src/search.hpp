// Determinized search inside the core: one call per decision samples hidden worlds consistent
// with what one seat knows, plays each root candidate forward in every world with native
// policies, and returns the candidate with the best mean result (docs/bots.md, "ismcts").
//
// The input is a public-only description (SearchSpec, built by unotable/bots/native_search.py
// from the seat's view and its Tracker): the public fields of the table, the seat's own hand,
// every hand size, the unseen cards left after the known ones (`pool`), each other seat's known
// cards and the inferences "at least `want` of its free cards are not in set E" (determinize.py's
// Determinizer.needs, most restrictive first), and optional weights per seat and card id (a hand
// model, MixBot2's public bounds). Nothing in it is hidden: the table's RNG, the draw pile's order
// and the other hands are sampled here, so the decision cannot depend on them.
//
// A world is dealt as Determinizer._weighted deals one: the other seats in `order` (the most
// constrained first) each rank the free cards by Exp(1) / weight (weighted sampling without
// replacement), take the cards their inferences need from the front of that ranking, then the
// rest of their hand; what is left is shuffled into the set-aside pile and the draw pile.
//
// The bandit is flat over the root (determinized Monte Carlo, PIMC): every world is played once
// after each candidate still in the race, on copies of the same world with the same RNGs (common
// random numbers), so the candidates are compared on paired samples. `halving` races them by
// sequential halving instead of a plain sweep. The choice is the best mean, except that a prior
// candidate (the heuristic's choice, from Python) is kept unless the best beats it by more than
// `prior_z` standard errors of the paired differences.
#pragma once
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core.hpp"
#include "policy.hpp"
#include "policies/mixbot.hpp"

namespace uno {

// The playout policies: the core's (policy.hpp: POL_RANDOM, POL_RANDOM_STUCK, POL_RULE_V1), and
// PLAY_FAST, the heuristic's fast model (unotable/bots/policy.py, the Python search's playouts).
constexpr int PLAY_FAST = 3;
// PLAY_MIXBOT and PLAY_MIXBOT2: policies/mixbot.hpp's mixbot, and its mixbot2 with the spec's
// MixParams (SearchSpec::mix, per seat) and without its card counting (step 4, the public record a playout
// does not keep): playout models of those bots, not the bots.
constexpr int PLAY_MIXBOT = 4;
constexpr int PLAY_MIXBOT2 = 5;
constexpr int PLAY_POLICIES = 6;

// unotable/bots/policy.py's turn, response and colour choices, on the legal list (its out-of-turn
// reactions are left out: its plays always carry the UNO flag). A playout model, not a bot: it is
// not held to the Python policy draw for draw.
struct FastPolicy {
    const Rules& R;
    const Table& t;

    static double danger(int k) {
        if (k >= 8) return 0.0;
        double x = (8 - k) / 7.0;
        return x * x;
    }
    void colors(int seat, int* cnt) const {
        cnt[0] = cnt[1] = cnt[2] = cnt[3] = 0;
        const uint8_t* h = t.hand(seat);
        for (int i = 0, m = t.hsize(seat); i < m; i++) if (id_color(h[i]) >= 0) cnt[id_color(h[i])]++;
    }
    static int best_color(const int* cnt) {
        int b = 0;
        for (int k = 1; k < 4; k++) if (cnt[k] > cnt[b]) b = k;
        return b;
    }
    // HOUSE-10: the seat whose hand passes to `seat` under a 0 (Engine::receives_from only reads)
    int receives_from(int seat) const { return Engine{R, const_cast<Table&>(t)}.receives_from(seat); }

    // policy._score_card: the value of playing c in a normal turn, and the target it would name
    double score_card(int seat, int c, const int* cnt, int bestcol, int* target) const {
        int left = t.hsize(seat) - 1;
        int nxt = t.next_seat(seat);
        bool partners = R.partnership;
        bool partner_next = partners && nxt % 2 == seat % 2;
        double dng = partner_next ? 0.0 : danger(t.hsize(nxt));
        int rank = id_rank(c);
        *target = -1;
        double score = id_wild(c) ? 1.5 * cnt[bestcol] - (left > 2 ? 4.0 : 0.5) : 1.5 * (cnt[id_color(c)] - 1);
        int value = id_draw_value(c);
        if (value) {
            double attack = value * (1.0 + 6.0 * dng);
            if (partner_next) attack = -attack - 5.0;
            else if (R.mercy_limit && t.hsize(nxt) + value >= R.mercy_limit) attack += 25.0;
            if (left > 2 && R.stacking != ST_NONE) attack -= 0.8 * value;
            if (c == C_WD4) {
                if (R.challenge && t.color >= 0 && cnt[t.color] > 0) attack -= 12.0 * (1.0 - dng);
                else if (left > 2) attack -= 3.0 * (1.0 - dng);
            }
            score += attack;
        } else if (rank == R_SKIP || rank == R_SKIP_EVERYONE) {
            score += partner_next ? -3.0 : 2.0 + 8.0 * dng;
        } else if (rank == R_REVERSE && !id_wild(c)) {
            if (t.seats_in_round() == 2) {
                score += 2.0;
            } else {
                int prev = receives_from(seat);
                double pd = partners && prev % 2 == seat % 2 ? 0.0 : danger(t.hsize(prev));
                score += 8.0 * (dng - pd);
            }
        } else if (c == C_WCR) {
            score += partner_next ? -4.0 : 1.0 + 6.0 * dng;
        } else if (rank == R_DISCARD_ALL) {
            score += 4.0 * (cnt[id_color(c)] - 1);
        } else if (c == C_WS || (R.seven_zero && rank == 7)) {
            int best = 1000;
            for (int s = 0; s < t.n; s++)
                if (s != seat && t.in_round[s] && t.hsize(s) < best) {
                    best = t.hsize(s);
                    *target = s;
                }
            score += 3.0 * (left - best);
        } else if (R.seven_zero && rank == 0) {
            score += 3.0 * (left - t.hsize(receives_from(seat)));
        } else if (c == C_WX) {
            int total = 0;
            for (int s = 0; s < t.n; s++) total += t.hsize(s);
            score += 3.0 * (left - (total - 1) / static_cast<double>(t.seats_in_round()));
        }
        if (!id_wild(c)) score += (id_number(c) ? rank : 20) * 0.04;
        return score;
    }

    // policy.choose (with policy._respond and policy._color): an index into legal
    int choose(int seat, const Act* legal, int k) const {
        int cnt[4];
        colors(seat, cnt);
        int bestcol = best_color(cnt);
        if (t.phase == PH_RESPOND) {
            int nxt = t.next_seat(seat);
            bool partner_next = R.partnership && nxt % 2 == seat % 2;
            int best = -1, best_value = -1, accept = -1, challenge = -1;
            for (int i = 0; i < k; i++) {
                const Act& a = legal[i];
                if (a.kind == K_ACCEPT) accept = i;
                else if (a.kind == K_CHALLENGE) challenge = i;
                else if (a.kind == K_PLAY && !partner_next) {
                    if (a.color >= 0 && a.color != bestcol) continue;
                    int v = id_draw_value(a.card) * 2 + (a.uno ? 1 : 0);
                    if (v > best_value) {
                        best_value = v;
                        best = i;
                    }
                }
            }
            if (best >= 0) return best;
            if (challenge >= 0 && t.wd4_player >= 0 && t.hsize(t.wd4_player) >= 2) return challenge;
            return accept >= 0 ? accept : 0;
        }
        if (t.phase == PH_CHOOSE_COLOR) {
            int want = bestcol;
            if (t.color_reason != CR_FIRST_CARD) {  // a Color Roulette: the colour least seen
                int seen[4] = {cnt[0], cnt[1], cnt[2], cnt[3]};
                for (int i = 0; i < t.ndiscard; i++) if (id_color(t.discard[i]) >= 0) seen[id_color(t.discard[i])]++;
                want = 0;
                for (int c = 1; c < 4; c++) if (seen[c] < seen[want]) want = c;
            }
            int best = -1;
            for (int i = 0; i < k; i++) {
                const Act& a = legal[i];
                if (a.kind != K_CHOOSE || a.color != want) continue;
                if (a.target < 0) return i;
                if (best < 0 || t.hsize(a.target) < t.hsize(legal[best].target)) best = i;
            }
            return best >= 0 ? best : 0;
        }
        const int size = t.hsize(seat);
        int best = -1, fallback = -1;
        double best_score = -1e9;
        int scored_card = -1, scored_target = -1;
        double scored = 0.0;
        for (int i = 0; i < k; i++) {
            const Act& a = legal[i];
            if (a.kind != K_PLAY) {
                if (a.kind == K_DRAW || a.kind == K_PASS) fallback = i;
                continue;
            }
            if (a.card != scored_card) {  // (the variants of one card are listed together)
                scored_card = a.card;
                scored = score_card(seat, a.card, cnt, bestcol, &scored_target);
            }
            double score = size == 1 ? 1000.0 : scored;
            if (a.color >= 0 && a.color != bestcol) score -= 1.0;
            if (a.target >= 0 && a.target != scored_target) score -= 0.5;
            if (a.uno) score += 0.5;
            if (score > best_score) {
                best_score = score;
                best = i;
            }
        }
        if (best < 0 || (fallback >= 0 && best_score < -6.0)) return fallback >= 0 ? fallback : 0;
        return best;
    }
};

// ismcts.evaluate's weights: cards, wild, wild_draw_four, draw_card, skip_reverse, current_color,
// colors, one_card, two_cards, then one per turn distance (the last serves farther seats).
struct EvalWeights {
    double w[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    std::vector<double> dist;
    double stat[NIDS];

    void compile() {
        if (dist.empty()) dist.push_back(0.0);
        for (int c = 0; c < NIDS; c++) {
            double v = w[0];
            if (id_wild(c)) v += w[1] + (c == C_WD4 ? w[2] : 0.0);
            else if (id_draw_value(c) > 0) v += w[3];
            else if (id_rank(c) == R_SKIP || id_rank(c) == R_REVERSE) v += w[4];
            stat[c] = v;
        }
    }
};

// ismcts.evaluate: the chance that `me` (its team) wins a round stopped early, from the hands
inline double evaluate(const Table& t, int me, bool partners, const EvalWeights& hu, const EvalWeights& table) {
    if (!t.in_round[me]) return 0.0;
    const EvalWeights& w = t.seats_in_round() <= 2 ? hu : table;
    const int far = static_cast<int>(w.dist.size()) - 1;
    double weight[MAXS] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    int k = 0;
    for (int j = 0; j < t.n; j++) {
        int s = ((t.active + j * t.direction) % t.n + t.n) % t.n;
        if (!t.in_round[s]) continue;
        double score = w.dist[static_cast<size_t>(k < far ? k : far)];
        k++;
        int held = 0, same = 0;
        const uint8_t* h = t.hand(s);
        int size = t.hsize(s);
        for (int i = 0; i < size; i++) {
            int c = h[i];
            score += w.stat[c];
            int col = id_color(c);
            if (col >= 0) {
                held |= 1 << col;
                same += col == t.color;
            }
        }
        score += w.w[5] * same + w.w[6] * __builtin_popcount(static_cast<unsigned>(held));
        if (size == 1) score += w.w[7];
        else if (size == 2) score += w.w[8];
        weight[s] = std::exp(score);
    }
    double total = 0.0, mine = 0.0;
    for (int s = 0; s < t.n; s++) {
        total += weight[s];
        if (partners ? s % 2 == me % 2 : s == me) mine += weight[s];
    }
    return total > 0.0 ? mine / total : 0.0;
}

// At least `want` of a hand's free cards are not in the set `mask` (a bit per card id).
struct Need {
    uint64_t mask[2];
    int want;
    bool excludes(int c) const { return (mask[c >> 6] >> (c & 63)) & 1; }
};

struct SearchSpec {
    int n = 0, me = 0;
    // public fields of the table (unotable.state.State's names)
    int phase = 0, active = 0, direction = 1, color = -1, dealer = 0, round_no = 0, pending = 0;
    int pending_card = -1, top_player = -1, color_reason = 0, drawn = -1;
    std::vector<uint8_t> in_round, eliminated, knocked, exposed, called;  // one per seat
    std::vector<int> scores, round_wins;
    std::vector<uint8_t> discard, hand;  // the discard pile (bottom first), the seat's own hand
    std::vector<int> sizes;              // every seat's hand size
    int set_aside = 0;                   // the set-aside pile's size (what the other counts leave)
    std::vector<uint8_t> pool;           // the unseen cards, the known ones taken out
    std::vector<std::vector<uint8_t>> fixed;  // per seat: its known cards
    std::vector<std::vector<Need>> needs;     // per seat: its inferences, most restrictive first
    std::vector<int> order;                   // the other seats, the most constrained first
    std::vector<std::vector<double>> weights; // per seat: NIDS weights (> 0), or empty: uniform
    int color_before_wd4 = -1;           // for the verdict on a Wild Draw Four awaiting a challenge
    bool wd4_open = false;               // a Wild Draw Four by top_player may be challenged now
    // the search
    std::vector<Act> candidates;
    int prior = -1;
    double prior_z = 1.0;
    int64_t iterations = 1000;  // playouts (candidate x world) at most
    double ms = 0.0;            // wall-clock cap in milliseconds (0: none)
    uint64_t seed = 0;
    std::vector<int> policy;    // per seat: the playout policy (Policy)
    MixParams mix[MAXS];        // per seat: PLAY_MIXBOT2's options
    int max_steps = 2000;       // actions per playout at most
    int horizon = 0;            // actions before a playout stops and is evaluated (0: to the end)
    EvalWeights eval_hu, eval_table;  // the evaluation, two seats in the round and more
    bool halving = false;
    bool keep_results = false;  // return every playout's result, per candidate (paired by world)
};

struct SearchResult {
    int choice = 0;
    int worlds = 0;
    int64_t playouts = 0, steps = 0;
    std::vector<int64_t> visits;
    std::vector<double> mean;
    std::vector<std::vector<float>> results;  // with keep_results: per candidate, one per world
};

struct Searcher {
    const Rules& R;
    const SearchSpec& S;
    Table base;
    std::vector<double> inv[MAXS];  // 1 / weight per card id, per seat with free places
    Rng rng;

    Searcher(const Rules& rules, const SearchSpec& spec) : R(rules), S(spec) {
        uint32_t w[2] = {static_cast<uint32_t>(spec.seed), static_cast<uint32_t>(spec.seed >> 32)};
        rng.seed_words(w, 2);
        build_base();
        for (int s : S.order) {
            inv[s].assign(NIDS, 1.0);
            if (static_cast<size_t>(s) < S.weights.size() && S.weights[s].size() == NIDS)
                for (int c = 0; c < NIDS; c++) inv[s][c] = 1.0 / S.weights[s][c];
        }
    }

    // The public table: everything but the other hands, the draw pile, the set-aside pile and
    // the RNG (resolve's fields as determinize._build sets them).
    void build_base() {
        uint32_t zero = 0;
        Engine::init(base, S.n, &zero, 1);
        Table& t = base;
        t.phase = static_cast<Phase>(S.phase);
        t.active = static_cast<int8_t>(S.active);
        t.direction = static_cast<int8_t>(S.direction);
        t.color = static_cast<int8_t>(S.color);
        t.dealer = static_cast<int8_t>(S.dealer);
        t.round_no = S.round_no;
        t.pending = S.pending;
        t.pending_card = static_cast<int8_t>(S.pending_card);
        t.top_player = static_cast<int8_t>(S.top_player);
        t.color_reason = static_cast<ColorReason>(S.color_reason);
        t.drawn = static_cast<int8_t>(S.drawn);
        for (int s = 0; s < S.n; s++) {
            t.in_round[s] = S.in_round[s];
            t.eliminated[s] = S.eliminated[s];
            t.knocked[s] = S.knocked[s];
            t.exposed[s] = S.exposed[s];
            t.called[s] = S.called[s];
            t.scores[s] = S.scores[s];
            t.round_wins[s] = S.round_wins[s];
        }
        t.ndiscard = 0;
        for (uint8_t c : S.discard) t.discard_push(c);
        for (uint8_t c : S.hand) t.hand_push(S.me, c);
    }

    // One world: the base table with the hidden cards dealt (see the file's comment).
    void deal(Table& t) {
        t = base;
        const int np = static_cast<int>(S.pool.size());
        uint8_t pl[MAXC];
        bool used[MAXC];
        for (int i = 0; i < np; i++) {
            pl[i] = S.pool[i];
            used[i] = false;
        }
        double key[MAXC];
        int ranked[MAXC];
        for (int s : S.order) {
            for (uint8_t c : S.fixed[s]) t.hand_push(s, c);
            int free = S.sizes[s] - t.hsize(s);
            if (free <= 0) continue;
            int m = 0;
            const double* iv = inv[s].data();
            for (int i = 0; i < np; i++) {
                if (used[i]) continue;
                key[i] = -std::log(1.0 - rng.random()) * iv[pl[i]];
                ranked[m++] = i;
            }
            std::sort(ranked, ranked + m, [&key](int a, int b) { return key[a] < key[b]; });
            for (const Need& need : S.needs[s]) {
                int want = need.want;
                for (int j = 0; j < m && want > 0 && free > 0; j++) {
                    int i = ranked[j];
                    if (used[i] || need.excludes(pl[i])) continue;
                    used[i] = true;
                    t.hand_push(s, pl[i]);
                    want--;
                    free--;
                }
            }
            for (int j = 0; j < m && free > 0; j++) {
                int i = ranked[j];
                if (used[i]) continue;
                used[i] = true;
                t.hand_push(s, pl[i]);
                free--;
            }
        }
        uint8_t rest[MAXC];
        int nr = 0;
        for (int i = 0; i < np; i++) if (!used[i]) rest[nr++] = pl[i];
        rng.shuffle(rest, nr);
        int nset = std::min(S.set_aside, nr);
        for (int i = 0; i < nset; i++) t.set_aside[i] = rest[i];
        t.nset = static_cast<int16_t>(nset);
        for (int i = nset; i < nr; i++) t.draw[i - nset] = rest[i];
        t.ndraw = static_cast<int16_t>(nr - nset);
        if (S.wd4_open && S.top_player >= 0) {  // determinize._build: the verdict from the sampled hand
            int p = S.top_player;
            t.wd4_player = static_cast<int8_t>(p);
            t.nwd4 = static_cast<int16_t>(t.hsize(p));
            std::memcpy(t.wd4_hand, t.hand(p), static_cast<size_t>(t.nwd4));
            bool held = false;
            for (int k = 0; k < t.nwd4; k++) held |= id_color(t.wd4_hand[k]) == S.color_before_wd4;
            t.wd4_illegal = S.color_before_wd4 >= 0 && held;
        }
        uint32_t w[2] = {rng.next32(), rng.next32()};
        t.rng.seed_words(w, 2);
    }

    // The rounds `me` (its team) has won so far in `t`.
    int wins_of_me(const Table& t) const {
        int wins = 0;
        for (int s = 0; s < t.n; s++) if (same_side(s, S.me)) wins += t.round_wins[s];
        return wins;
    }

    // The round played to its end by the policies: 1 when `me` (its team) wins it, else 0.
    // `wins_before` is counted before the candidate was applied: a candidate that goes out wins.
    double playout(Table& t, Rng& prng, int64_t& steps, int wins_before) const {
        const int me = S.me;
        Engine e{R, t};
        FastPolicy fast{R, t};
        const MixContext no_record{nullptr, nullptr};
        Act legal[MAXA];
        int k = 0;
        const int cap = S.horizon > 0 ? S.horizon : S.max_steps;
        while (t.phase < PH_ROUND_OVER && k < cap) {
            int seat = t.active;
            int m = e.legal(seat, legal);
            if (m == 0) break;
            int p = S.policy[seat];
            int j;
            if (p == PLAY_FAST) j = fast.choose(seat, legal, m);
            else if (p == PLAY_MIXBOT || p == PLAY_MIXBOT2) {
                j = mixbot_choose(p == PLAY_MIXBOT2, t, seat, legal, m, prng, &no_record, S.mix[seat]);
                if (j < 0) j = 0;
            } else j = choose(static_cast<Policy>(p), t, seat, legal, m, prng);
            e.apply(seat, legal[j]);
            k++;
        }
        steps += k;
        if (t.phase < PH_ROUND_OVER) return S.horizon > 0 ? evaluate(t, me, R.partnership, S.eval_hu, S.eval_table) : 0.0;
        return wins_of_me(t) > wins_before ? 1.0 : 0.0;
    }

    bool same_side(int s, int me) const { return R.partnership ? s % 2 == me % 2 : s == me; }

    SearchResult run() {
        using clock = std::chrono::steady_clock;
        const auto start = clock::now();
        const int k = static_cast<int>(S.candidates.size());
        SearchResult res;
        res.visits.assign(static_cast<size_t>(k), 0);
        res.mean.assign(static_cast<size_t>(k), 0.0);
        std::vector<double> sum(static_cast<size_t>(k), 0.0);
        std::vector<std::vector<float>> results(static_cast<size_t>(k));
        std::vector<int> alive(static_cast<size_t>(k));
        for (int i = 0; i < k; i++) alive[static_cast<size_t>(i)] = i;
        int rounds = 1;
        if (S.halving) while ((1 << rounds) < k) rounds++;
        Table world, copy;
        Rng prng_world, prng;
        bool out_of_time = false;
        for (int r = 0; r < rounds && !out_of_time; r++) {
            int left = rounds - r;
            int64_t goal = res.playouts + (S.iterations - res.playouts) / left;
            bool first = true;
            while (first || res.playouts + static_cast<int64_t>(alive.size()) <= goal) {
                if (!first && S.ms > 0 && res.worlds > 0) {
                    double ms = std::chrono::duration<double, std::milli>(clock::now() - start).count();
                    if (ms > S.ms) {
                        out_of_time = true;
                        break;
                    }
                }
                first = false;
                deal(world);
                uint32_t w[2] = {rng.next32(), rng.next32()};
                prng_world.seed_words(w, 2);
                res.worlds++;
                const int wins_before = wins_of_me(world);
                for (int i : alive) {
                    copy = world;
                    prng = prng_world;
                    Engine{R, copy}.apply(S.me, S.candidates[static_cast<size_t>(i)]);
                    double v = playout(copy, prng, res.steps, wins_before);
                    sum[static_cast<size_t>(i)] += v;
                    res.visits[static_cast<size_t>(i)]++;
                    results[static_cast<size_t>(i)].push_back(static_cast<float>(v));
                    res.playouts++;
                }
            }
            if (alive.size() > 1 && r < rounds - 1) {
                std::stable_sort(alive.begin(), alive.end(), [&](int a, int b) {
                    return mean_of(sum, res.visits, a) > mean_of(sum, res.visits, b);
                });
                alive.resize((alive.size() + 1) / 2);
                std::sort(alive.begin(), alive.end());
            }
        }
        for (int i = 0; i < k; i++) res.mean[static_cast<size_t>(i)] = mean_of(sum, res.visits, i);
        int best = alive[0];
        for (int i : alive) if (res.mean[static_cast<size_t>(i)] > res.mean[static_cast<size_t>(best)]) best = i;
        if (S.prior >= 0 && S.prior < k && S.prior != best &&
            !better(results[static_cast<size_t>(best)], results[static_cast<size_t>(S.prior)], S.prior_z))
            best = S.prior;
        res.choice = best;
        if (S.keep_results) res.results = std::move(results);
        return res;
    }

    static double mean_of(const std::vector<double>& sum, const std::vector<int64_t>& visits, int i) {
        size_t j = static_cast<size_t>(i);
        return visits[j] ? sum[j] / static_cast<double>(visits[j]) : 0.0;
    }

    // ismcts._better: a beats b on their paired samples by more than z standard errors
    static bool better(const std::vector<float>& a, const std::vector<float>& b, double z) {
        size_t n = std::min(a.size(), b.size());
        double total = 0.0;
        for (size_t i = 0; i < n; i++) total += a[i] - b[i];
        if (n < 2) return total > 0.0;
        double mean = total / static_cast<double>(n), var = 0.0;
        for (size_t i = 0; i < n; i++) {
            double d = a[i] - b[i] - mean;
            var += d * d;
        }
        double se = std::sqrt(var / static_cast<double>(n - 1) / static_cast<double>(n));
        if (se == 0.0) return mean > 0.0;
        return mean > z * se;
    }
};

inline SearchResult search(const Rules& R, const SearchSpec& S) {
    Searcher searcher(R, S);
    return searcher.run();
}

}  // namespace uno
