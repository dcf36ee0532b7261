// nanobind bindings of the native core: unotable_native._core.
//
// The Python package unotable_native wraps this module (validation of rulesets, seeds and
// positions stays in the reference engine's Python code, so their errors are the engine's own).
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "check.hpp"
#include "core.hpp"

namespace nb = nanobind;
using namespace uno;

namespace {

int get_int(const nb::dict& d, const char* key) {
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

struct Pool {
    Rules R;
    int seats;
    std::vector<Table> tables;

    Pool(int num_envs, int seats_, const nb::dict& cfg, const std::vector<int>& deck, const std::vector<int>& points)
        : seats(seats_) {
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
        tables.resize(static_cast<size_t>(num_envs));
        std::vector<uint32_t> zero{0};
        for (auto& t : tables) Engine::init(t, seats, zero.data(), 1);
    }

    Table& at(int i) {
        if (i < 0 || static_cast<size_t>(i) >= tables.size()) throw nb::index_error("no such table");
        return tables[static_cast<size_t>(i)];
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
        Engine{R, t}.apply(seat, a);
        return {0, std::string()};
    }

    bool next_round(int i) {
        Table& t = at(i);
        if (t.phase != PH_ROUND_OVER) return false;
        Engine{R, t}.next_round();
        return true;
    }

    int phase(int i) { return at(i).phase; }
    int active(int i) { return at(i).active; }

    nb::dict get_state(int i) {
        const Table& t = at(i);
        nb::dict d;
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
    void set_state(int i, const nb::dict& d) {
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

NB_MODULE(_core, m) {
    m.doc() = "The native core of unotable (see docs/native.md).";
    m.attr("MAX_SEATS") = MAXS;
    m.attr("MAX_CARDS") = MAXC;
    nb::class_<PyRng>(m, "Rng")
        .def(nb::init<const std::vector<uint32_t>&>(), nb::arg("words"))
        .def("below", &PyRng::below, nb::arg("n"))
        .def("shuffle", &PyRng::shuffle, nb::arg("cards"))
        .def("randbelow", &PyRng::randbelow, nb::arg("n"))
        .def("random", &PyRng::random)
        .def("state", &PyRng::state);
    nb::class_<Pool>(m, "Pool")
        .def(nb::init<int, int, const nb::dict&, const std::vector<int>&, const std::vector<int>&>(),
             nb::arg("num_envs"), nb::arg("seats"), nb::arg("config"), nb::arg("deck"), nb::arg("points"))
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
}
