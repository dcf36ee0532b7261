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
                if (specs[k] < 0 || specs[k] > 2) throw std::invalid_argument("bots: 0 random, 1 random-stuck, 2 rule-v1");
                o.specs[k] = static_cast<int8_t>(specs[k]);
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

    void reset(const std::vector<std::vector<uint32_t>>& words, const std::vector<std::string>& texts, U8Mat obs,
               U8Mat mask, F32Mat reward, I8Vec acted, BoolVec terminated, BoolVec truncated, I8Vec seat) {
        uno::VecCore::Out b = out(obs, mask, reward, acted, terminated, truncated, seat);
        size_t n = core.tables.size();
        if (words.size() != n || texts.size() != n) throw std::invalid_argument("one seed per table");
        std::vector<uno::Seed> seeds(n);
        for (size_t i = 0; i < n; i++) {
            const auto& w = words[i];
            const std::string& t = texts[i];
            if (w.empty() || w.size() > 8) throw std::invalid_argument("a seed is 1 to 8 words");
            if (t.empty() || t.size() >= sizeof(seeds[i].text)) throw std::invalid_argument("a seed's decimal text");
            for (char c : t) if (c < '0' || c > '9') throw std::invalid_argument("a seed's decimal text");
            for (size_t k = 0; k < w.size(); k++) seeds[i].words[k] = w[k];
            seeds[i].nwords = static_cast<uint8_t>(w.size());
            std::memcpy(seeds[i].text, t.data(), t.size());
            seeds[i].text[t.size()] = 0;
            seeds[i].len = static_cast<uint8_t>(t.size());
        }
        nb::gil_scoped_release release;
        core.reset(seeds, b);
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

void bind_vecpool(nb::module_& m) {
    nb::class_<PyVecPool>(m, "VecPool")
        .def(nb::init<int, int, const StrDict&, const std::vector<int>&, const std::vector<int>&, nb::bytes, bool, bool,
                      int, int64_t, bool, bool, int, const std::vector<int>&>(),
             nb::arg("num_envs"), nb::arg("seats"), nb::arg("config"), nb::arg("deck"), nb::arg("points"),
             nb::arg("ruleset_block"), nb::arg("auto_oot"), nb::arg("match"), nb::arg("reward"),
             nb::arg("max_cycles"), nb::arg("opponents"), nb::arg("random_seat"), nb::arg("learner_seat"),
             nb::arg("specs"))
        .def("reset", &PyVecPool::reset, nb::arg("words"), nb::arg("texts"), nb::arg("obs"), nb::arg("mask"),
             nb::arg("reward"), nb::arg("acted"), nb::arg("terminated"), nb::arg("truncated"), nb::arg("seat"))
        .def("step", &PyVecPool::step, nb::arg("actions"), nb::arg("obs"), nb::arg("mask"), nb::arg("reward"),
             nb::arg("acted"), nb::arg("terminated"), nb::arg("truncated"), nb::arg("seat"))
        .def("decider", &PyVecPool::decider, nb::arg("i"))
        .def_prop_ro("num_envs", [](const PyVecPool& p) { return static_cast<int>(p.core.tables.size()); });
}

}  // namespace
