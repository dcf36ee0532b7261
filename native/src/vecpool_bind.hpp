// The bindings of VecPool (vecpool.hpp): unotable_native._core.VecPool, wrapped by
// unotable_native.vector.VecPool. Included by bindings.cpp after its Pool, whose ruleset reading it reuses.
#pragma once
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "vecpool.hpp"

namespace {

using BoolVec = nb::ndarray<bool, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

struct PyVecPool {
    uno::VecCore core;

    static uno::VecOptions options(bool auto_oot, bool match, int reward, int64_t max_cycles, bool opponents,
                                   bool random_seat, int learner_seat, const std::vector<int>& specs, int seats) {
        uno::VecOptions o;
        o.auto_oot = auto_oot;
        o.match = match;
        if (reward < 0 || reward > 2) throw std::invalid_argument("reward: 0 (win), 1 (score) or 2 (rank)");
        o.reward = static_cast<uno::Reward>(reward);
        if (max_cycles < 0) throw std::invalid_argument("max_cycles: 0 (none) or positive");
        o.max_cycles = max_cycles;
        o.opponents = opponents;
        o.random_seat = random_seat;
        if (learner_seat < 0 || learner_seat >= seats) throw std::invalid_argument("no such learning seat");
        o.learner_seat = learner_seat;
        if (opponents) {
            if (static_cast<int>(specs.size()) != seats - 1) throw std::invalid_argument("one bot per other seat");
            for (size_t k = 0; k < specs.size(); k++) {
                if (specs[k] < 0 || specs[k] >= uno::BOT_EXTERNAL + uno::MAXS)
                    throw std::invalid_argument("bots: 0 random, 1 random-stuck, 2 rule-v1, 3 + j the external policy j");
                o.specs[k] = static_cast<int8_t>(specs[k]);
                o.external |= specs[k] >= uno::BOT_EXTERNAL;
            }
        }
        return o;
    }

    PyVecPool(int num_envs, int seats, const StrDict& cfg, const std::vector<int>& deck, const std::vector<int>& points,
              nb::bytes ruleset_block, bool auto_oot, bool match, int reward, int64_t max_cycles, bool opponents,
              bool random_seat, int learner_seat, const std::vector<int>& specs)
        : core(Pool(1, seats, cfg, deck, points, ruleset_block).R,
               seats, reinterpret_cast<const uint8_t*>(ruleset_block.c_str()),
               get_int(cfg, "target_score"),
               options(auto_oot, match, reward, max_cycles, opponents, random_seat, learner_seat, specs, seats),
               num_envs) {}

    uno::VecCore::Out out(U8Mat obs, U8Mat mask, F32Mat reward, I8Vec acted, BoolVec terminated, BoolVec truncated,
                          I8Vec seat) const {
        size_t n = core.tables.size();
        if (obs.shape(0) != n || obs.shape(1) != uno::OBS_SIZE) throw std::invalid_argument("obs must be uint8 (N, 854)");
        if (mask.shape(0) != n || mask.shape(1) != uno::NUM_ACTIONS)
            throw std::invalid_argument("mask must be uint8 (N, 445)");
        if (reward.shape(0) != n || reward.shape(1) != static_cast<size_t>(core.n))
            throw std::invalid_argument("reward must be float32 (N, seats)");
        if (acted.shape(0) != n || seat.shape(0) != n) throw std::invalid_argument("acted and seat must be int8 (N,)");
        if (terminated.shape(0) != n || truncated.shape(0) != n)
            throw std::invalid_argument("terminated and truncated must be bool (N,)");
        return {obs.data(), mask.data(), reward.data(), acted.data(), terminated.data(), truncated.data(), seat.data()};
    }

    // A seed from its 32-bit words (as random.Random reads it) and its decimal text (as derive_seed writes it)
    static uno::Seed seed_of(const std::vector<uint32_t>& w, const std::string& t) {
        uno::Seed s{};
        if (w.empty() || w.size() > 8) throw std::invalid_argument("a seed is 1 to 8 words");
        if (t.empty() || t.size() >= sizeof(s.text)) throw std::invalid_argument("a seed's decimal text");
        for (char c : t) if (c < '0' || c > '9') throw std::invalid_argument("a seed's decimal text");
        for (size_t k = 0; k < w.size(); k++) s.words[k] = w[k];
        s.nwords = static_cast<uint8_t>(w.size());
        std::memcpy(s.text, t.data(), t.size());
        s.text[t.size()] = 0;
        s.len = static_cast<uint8_t>(t.size());
        return s;
    }

    void reset(const std::vector<std::vector<uint32_t>>& words, const std::vector<std::string>& texts, U8Mat obs,
               U8Mat mask, F32Mat reward, I8Vec acted, BoolVec terminated, BoolVec truncated, I8Vec seat) {
        uno::VecCore::Out b = out(obs, mask, reward, acted, terminated, truncated, seat);
        size_t n = core.tables.size();
        if (words.size() != n || texts.size() != n) throw std::invalid_argument("one seed per table");
        std::vector<uno::Seed> seeds(n);
        for (size_t i = 0; i < n; i++) seeds[i] = seed_of(words[i], texts[i]);
        nb::gil_scoped_release release;
        core.reset(seeds, b);
    }

    // With external policies (specs 3 + j): the tables waiting on one, into rows, seats, which (the
    // policy j), obs and mask (N rows each, the first k written); returns k
    size_t pending(I32Vec rows, I8Vec seats, I8Vec which, U8Mat obs, U8Mat mask) {
        size_t n = core.tables.size();
        if (rows.shape(0) != n || seats.shape(0) != n || which.shape(0) != n || obs.shape(0) != n ||
            obs.shape(1) != uno::OBS_SIZE || mask.shape(0) != n || mask.shape(1) != uno::NUM_ACTIONS)
            throw std::invalid_argument("pending: rows int32 (N,), seats and which int8 (N,), obs (N, 854), mask (N, 445)");
        nb::gil_scoped_release release;
        return core.pending(rows.data(), seats.data(), which.data(), obs.data(), mask.data());
    }

    // The external policies' actions at the tables `rows`: (-1, 0) when applied, else (the position
    // in rows of the first bad action, its reason) and nothing changed
    std::tuple<int64_t, int> act(I32Vec rows, I32Vec actions) {
        if (rows.shape(0) != actions.shape(0)) throw std::invalid_argument("act: one action per row");
        int why = 0;
        int64_t bad;
        {
            nb::gil_scoped_release release;
            bad = core.act(rows.data(), actions.data(), rows.shape(0), &why);
        }
        return {bad, why};
    }

    // With external policies: every row written once they are done (after reset, load and step)
    void finish_rows(U8Mat obs, U8Mat mask, F32Mat reward, I8Vec acted, BoolVec terminated, BoolVec truncated,
                     I8Vec seat) {
        uno::VecCore::Out b = out(obs, mask, reward, acted, terminated, truncated, seat);
        nb::gil_scoped_release release;
        core.finish_rows(b);
    }

    void set_threads(int k) {
        if (k < 1 || k > 256) throw std::invalid_argument("threads: 1 to 256");
        core.set_threads(k);
    }

    // reset from positions: table i's first episode from the state of table i of `p` (a Pool of
    // this ruleset, seat count and size, each table loaded by its set_state), its later episodes
    // and its bots from its seed (words and text, as reset takes them)
    void load(Pool& p, const std::vector<std::vector<uint32_t>>& words, const std::vector<std::string>& texts,
              U8Mat obs, U8Mat mask, F32Mat reward, I8Vec acted, BoolVec terminated, BoolVec truncated, I8Vec seat) {
        uno::VecCore::Out b = out(obs, mask, reward, acted, terminated, truncated, seat);
        size_t n = core.tables.size();
        if (p.seats != core.n || p.tables.size() != n)
            throw std::invalid_argument("the positions' pool must have this pool's seat count and size");
        if (std::memcmp(p.block, core.block, RULESET_SIZE) != 0)
            throw std::invalid_argument("the positions' pool plays another ruleset");
        if (words.size() != n || texts.size() != n) throw std::invalid_argument("one seed per table");
        std::vector<uno::Seed> seeds(n);
        for (size_t i = 0; i < n; i++) seeds[i] = seed_of(words[i], texts[i]);
        nb::gil_scoped_release release;
        core.load(seeds, p.tables, b);
    }

    // (-1, 0) when every row stepped, else (row, reason) and nothing changed (VecCore::check)
    std::tuple<int64_t, int> step(I32Vec actions, U8Mat obs, U8Mat mask, F32Mat reward, I8Vec acted,
                                  BoolVec terminated, BoolVec truncated, I8Vec seat) {
        uno::VecCore::Out b = out(obs, mask, reward, acted, terminated, truncated, seat);
        if (actions.shape(0) != core.tables.size()) throw std::invalid_argument("actions must be int32 (N,)");
        int why = 0;
        int64_t bad;
        {
            nb::gil_scoped_release release;
            bad = core.check(actions.data(), &why);
            if (bad < 0) core.step(b);
        }
        return {bad, why};
    }

    int decider(int i) const {
        if (i < 0 || static_cast<size_t>(i) >= core.tables.size()) throw nb::index_error("no such table");
        return core.tables[static_cast<size_t>(i)].seat;
    }
};

using F64Vec = nb::ndarray<double, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

// One table as unotable/env/table.py's Table, for the PettingZoo envs (unotable_native.table):
// VecCore with one table and its action log on, no auto-reset, and either no opponents (every seat
// decides) or the core's bots at every seat but one learning seat, played inside reset and step
// until the learner's decision point (the Gymnasium env; their actions are in the log). Its buffers are
// bound once (bind) and rewritten in place: the decision point's mask, an observation, the
// rewards taken, each seat's terminated and truncated flags, and for the Parallel env every
// seat's observation and mask.
struct PyEnvTable {
    uno::VecCore core;
    Pool conv;  // one table of the reference layout: positions in and out (its set_state, get_state)
    std::vector<uno::Act> legal;
    U8Vec obs, mask;
    F64Vec rewards;
    BoolVec term, trunc;
    U8Mat pobs, pmask;
    bool bound = false;

    PyEnvTable(int seats, const StrDict& cfg, const std::vector<int>& deck, const std::vector<int>& points,
               nb::bytes ruleset_block, bool auto_oot, bool match, int reward, int64_t max_cycles, bool opponents,
               int learner_seat, const std::vector<int>& specs)
        : core(Pool(1, seats, cfg, deck, points, ruleset_block).R, seats,
               reinterpret_cast<const uint8_t*>(ruleset_block.c_str()), get_int(cfg, "target_score"),
               PyVecPool::options(auto_oot, match, reward, max_cycles, opponents, false, learner_seat, specs, seats),
               1),
          conv(1, seats, cfg, deck, points, ruleset_block),
          legal(uno::MAXA) {
        if (core.o.external) throw std::invalid_argument("EnvTable plays the core's bots only (specs 0 to 2)");
        core.logging = true;
    }

    void bind(U8Vec obs_, U8Vec mask_, F64Vec rewards_, BoolVec term_, BoolVec trunc_, U8Mat pobs_, U8Mat pmask_) {
        size_t n = static_cast<size_t>(core.n);
        if (obs_.shape(0) != uno::OBS_SIZE || mask_.shape(0) != uno::NUM_ACTIONS)
            throw std::invalid_argument("obs: uint8 (854,), mask: uint8 (445,)");
        if (rewards_.shape(0) != n || term_.shape(0) != n || trunc_.shape(0) != n)
            throw std::invalid_argument("rewards: float64 (seats,), terminated and truncated: bool (seats,)");
        if (pobs_.shape(0) != n || pobs_.shape(1) != uno::OBS_SIZE || pmask_.shape(0) != n ||
            pmask_.shape(1) != uno::NUM_ACTIONS)
            throw std::invalid_argument("pobs: uint8 (seats, 854), pmask: uint8 (seats, 445)");
        obs = obs_;
        mask = mask_;
        rewards = rewards_;
        term = term_;
        trunc = trunc_;
        pobs = pobs_;
        pmask = pmask_;
        bound = true;
    }

    uno::VecTable& v() { return core.tables[0]; }

    void need() const {
        if (!bound) throw std::logic_error("bind the buffers first");
    }

    // The decision point after a change, as one int: bits 0-3 the deciding seat (15: none),
    // 16 decline, 32 done, 64 rewards to take, 128 a seat's terminated or truncated flag changed.
    // Writes the mask and the flags.
    int status(bool changed) {
        uno::VecTable& t = v();
        core.decision_mask(0, mask.data(), legal.data());
        bool* tm = term.data();
        bool* tr = trunc.data();
        for (int s = 0; s < core.n; s++) {
            changed |= tm[s] != t.term[s] || tr[s] != t.trunc[s];
            tm[s] = t.term[s];
            tr[s] = t.trunc[s];
        }
        int code = (t.done || t.seat < 0) ? 15 : t.seat;
        if (t.decline) code |= 16;
        if (t.done) code |= 32;
        for (int s = 0; s < core.n; s++) {
            uint64_t bits;
            std::memcpy(&bits, &t.rewards[s], sizeof(bits));
            if (bits) code |= 64;
        }
        if (changed) code |= 128;
        return code;
    }

    // Table.reset(seed): Game.new(seats, ruleset, seed) from its words and decimal text
    int reset(const std::vector<uint32_t>& words, const std::string& text) {
        need();
        uno::Seed seed = PyVecPool::seed_of(words, text);
        uno::VecTable& t = v();
        core.seat_bots(0, seed, core.o.learner_seat);
        uno::Engine::init(t.t, core.n, seed.words, seed.nwords);
        uno::Engine{core.R, t.t}.start_match();
        core.begin(0, legal.data());
        return status(true);
    }

    // Table.reset(seed, position=...): the state of table i of a Pool (loaded there by its
    // load_state); the seed (words and text) seeds the bots
    int load(Pool& p, int i, const std::vector<uint32_t>& words, const std::string& text) {
        need();
        if (p.seats != core.n) throw std::invalid_argument("the pool's seat count is not this table's");
        uno::Seed seed = PyVecPool::seed_of(words, text);
        uno::VecTable& t = v();
        core.seat_bots(0, seed, core.o.learner_seat);
        t.t = p.at(i);
        core.begin(0, legal.data());
        return status(true);
    }

    // Table.stop: the episode ends now for every seat (the single-agent env's learner is out)
    int stop() {
        need();
        uno::VecTable& t = v();
        if (!t.done) core.finish(t, true);
        return status(false);
    }

    int step(int action) {
        need();
        uno::VecTable& t = v();
        if (t.done) return -4;
        int w = core.step_one(0, action, legal.data());
        if (w) return w;
        return status(false);
    }

    void observe(int seat) {
        need();
        if (seat < 0 || seat >= core.n) throw std::invalid_argument("no such seat");
        core.observe(0, seat, obs.data(), legal.data());
    }

    // The rewards since the last call into the rewards buffer (and zero them)
    void take_rewards() {
        need();
        uno::VecTable& t = v();
        double* out = rewards.data();
        for (int s = 0; s < core.n; s++) {
            out[s] = t.rewards[s];
            t.rewards[s] = 0.0;
        }
    }

    // The decision point's legal actions as indices, in the engine's order
    std::vector<int> legal_indices() {
        uno::VecTable& t = v();
        std::vector<int> out;
        if (t.done) return out;
        int k = core.decision_legal(t, legal.data());
        for (int j = 0; j < k; j++) out.push_back(uno::index_of(legal[static_cast<size_t>(j)], t.seat, core.n));
        return out;
    }

    // The action log from entry `start` on (seat << 16 | index, -1: a deal)
    std::vector<int32_t> log(size_t start) const {
        const auto& l = core.logs[0];
        if (start >= l.size()) return {};
        return std::vector<int32_t>(l.begin() + static_cast<std::ptrdiff_t>(start), l.end());
    }

    // Every seat's observation and Parallel mask into pobs and pmask
    void parallel_outputs() {
        need();
        for (int s = 0; s < core.n; s++) {
            size_t q = static_cast<size_t>(s);
            core.observe(0, s, pobs.data() + q * uno::OBS_SIZE, legal.data());
            core.parallel_mask(0, s, pmask.data() + q * uno::NUM_ACTIONS, legal.data());
        }
    }

    // (seat applied, status) or (-1 - bad seat, reason); see VecCore::step_parallel
    std::tuple<int, int> step_parallel(I32Vec idx) {
        need();
        if (idx.shape(0) != static_cast<size_t>(core.n)) throw std::invalid_argument("one index per seat");
        int bad = -1, why = 0;
        int seat = core.step_parallel(0, idx.data(), &bad, &why, legal.data());
        if (seat < 0) return {-1 - bad, why};
        return {seat, status(false)};
    }
};

void bind_vecpool(nb::module_& m) {
    nb::class_<PyEnvTable>(m, "EnvTable")
        .def(nb::init<int, const StrDict&, const std::vector<int>&, const std::vector<int>&, nb::bytes, bool, bool,
                      int, int64_t, bool, int, const std::vector<int>&>(),
             nb::arg("seats"), nb::arg("config"), nb::arg("deck"), nb::arg("points"), nb::arg("ruleset_block"),
             nb::arg("auto_oot"), nb::arg("match"), nb::arg("reward"), nb::arg("max_cycles"),
             nb::arg("opponents") = false, nb::arg("learner_seat") = 0, nb::arg("specs") = std::vector<int>{})
        .def("bind", &PyEnvTable::bind, nb::arg("obs"), nb::arg("mask"), nb::arg("rewards"), nb::arg("terminated"),
             nb::arg("truncated"), nb::arg("pobs"), nb::arg("pmask"))
        .def("reset", &PyEnvTable::reset, nb::arg("words"), nb::arg("text"))
        .def("load", &PyEnvTable::load, nb::arg("pool"), nb::arg("i"), nb::arg("words"), nb::arg("text"))
        .def("stop", &PyEnvTable::stop)
        .def("step", &PyEnvTable::step, nb::arg("action"))
        .def("observe", &PyEnvTable::observe, nb::arg("seat"))
        .def("take_rewards", &PyEnvTable::take_rewards)
        .def("legal_indices", &PyEnvTable::legal_indices)
        .def("log", &PyEnvTable::log, nb::arg("start"))
        .def("parallel_outputs", &PyEnvTable::parallel_outputs)
        .def("step_parallel", &PyEnvTable::step_parallel, nb::arg("indices"))
        .def_prop_ro("cycles", [](PyEnvTable& t) { return t.v().cycles; });

    nb::class_<PyVecPool>(m, "VecPool")
        .def(nb::init<int, int, const StrDict&, const std::vector<int>&, const std::vector<int>&, nb::bytes, bool, bool,
                      int, int64_t, bool, bool, int, const std::vector<int>&>(),
             nb::arg("num_envs"), nb::arg("seats"), nb::arg("config"), nb::arg("deck"), nb::arg("points"),
             nb::arg("ruleset_block"), nb::arg("auto_oot"), nb::arg("match"), nb::arg("reward"),
             nb::arg("max_cycles"), nb::arg("opponents"), nb::arg("random_seat"), nb::arg("learner_seat"),
             nb::arg("specs"))
        .def("reset", &PyVecPool::reset, nb::arg("words"), nb::arg("texts"), nb::arg("obs"), nb::arg("mask"),
             nb::arg("reward"), nb::arg("acted"), nb::arg("terminated"), nb::arg("truncated"), nb::arg("seat"))
        .def("load", &PyVecPool::load, nb::arg("pool"), nb::arg("words"), nb::arg("texts"), nb::arg("obs"),
             nb::arg("mask"), nb::arg("reward"), nb::arg("acted"), nb::arg("terminated"), nb::arg("truncated"),
             nb::arg("seat"))
        .def("step", &PyVecPool::step, nb::arg("actions"), nb::arg("obs"), nb::arg("mask"), nb::arg("reward"),
             nb::arg("acted"), nb::arg("terminated"), nb::arg("truncated"), nb::arg("seat"))
        .def("decider", &PyVecPool::decider, nb::arg("i"))
        .def("pending", &PyVecPool::pending, nb::arg("rows"), nb::arg("seats"), nb::arg("which"), nb::arg("obs"),
             nb::arg("mask"))
        .def("act", &PyVecPool::act, nb::arg("rows"), nb::arg("actions"))
        .def("finish_rows", &PyVecPool::finish_rows, nb::arg("obs"), nb::arg("mask"), nb::arg("reward"),
             nb::arg("acted"), nb::arg("terminated"), nb::arg("truncated"), nb::arg("seat"))
        .def_prop_rw("threads", [](const PyVecPool& p) { return p.core.threads(); }, &PyVecPool::set_threads)
        .def_prop_ro("num_envs", [](const PyVecPool& p) { return static_cast<int>(p.core.tables.size()); });
}

}  // namespace
