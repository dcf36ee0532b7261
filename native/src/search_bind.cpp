// nanobind bindings of the search inside the core: unotable_native._search (native/src/search.hpp).
//
// A module of its own, so that the search builds and binds beside the core's Pool without sharing
// its binding file. unotable/bots/native_search.py builds the description it takes.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "search.hpp"

namespace nb = nanobind;
using namespace uno;

namespace {

using StrDict = nb::typed<nb::dict, nb::str, nb::any>;

int field(const nb::dict& d, const char* key) {
    if (!d.contains(key)) throw std::invalid_argument(std::string("missing field ") + key);
    return nb::cast<int>(d[key]);
}

// The ruleset's flags (unotable_native.native_config's dict), one setter a key.
struct RuleField {
    const char* key;
    void (*set)(Rules&, int);
};

const RuleField RULE_FIELDS[] = {
    {"nm", [](Rules& r, int v) { r.nm = v; }},
    {"challenge", [](Rules& r, int v) { r.challenge = v; }},
    {"strict_wd4", [](Rules& r, int v) { r.strict_wd4 = v; }},
    {"dealer_seat0", [](Rules& r, int v) { r.dealer_seat0 = v; }},
    {"first_card_redraw", [](Rules& r, int v) { r.first_card_redraw = v; }},
    {"first_card_swap_effect", [](Rules& r, int v) { r.first_card_swap_effect = v; }},
    {"may_draw_with_playable", [](Rules& r, int v) { r.may_draw = v; }},
    {"draw_until_playable", [](Rules& r, int v) { r.draw_until_playable = v; }},
    {"force_play", [](Rules& r, int v) { r.force_play = v; }},
    {"uno_penalty", [](Rules& r, int v) { r.uno_penalty = v; }},
    {"false_catch_penalty", [](Rules& r, int v) { r.false_catch_penalty = v; }},
    {"false_uno_penalty", [](Rules& r, int v) { r.false_uno_penalty = v; }},
    {"swap_last_swap", [](Rules& r, int v) { r.swap_last_swap = v; }},
    {"shuffle_last_shuffle", [](Rules& r, int v) { r.shuffle_last_shuffle = v; }},
    {"scoring", [](Rules& r, int v) { r.scoring = static_cast<Scoring>(v); }},
    {"target_score", [](Rules& r, int v) { r.target_score = v; }},
    {"elimination_one_round", [](Rules& r, int v) { r.elimination_one_round = v; }},
    {"partnership", [](Rules& r, int v) { r.partnership = v; }},
    {"stacking", [](Rules& r, int v) { r.stacking = static_cast<Stacking>(v); }},
    {"stack_sum", [](Rules& r, int v) { r.stack_sum = v; }},
    {"jump_in", [](Rules& r, int v) { r.jump_in = v; }},
    {"seven_zero", [](Rules& r, int v) { r.seven_zero = v; }},
    {"bounce_draw_two", [](Rules& r, int v) { r.bounce_draw_two = v; }},
    {"defend_wd4_with_draw_two", [](Rules& r, int v) { r.defend_wd4 = v; }},
    {"mercy_limit", [](Rules& r, int v) { r.mercy_limit = v; }},
    {"custom_effect", [](Rules& r, int v) { r.custom_effect = static_cast<CustomEffect>(v); }},
};

Rules rules_of(const StrDict& cfg, const std::vector<int>& deck, const std::vector<int>& points) {
    Rules r;
    std::memset(&r, 0, sizeof(r));
    for (const RuleField& f : RULE_FIELDS) f.set(r, field(cfg, f.key));
    if (deck.empty() || deck.size() > MAXC) throw std::invalid_argument("a deck holds 1 to 168 cards");
    if (points.size() != NIDS) throw std::invalid_argument("points: one per card id");
    r.deck_n = static_cast<int>(deck.size());
    for (size_t k = 0; k < deck.size(); k++) r.deck[k] = static_cast<uint8_t>(deck[k]);
    for (int c = 0; c < NIDS; c++) r.points[c] = points[static_cast<size_t>(c)];
    r.compile();
    return r;
}

std::vector<uint8_t> cards(const nb::handle& obj, const char* what) {
    std::vector<uint8_t> out;
    for (nb::handle h : obj) {
        int c = nb::cast<int>(h);
        if (c < 0 || c >= NIDS) throw std::invalid_argument(std::string(what) + ": not a card id");
        out.push_back(static_cast<uint8_t>(c));
    }
    if (out.size() > MAXC) throw std::invalid_argument(std::string(what) + ": too many cards");
    return out;
}

template <class T>
std::vector<T> per_seat(const nb::dict& d, const char* key, size_t n) {
    std::vector<T> out = nb::cast<std::vector<T>>(d[key]);
    if (out.size() != n) throw std::invalid_argument(std::string(key) + ": one per seat");
    return out;
}

SearchSpec spec_of(const StrDict& d) {
    SearchSpec S;
    S.n = field(d, "seats");
    if (S.n < 2 || S.n > MAXS) throw std::invalid_argument("seats must be 2 to 10");
    const size_t n = static_cast<size_t>(S.n);
    S.me = field(d, "seat");
    if (S.me < 0 || S.me >= S.n) throw std::invalid_argument("no such seat");
    S.phase = field(d, "phase");
    S.active = field(d, "active");
    S.direction = field(d, "direction");
    S.color = field(d, "color");
    S.dealer = field(d, "dealer");
    S.round_no = field(d, "round_no");
    S.pending = field(d, "pending");
    S.pending_card = field(d, "pending_card");
    S.top_player = field(d, "top_player");
    S.color_reason = field(d, "color_reason");
    S.drawn = field(d, "drawn");
    S.in_round = per_seat<uint8_t>(d, "in_round", n);
    S.eliminated = per_seat<uint8_t>(d, "eliminated", n);
    S.knocked = per_seat<uint8_t>(d, "knocked", n);
    S.exposed = per_seat<uint8_t>(d, "exposed", n);
    S.called = per_seat<uint8_t>(d, "called", n);
    S.scores = per_seat<int>(d, "scores", n);
    S.round_wins = per_seat<int>(d, "round_wins", n);
    S.sizes = per_seat<int>(d, "sizes", n);
    S.discard = cards(d["discard"], "discard");
    if (S.discard.empty()) throw std::invalid_argument("the discard pile needs a top card");
    S.hand = cards(d["hand"], "hand");
    S.pool = cards(d["pool"], "pool");
    S.set_aside = field(d, "set_aside");
    nb::list fixed = nb::cast<nb::list>(d["fixed"]), needs = nb::cast<nb::list>(d["needs"]);
    if (fixed.size() != n || needs.size() != n) throw std::invalid_argument("fixed, needs: one per seat");
    int total = static_cast<int>(S.discard.size() + S.hand.size() + S.pool.size());
    S.fixed.resize(n);
    S.needs.resize(n);
    for (size_t s = 0; s < n; s++) {
        S.fixed[s] = cards(fixed[s], "fixed");
        total += static_cast<int>(S.fixed[s].size());
        if (S.sizes[s] < 0 || S.sizes[s] > MAXC) throw std::invalid_argument("sizes: 0 to 168");
        for (nb::handle h : needs[s]) {
            nb::tuple need = nb::cast<nb::tuple>(h);
            Need x{{0, 0}, nb::cast<int>(need[1])};
            for (uint8_t c : cards(need[0], "needs")) x.mask[c >> 6] |= uint64_t{1} << (c & 63);
            S.needs[s].push_back(x);
        }
    }
    if (total > MAXC) throw std::invalid_argument("more than 168 cards");
    S.order = nb::cast<std::vector<int>>(d["order"]);
    for (int s : S.order)
        if (s < 0 || s >= S.n || s == S.me) throw std::invalid_argument("order: the other seats");
    nb::list weights = nb::cast<nb::list>(d["weights"]);
    for (nb::handle h : weights) {
        std::vector<double> w = h.is_none() ? std::vector<double>() : nb::cast<std::vector<double>>(h);
        if (!w.empty() && w.size() != NIDS) throw std::invalid_argument("weights: one per card id");
        for (double x : w) if (!(x > 0.0)) throw std::invalid_argument("weights must be positive");
        S.weights.push_back(std::move(w));
    }
    S.color_before_wd4 = field(d, "color_before_wd4");
    S.wd4_open = field(d, "wd4_open");
    for (nb::handle h : d["candidates"]) {
        nb::tuple a = nb::cast<nb::tuple>(h);
        S.candidates.push_back(mk(nb::cast<int>(a[0]), nb::cast<int>(a[1]), nb::cast<int>(a[2]),
                                  nb::cast<int>(a[3]), nb::cast<bool>(a[4])));
    }
    S.prior = field(d, "prior");
    S.prior_z = nb::cast<double>(d["prior_z"]);
    S.iterations = nb::cast<int64_t>(d["iterations"]);
    S.ms = nb::cast<double>(d["ms"]);
    S.seed = nb::cast<uint64_t>(d["seed"]);
    S.policy = per_seat<int>(d, "policy", n);
    for (int p : S.policy)
        if (p < 0 || p >= PLAY_POLICIES) throw std::invalid_argument("policy: not a playout policy");
    if (d.contains("mix")) {  // per seat: 15 numbers (MixParams::from), or none for mixbot2's defaults
        nb::list mix = nb::cast<nb::list>(d["mix"]);
        if (mix.size() != n) throw std::invalid_argument("mix: one entry per seat");
        for (size_t s = 0; s < n; s++) {
            std::vector<int> v = nb::cast<std::vector<int>>(mix[s]);
            if (!v.empty()) S.mix[s] = MixParams::from(v.data(), static_cast<int>(v.size()));
        }
    }
    S.max_steps = field(d, "max_steps");
    S.horizon = field(d, "horizon");
    EvalWeights* evals[2] = {&S.eval_hu, &S.eval_table};
    nb::list ev = nb::cast<nb::list>(d["eval"]);
    if (ev.size() != 2) throw std::invalid_argument("eval: heads-up and table weights");
    for (size_t j = 0; j < 2; j++) {
        std::vector<double> w = nb::cast<std::vector<double>>(ev[j]);
        if (w.size() < 10) throw std::invalid_argument("eval: 9 weights and at least one distance");
        for (int i = 0; i < 9; i++) evals[j]->w[i] = w[static_cast<size_t>(i)];
        evals[j]->dist.assign(w.begin() + 9, w.end());
        evals[j]->compile();
    }
    S.halving = field(d, "halving");
    S.keep_results = d.contains("keep_results") && field(d, "keep_results");
    return S;
}

StrDict run_search(const StrDict& cfg, const std::vector<int>& deck, const std::vector<int>& points,
                   const StrDict& spec) {
    Rules R = rules_of(cfg, deck, points);
    SearchSpec S = spec_of(spec);
    if (S.candidates.empty()) throw std::invalid_argument("no candidates");
    SearchResult res;
    {
        nb::gil_scoped_release release;
        res = search(R, S);
    }
    StrDict out;
    out["choice"] = res.choice;
    out["worlds"] = res.worlds;
    out["playouts"] = res.playouts;
    out["steps"] = res.steps;
    out["visits"] = nb::cast(res.visits);
    out["mean"] = nb::cast(res.mean);
    if (S.keep_results) out["results"] = nb::cast(res.results);
    return out;
}

// `count` worlds as the search deals them (for tests): each a dict of hands, draw and set_aside.
nb::list sample_worlds(const StrDict& cfg, const std::vector<int>& deck, const std::vector<int>& points,
                       const StrDict& spec, int count) {
    Rules R = rules_of(cfg, deck, points);
    SearchSpec S = spec_of(spec);
    Searcher searcher(R, S);
    nb::list out;
    Table t;
    for (int k = 0; k < count; k++) {
        searcher.deal(t);
        nb::list hands;
        for (int s = 0; s < t.n; s++) hands.append(nb::cast(std::vector<int>(t.hand(s), t.hand(s) + t.hsize(s))));
        nb::dict w;
        w["hands"] = hands;
        w["draw"] = nb::cast(std::vector<int>(t.draw, t.draw + t.ndraw));
        w["set_aside"] = nb::cast(std::vector<int>(t.set_aside, t.set_aside + t.nset));
        w["wd4_illegal"] = t.wd4_illegal;
        out.append(w);
    }
    return out;
}

}  // namespace

NB_MODULE(_search, m) {
    m.doc() = "The search inside the core (native/src/search.hpp; docs/native.md).";
    m.attr("POLICIES") = nb::make_tuple("random", "random-stuck", "rule-v1", "fast", "mixbot", "mixbot2");
    m.def("search", &run_search, nb::arg("config"), nb::arg("deck"), nb::arg("points"), nb::arg("spec"),
          "One decision: the chosen candidate's index and each candidate's visits and mean result.");
    m.def("sample", &sample_worlds, nb::arg("config"), nb::arg("deck"), nb::arg("points"), nb::arg("spec"),
          nb::arg("count"), "Worlds as the search deals them: hands, draw pile and set-aside pile.");
}
