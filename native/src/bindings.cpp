// nanobind bindings of the native core: unotable_native._core.
//
// The Python package unotable_native wraps this module (validation of rulesets, seeds and
// positions stays in the reference engine's Python code, so their errors are the engine's own).
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "check.hpp"
#include "core.hpp"
#include "env.hpp"
#include "policy.hpp"

namespace nb = nanobind;
using namespace uno;

namespace {

using StrDict = nb::typed<nb::dict, nb::str, nb::any>;
using StrIntDict = nb::typed<nb::dict, nb::str, int>;

int get_int(const StrDict& d, const char* key) {
    if (!d.contains(key)) throw std::invalid_argument(std::string("missing ruleset field ") + key);
    return nb::cast<int>(d[key]);
}

nb::list to_list(const uint8_t* a, int n) {
    nb::list out;
    for (int i = 0; i < n; i++) out.append(static_cast<int>(a[i]));
    return out;
}

nb::list to_flags(const bool* a, int n) {
    nb::list out;
    for (int i = 0; i < n; i++) out.append(a[i]);
    return out;
}

int from_list(nb::handle obj, uint8_t* out, int cap, const char* what) {
    int k = 0;
    for (nb::handle h : obj) {
        if (k >= cap) throw std::invalid_argument(std::string(what) + ": too many cards");
        int c = nb::cast<int>(h);
        if (c < 0 || c >= NIDS) throw std::invalid_argument(std::string(what) + ": not a card id");
        out[k++] = static_cast<uint8_t>(c);
    }
    return k;
}

using I32Vec = nb::ndarray<int32_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using U8Vec = nb::ndarray<uint8_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using I8Vec = nb::ndarray<int8_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using U8Mat = nb::ndarray<uint8_t, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
using F32Mat = nb::ndarray<float, nb::ndim<2>, nb::c_contig, nb::device::cpu>;

uint64_t seed64(const Table& t) {
    uint64_t s = t.seed_words[0];
    if (t.seed_len > 1) s |= static_cast<uint64_t>(t.seed_words[1]) << 32;
    return s;
}

void words_of(uint64_t seed, uint32_t* w, int* len) {
    w[0] = static_cast<uint32_t>(seed);
    w[1] = static_cast<uint32_t>(seed >> 32);
    *len = w[1] ? 2 : 1;
}

struct Pool {
    Rules R;
    int seats;
    std::vector<Table> tables;
    std::vector<Rng> prng;  // the built-in policies' RNG, one per table
    uint8_t block[RULESET_SIZE];
    int target_score;
    std::vector<uint8_t> scratch_obs, scratch_mask;
    std::vector<Act> picks;  // step's checked actions, one per table
    // The legal actions of each table's active seat as write_row last found them, so that step
    // checks its actions without generating them again; k < 0: not known (any other access to the
    // table, through at(), forgets them).
    static constexpr int KEEP = 48;
    struct Kept {
        int16_t k;
        int16_t idx[KEEP];  // index_of(a[j]) for the active seat
        Act a[KEEP];
    };
    std::vector<Kept> kept;

    Pool(int num_envs, int seats_, const StrDict& cfg, const std::vector<int>& deck, const std::vector<int>& points,
         nb::bytes ruleset_block)
        : seats(seats_) {
        if (ruleset_block.size() != RULESET_SIZE) throw std::invalid_argument("the ruleset block is 82 bytes");
        std::memcpy(block, ruleset_block.c_str(), RULESET_SIZE);
        if (num_envs < 1) throw std::invalid_argument("num_envs must be at least 1");
        if (seats < 2 || seats > MAXS) throw std::invalid_argument("seats must be 2 to 10");
        if (deck.empty() || deck.size() > MAXC) throw std::invalid_argument("a deck holds 1 to 168 cards");
        if (points.size() != NIDS) throw std::invalid_argument("points: one per card id");
        std::memset(&R, 0, sizeof(R));
        R.nm = get_int(cfg, "nm");
        R.challenge = get_int(cfg, "challenge");
        R.strict_wd4 = get_int(cfg, "strict_wd4");
        R.dealer_seat0 = get_int(cfg, "dealer_seat0");
        R.first_card_redraw = get_int(cfg, "first_card_redraw");
        R.first_card_swap_effect = get_int(cfg, "first_card_swap_effect");
        R.may_draw = get_int(cfg, "may_draw_with_playable");
        R.draw_until_playable = get_int(cfg, "draw_until_playable");
        R.force_play = get_int(cfg, "force_play");
        R.uno_penalty = get_int(cfg, "uno_penalty");
        R.false_catch_penalty = get_int(cfg, "false_catch_penalty");
        R.false_uno_penalty = get_int(cfg, "false_uno_penalty");
        R.swap_last_swap = get_int(cfg, "swap_last_swap");
        R.shuffle_last_shuffle = get_int(cfg, "shuffle_last_shuffle");
        R.scoring = static_cast<Scoring>(get_int(cfg, "scoring"));
        R.target_score = get_int(cfg, "target_score");
        R.elimination_one_round = get_int(cfg, "elimination_one_round");
        R.partnership = get_int(cfg, "partnership");
        R.stacking = static_cast<Stacking>(get_int(cfg, "stacking"));
        R.stack_sum = get_int(cfg, "stack_sum");
        R.jump_in = get_int(cfg, "jump_in");
        R.seven_zero = get_int(cfg, "seven_zero");
        R.bounce_draw_two = get_int(cfg, "bounce_draw_two");
        R.defend_wd4 = get_int(cfg, "defend_wd4_with_draw_two");
        R.mercy_limit = get_int(cfg, "mercy_limit");
        R.custom_effect = static_cast<CustomEffect>(get_int(cfg, "custom_effect"));
        R.deck_n = static_cast<int>(deck.size());
        for (size_t k = 0; k < deck.size(); k++) {
            if (deck[k] < 0 || deck[k] >= NIDS) throw std::invalid_argument("deck: not a card id");
            R.deck[k] = static_cast<uint8_t>(deck[k]);
        }
        for (int c = 0; c < NIDS; c++) R.points[c] = points[static_cast<size_t>(c)];
        R.compile();
        target_score = get_int(cfg, "target_score");
        tables.resize(static_cast<size_t>(num_envs));
        prng.resize(static_cast<size_t>(num_envs));
        picks.resize(static_cast<size_t>(num_envs));
        kept.resize(static_cast<size_t>(num_envs));
        forget_all();
        scratch_obs.resize(OBS_SIZE);
        scratch_mask.resize(NUM_ACTIONS);
        std::vector<uint32_t> zero{0};
        for (auto& t : tables) Engine::init(t, seats, zero.data(), 1);
    }

    Table& at(int i) {
        if (i < 0 || static_cast<size_t>(i) >= tables.size()) throw nb::index_error("no such table");
        kept[static_cast<size_t>(i)].k = -1;
        return tables[static_cast<size_t>(i)];
    }

    void forget_all() {
        for (auto& c : kept) c.k = -1;
    }

    void check_seat(int seat) const {
        if (seat < 0 || seat >= seats) throw std::invalid_argument("no such seat");
    }

    // Game.new(seats, ruleset, seed): a fresh match from the seed's 32-bit words
    void reset(int i, const std::vector<uint32_t>& words) {
        if (words.empty() || words.size() > 8) throw std::invalid_argument("a seed is 1 to 8 words");
        Table& t = at(i);
        Engine::init(t, seats, words.data(), static_cast<int>(words.size()));
        Engine{R, t}.start_match();
    }

    std::vector<std::string> legal(int i, int seat) {
        check_seat(seat);
        Act out[MAXA];
        int k = Engine{R, at(i)}.legal(seat, out);
        std::vector<std::string> names;
        names.reserve(static_cast<size_t>(k));
        for (int j = 0; j < k; j++) names.push_back(act_name(out[j]));
        return names;
    }

    // Check, then apply: (0, "") when applied, else (code, message) and the table unchanged.
    std::tuple<int, std::string> play(int i, int seat, int kind, int card, int color, int target, bool uno) {
        check_seat(seat);
        Table& t = at(i);
        Act a = mk(kind, card, color, target, uno);
        Verdict v = check_action(R, t, seat, a);
        if (v.code != E_OK) return {static_cast<int>(v.code), v.message};
        act(t, seat, a);
        return {0, std::string()};
    }

    // An action applied as the env applies it: recorded in the public history, then resolved.
    void act(Table& t, int seat, const Act& a) {
        history_push(t, seat, a);
        Engine{R, t}.apply(seat, a);
    }

    bool next_round(int i) {
        Table& t = at(i);
        if (t.phase != PH_ROUND_OVER) return false;
        deal(t);
        return true;
    }

    void deal(Table& t) {
        history_clear(t);
        Engine{R, t}.next_round();
    }

    // A new match at table t from a 64-bit seed
    void restart(Table& t, uint64_t seed) {
        uint32_t w[2];
        int len;
        words_of(seed, w, &len);
        Engine::init(t, seats, w, len);
        Engine{R, t}.start_match();
    }

    // The seat's observation (spaces.encode) or its mask (spaces.legal_mask), as bytes.
    nb::bytes seat_bytes(int i, int seat, bool observation) {
        check_seat(seat);
        const Table& t = at(i);
        Act legal[MAXA];
        int k = Engine{R, const_cast<Table&>(t)}.legal(seat, legal);
        uint8_t out[OBS_SIZE];
        if (!observation) {
            write_mask(legal, k, seat, t.n, out);
            return nb::bytes(reinterpret_cast<const char*>(out), NUM_ACTIONS);
        }
        encode(R, t, seat, legal, k, block, target_score, out);
        return nb::bytes(reinterpret_cast<const char*>(out), OBS_SIZE);
    }

    // Self-play with a built-in policy: every table plays `rounds` rounds, its active seat choosing
    // each decision (table i's policy RNG seeded seed + i); a finished match restarts from the
    // table's seed + num_envs. With `observe`, each decision's observation and mask are written
    // (into a scratch buffer: the cost of an agent's input, for benchmarks). The GIL is released.
    StrIntDict selfplay(const std::string& policy, int64_t rounds, uint64_t seed, bool observe, int64_t max_decisions) {
        Policy p;
        if (policy == "random") p = POL_RANDOM;
        else if (policy == "random-stuck") p = POL_RANDOM_STUCK;
        else if (policy == "rule-v1") p = POL_RULE_V1;
        else throw std::invalid_argument("policy must be random, random-stuck or rule-v1, not " + policy);
        int64_t total_rounds = 0, decisions = 0, matches = 0, truncated = 0;
        {
            nb::gil_scoped_release release;
            forget_all();
            const uint64_t n_envs = tables.size();
            Act legal[MAXA];
            for (size_t i = 0; i < tables.size(); i++) {
                uint32_t w[2];
                int len;
                words_of(seed + i, w, &len);
                prng[i].seed_words(w, static_cast<size_t>(len));
                Table& t = tables[i];
                int64_t done = 0, in_round = 0;
                while (done < rounds) {
                    if (t.phase == PH_MATCH_OVER) {
                        matches++;
                        restart(t, seed64(t) + n_envs);
                        continue;
                    }
                    if (t.phase == PH_ROUND_OVER) {
                        deal(t);
                        continue;
                    }
                    int seat = t.active;
                    Engine e{R, t};
                    int k = e.legal(seat, legal);
                    if (observe) {
                        encode(R, t, seat, legal, k, block, target_score, scratch_obs.data());
                        write_mask(legal, k, seat, t.n, scratch_mask.data());
                    }
                    int j = choose(p, t, seat, legal, k, prng[i]);
                    act(t, seat, legal[j]);
                    decisions++;
                    in_round++;
                    if (t.phase >= PH_ROUND_OVER) {
                        done++;
                        total_rounds++;
                        in_round = 0;
                    } else if (max_decisions > 0 && in_round >= max_decisions) {
                        truncated++;
                        done++;
                        in_round = 0;
                        restart(t, seed64(t) + n_envs);
                    }
                }
            }
        }
        StrIntDict out;
        out["rounds"] = total_rounds;
        out["decisions"] = decisions;
        out["matches"] = matches;
        out["truncated"] = truncated;
        return out;
    }

    // The observation, mask and deciding seat of every table now (after a reset).
    void observe_all(U8Mat obs, U8Mat mask, I8Vec seat) {
        check_buffers(obs, mask, seat);
        Act legal[MAXA];
        for (size_t i = 0; i < tables.size(); i++) write_row(i, obs.data(), mask.data(), seat.data(), legal);
    }

    void check_buffers(const U8Mat& obs, const U8Mat& mask, const I8Vec& seat) const {
        size_t n = tables.size();
        if (obs.shape(0) != n || obs.shape(1) != OBS_SIZE) throw std::invalid_argument("obs must be uint8 (N, 854)");
        if (mask.shape(0) != n || mask.shape(1) != NUM_ACTIONS) throw std::invalid_argument("mask must be uint8 (N, 445)");
        if (seat.shape(0) != n) throw std::invalid_argument("seat must be int8 (N,)");
    }

    void write_row(size_t i, uint8_t* obs, uint8_t* mask, int8_t* seat, Act* legal) {
        Table& t = tables[i];
        int s = t.active;
        int k = Engine{R, t}.legal(s, legal);
        encode(R, t, s, legal, k, block, target_score, obs + i * OBS_SIZE);
        seat[i] = static_cast<int8_t>(s);
        // write_mask, keeping the indices and actions for the next step's check
        uint8_t* m = mask + i * NUM_ACTIONS;
        zero_bytes<NUM_ACTIONS>(m);
        Kept& c = kept[i];
        const int n = t.n;
        if (k <= KEEP) {
            for (int j = 0; j < k; j++) {
                int x = index_of(legal[j], s, n);
                m[x] = 1;
                c.idx[j] = static_cast<int16_t>(x);
                c.a[j] = legal[j];
            }
            c.k = static_cast<int16_t>(k);
        } else {
            for (int j = 0; j < k; j++) m[index_of(legal[j], s, n)] = 1;
            c.k = -1;
        }
    }

    // One decision per table: actions[i] (an index of spaces.py's layout) by table i's active seat.
    // Every action is checked first; the first row whose action is not legal is returned (nothing
    // applied), else -1. A round's end deals the next; a match's end sets done[i], gives the match
    // winners +1 and the other seats -1 in reward[i], and restarts the table from its seed +
    // num_envs (auto-reset in the same step). Then obs, mask and seat describe the next decision.
    int64_t step(I32Vec actions, U8Mat obs, U8Mat mask, F32Mat reward, U8Vec done, I8Vec seat) {
        check_buffers(obs, mask, seat);
        size_t n = tables.size();
        if (actions.shape(0) != n) throw std::invalid_argument("actions must be int32 (N,)");
        if (reward.shape(0) != n || reward.shape(1) != static_cast<size_t>(seats))
            throw std::invalid_argument("reward must be float32 (N, seats)");
        if (done.shape(0) != n) throw std::invalid_argument("done must be uint8 (N,)");
        int64_t bad = -1;
        {
            nb::gil_scoped_release release;
            Act legal[MAXA];
            std::vector<Act>& pick = picks;  // sized once, at construction
            const int32_t* want_of = actions.data();
            for (size_t i = 0; i < n && bad < 0; i++) {
                const Kept& c = kept[i];
                const int want = want_of[i];
                bool found = false;
                if (c.k >= 0) {
                    for (int j = 0; j < c.k; j++)
                        if (c.idx[j] == want) {
                            pick[i] = c.a[j];
                            found = true;
                            break;
                        }
                } else {
                    Table& t = tables[i];
                    int k = Engine{R, t}.legal(t.active, legal);
                    for (int j = 0; j < k && !found; j++)
                        if (index_of(legal[j], t.active, t.n) == want) {
                            pick[i] = legal[j];
                            found = true;
                        }
                }
                if (!found) bad = static_cast<int64_t>(i);
            }
            if (bad < 0) {
                const uint64_t n_envs = n;
                float* rw = reward.data();
                uint8_t* dn = done.data();
                uint8_t* ob = obs.data();
                uint8_t* mp = mask.data();
                int8_t* st = seat.data();
                for (size_t i = 0; i < n; i++, rw += seats) {
                    Table& t = tables[i];
                    for (int s = 0; s < seats; s++) rw[s] = 0.0f;
                    dn[i] = 0;
                    act(t, t.active, pick[i]);
                    if (t.phase == PH_ROUND_OVER) deal(t);
                    if (t.phase == PH_MATCH_OVER) {
                        for (int s = 0; s < seats; s++) rw[s] = (t.match_winners >> s) & 1 ? 1.0f : -1.0f;
                        dn[i] = 1;
                        restart(t, seed64(t) + n_envs);
                    }
                    write_row(i, ob, mp, st, legal);
                }
            }
        }
        return bad;
    }

    int phase(int i) { return at(i).phase; }
    int active(int i) { return at(i).active; }

    StrDict get_state(int i) {
        const Table& t = at(i);
        StrDict d;
        nb::list hands;
        for (int s = 0; s < t.n; s++) hands.append(to_list(t.hand(s), t.hsize(s)));
        d["hands"] = hands;
        d["draw"] = to_list(t.draw, t.ndraw);
        d["discard"] = to_list(t.discard, t.ndiscard);
        d["set_aside"] = to_list(t.set_aside, t.nset);
        d["wd4_hand"] = to_list(t.wd4_hand, t.nwd4);
        d["deal_order"] = t.ndeal >= 0 ? nb::object(to_list(t.deal_order, t.ndeal)) : nb::none();
        d["color"] = static_cast<int>(t.color);
        d["active"] = static_cast<int>(t.active);
        d["dealer"] = static_cast<int>(t.dealer);
        d["direction"] = static_cast<int>(t.direction);
        d["top_player"] = static_cast<int>(t.top_player);
        d["drawn"] = static_cast<int>(t.drawn);
        d["wd4_player"] = static_cast<int>(t.wd4_player);
        d["pending_card"] = static_cast<int>(t.pending_card);
        d["phase"] = static_cast<int>(t.phase);
        d["color_reason"] = static_cast<int>(t.color_reason);
        d["match_reason"] = static_cast<int>(t.match_reason);
        d["wd4_illegal"] = t.wd4_illegal;
        d["final_round"] = t.final_round;
        d["pending"] = t.pending;
        d["auto_passes"] = t.auto_passes;
        d["round_no"] = t.round_no;
        d["in_round"] = to_flags(t.in_round, t.n);
        d["eliminated"] = to_flags(t.eliminated, t.n);
        d["knocked"] = to_flags(t.knocked, t.n);
        d["exposed"] = to_flags(t.exposed, t.n);
        d["called"] = to_flags(t.called, t.n);
        d["caught"] = to_flags(t.caught, t.n);
        d["fresh"] = to_flags(t.fresh, t.n);
        nb::list scores, wins, winners, seed, rng;
        for (int s = 0; s < t.n; s++) {
            scores.append(t.scores[s]);
            wins.append(t.round_wins[s]);
            if (t.match_winners & (1u << s)) winners.append(s);
        }
        d["scores"] = scores;
        d["round_wins"] = wins;
        d["match_winners"] = winners;
        for (int k = 0; k < t.seed_len; k++) seed.append(t.seed_words[k]);
        d["seed_words"] = seed;
        for (int k = 0; k < Rng::N; k++) rng.append(t.rng.mt[k]);
        rng.append(t.rng.mti);
        d["rng"] = rng;
        return d;
    }

    // The whole state from a dict in get_state's form (already validated by the Python engine).
    void set_state(int i, const StrDict& d) {
        Table tmp;
        Table& t = tmp;
        std::vector<uint32_t> zero{0};
        Engine::init(t, seats, zero.data(), 1);
        nb::list hands = nb::cast<nb::list>(d["hands"]);
        if (static_cast<int>(hands.size()) != seats) throw std::invalid_argument("one hand per seat");
        int total = 0;
        for (int s = 0; s < seats; s++) {
            t.hlen[s] = static_cast<uint8_t>(from_list(hands[static_cast<size_t>(s)], t.hcards[s], MAXC, "hand"));
            total += t.hlen[s];
        }
        t.ndraw = static_cast<int16_t>(from_list(d["draw"], t.draw, MAXC, "draw"));
        t.ndiscard = static_cast<int16_t>(from_list(d["discard"], t.discard, MAXC, "discard"));
        for (int k = 0; k < t.ndiscard; k++) t.dcount[t.discard[k]]++;
        t.nset = static_cast<int16_t>(from_list(d["set_aside"], t.set_aside, MAXC, "set_aside"));
        t.nwd4 = static_cast<int16_t>(from_list(d["wd4_hand"], t.wd4_hand, MAXC, "wd4_hand"));
        if (total + t.ndraw + t.ndiscard + t.nset > MAXC) throw std::invalid_argument("more than 168 cards");
        if (t.ndiscard < 1) throw std::invalid_argument("the discard pile needs a top card");
        nb::object order = d["deal_order"];
        t.ndeal = order.is_none() ? -1 : static_cast<int16_t>(from_list(order, t.deal_order, MAXC, "deal"));
        t.color = static_cast<int8_t>(nb::cast<int>(d["color"]));
        t.active = static_cast<int8_t>(nb::cast<int>(d["active"]));
        t.dealer = static_cast<int8_t>(nb::cast<int>(d["dealer"]));
        t.direction = static_cast<int8_t>(nb::cast<int>(d["direction"]));
        t.top_player = static_cast<int8_t>(nb::cast<int>(d["top_player"]));
        t.drawn = static_cast<int8_t>(nb::cast<int>(d["drawn"]));
        t.wd4_player = static_cast<int8_t>(nb::cast<int>(d["wd4_player"]));
        t.pending_card = static_cast<int8_t>(nb::cast<int>(d["pending_card"]));
        t.phase = static_cast<Phase>(nb::cast<int>(d["phase"]));
        t.color_reason = static_cast<ColorReason>(nb::cast<int>(d["color_reason"]));
        t.match_reason = static_cast<MatchReason>(nb::cast<int>(d["match_reason"]));
        t.wd4_illegal = nb::cast<bool>(d["wd4_illegal"]);
        t.final_round = nb::cast<bool>(d["final_round"]);
        t.pending = nb::cast<int>(d["pending"]);
        t.auto_passes = nb::cast<int>(d["auto_passes"]);
        t.round_no = nb::cast<int>(d["round_no"]);
        const char* flag_names[7] = {"in_round", "eliminated", "knocked", "exposed", "called", "caught", "fresh"};
        bool* flags[7] = {t.in_round, t.eliminated, t.knocked, t.exposed, t.called, t.caught, t.fresh};
        for (int f = 0; f < 7; f++) {
            nb::list l = nb::cast<nb::list>(d[flag_names[f]]);
            if (static_cast<int>(l.size()) != seats) throw std::invalid_argument("one flag per seat");
            for (int s = 0; s < seats; s++) flags[f][s] = nb::cast<bool>(l[static_cast<size_t>(s)]);
        }
        nb::list scores = nb::cast<nb::list>(d["scores"]), wins = nb::cast<nb::list>(d["round_wins"]);
        for (int s = 0; s < seats; s++) {
            t.scores[s] = nb::cast<int32_t>(scores[static_cast<size_t>(s)]);
            t.round_wins[s] = nb::cast<int32_t>(wins[static_cast<size_t>(s)]);
        }
        Engine::refresh_score_obs(t, R.target_score);
        t.match_winners = 0;
        for (nb::handle h : d["match_winners"]) t.match_winners |= static_cast<uint16_t>(1u << nb::cast<int>(h));
        std::vector<uint32_t> seed = nb::cast<std::vector<uint32_t>>(d["seed_words"]);
        if (seed.empty() || seed.size() > 8) throw std::invalid_argument("a seed is 1 to 8 words");
        t.seed_len = static_cast<uint8_t>(seed.size());
        for (size_t k = 0; k < seed.size(); k++) t.seed_words[k] = seed[k];
        std::vector<uint32_t> rng = nb::cast<std::vector<uint32_t>>(d["rng"]);
        if (rng.size() != Rng::N + 1 || rng[Rng::N] > Rng::N) throw std::invalid_argument("rng: 625 ints");
        for (int k = 0; k < Rng::N; k++) t.rng.mt[k] = rng[static_cast<size_t>(k)];
        t.rng.mti = static_cast<int32_t>(rng[Rng::N]);
        at(i) = tmp;
    }
};

// The RNG alone, for the differential tests of unotable/rng.py.
struct PyRng {
    Rng rng;
    explicit PyRng(const std::vector<uint32_t>& words) {
        if (words.empty()) throw std::invalid_argument("a seed is at least one word");
        rng.seed_words(words.data(), words.size());
    }
    uint32_t below(uint32_t n) {
        if (n < 1) throw std::invalid_argument("below(n) needs n >= 1");
        return rng.below(n);
    }
    std::vector<int> shuffle(std::vector<int> cards) {
        rng.shuffle(cards.data(), static_cast<int>(cards.size()));
        return cards;
    }
    uint32_t randbelow(uint32_t n) {
        if (n < 1) throw std::invalid_argument("randbelow(n) needs n >= 1");
        return rng.randbelow(n);
    }
    double random() { return rng.random(); }
    std::vector<uint32_t> state() {
        std::vector<uint32_t> out(rng.mt, rng.mt + Rng::N);
        out.push_back(static_cast<uint32_t>(rng.mti));
        return out;
    }
};

}  // namespace

#include "vecpool_bind.hpp"
#include "arena_bind.hpp"

NB_MODULE(_core, m) {
    m.doc() = "The native core of unotable (see docs/native.md).";
    m.attr("MAX_SEATS") = MAXS;
    m.attr("MAX_CARDS") = MAXC;
    // the sizes of the observation layout compiled into the core (unotable.env.spaces is its
    // reference; the env's tests hold them equal), so the package never imports the env for them
    m.attr("OBS_SIZE") = OBS_SIZE;
    m.attr("NUM_ACTIONS") = NUM_ACTIONS;
    m.attr("RULESET_SIZE") = static_cast<int>(RULESET_SIZE);
    nb::class_<PyRng>(m, "Rng")
        .def(nb::init<const std::vector<uint32_t>&>(), nb::arg("words"))
        .def("below", &PyRng::below, nb::arg("n"))
        .def("shuffle", &PyRng::shuffle, nb::arg("cards"))
        .def("randbelow", &PyRng::randbelow, nb::arg("n"))
        .def("random", &PyRng::random)
        .def("state", &PyRng::state);
    nb::class_<Pool>(m, "Pool")
        .def(nb::init<int, int, const StrDict&, const std::vector<int>&, const std::vector<int>&, nb::bytes>(),
             nb::arg("num_envs"), nb::arg("seats"), nb::arg("config"), nb::arg("deck"), nb::arg("points"),
             nb::arg("ruleset_block"))
        .def("seat_bytes", &Pool::seat_bytes, nb::arg("i"), nb::arg("seat"), nb::arg("observation"))
        .def("selfplay", &Pool::selfplay, nb::arg("policy"), nb::arg("rounds"), nb::arg("seed"),
             nb::arg("observe"), nb::arg("max_decisions"))
        .def("observe_all", &Pool::observe_all, nb::arg("obs"), nb::arg("mask"), nb::arg("seat"))
        .def("step", &Pool::step, nb::arg("actions"), nb::arg("obs"), nb::arg("mask"), nb::arg("reward"),
             nb::arg("done"), nb::arg("seat"))
        .def_prop_ro("num_envs", [](const Pool& p) { return static_cast<int>(p.tables.size()); })
        .def_ro("seats", &Pool::seats)
        .def("reset", &Pool::reset, nb::arg("i"), nb::arg("words"))
        .def("legal", &Pool::legal, nb::arg("i"), nb::arg("seat"))
        .def("play", &Pool::play, nb::arg("i"), nb::arg("seat"), nb::arg("kind"), nb::arg("card"),
             nb::arg("color"), nb::arg("target"), nb::arg("uno"))
        .def("next_round", &Pool::next_round, nb::arg("i"))
        .def("phase", &Pool::phase, nb::arg("i"))
        .def("active", &Pool::active, nb::arg("i"))
        .def("get_state", &Pool::get_state, nb::arg("i"))
        .def("set_state", &Pool::set_state, nb::arg("i"), nb::arg("state"));
    bind_vecpool(m);
    bind_arena(m);
}
