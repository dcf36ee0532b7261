// The bindings of the arena in the core (arena.hpp): unotable_native._core.arena and arena_game,
// wrapped by unotable_native.arena. Included by bindings.cpp after its Pool, whose ruleset it reads.
#pragma once
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "arena.hpp"
#include "check.hpp"

namespace {

void arena_record(const uno::ArenaGame& g, int n, int32_t* row) {
    row[0] = g.winners;
    row[1] = g.finished;
    for (int s = 0; s < n; s++) {
        row[2 + s] = g.points[s];
        row[2 + n + s] = g.turns[s];
    }
}

// Games first .. first + games - 1 of an arena run of `seed` (the lineup `bots`, one policy code per
// seat), on `threads` threads, the GIL released: int32 rows of 2 + 2 * seats (winners as a bit per
// seat, finished, the points of each seat, the turn actions of each seat), as bytes.
// params: mixbot2's options per seat (uno::Arena's constructor), none for the defaults.
nb::bytes arena_run(Pool& pool, const std::vector<int>& bots, uint64_t seed, int64_t first, int64_t games,
                    int64_t max_actions, int threads, const std::vector<std::vector<int>>& params) {
    if (games < 0 || first < 0) throw std::invalid_argument("first and games must be >= 0");
    if (max_actions < 0) throw std::invalid_argument("max_actions must be >= 0");
    uno::Arena arena(pool.R, pool.seats, bots, seed, max_actions, params);
    const int n = pool.seats;
    std::vector<uno::ArenaGame> out(static_cast<size_t>(games));
    {
        nb::gil_scoped_release release;
        arena.run(first, games, out.data(), threads);
    }
    std::vector<int32_t> rows(static_cast<size_t>(games) * static_cast<size_t>(2 + 2 * n));
    for (int64_t i = 0; i < games; i++)
        arena_record(out[static_cast<size_t>(i)], n, rows.data() + static_cast<size_t>(i) * static_cast<size_t>(2 + 2 * n));
    return nb::bytes(reinterpret_cast<const char*>(rows.data()), rows.size() * sizeof(int32_t));
}

// Game `index` alone, with its actions: (its row as a list, [(seat, action notation), ...])
std::tuple<std::vector<int32_t>, std::vector<std::tuple<int, std::string>>> arena_game(
    Pool& pool, const std::vector<int>& bots, uint64_t seed, int64_t index, int64_t max_actions,
    const std::vector<std::vector<int>>& params) {
    if (index < 0) throw std::invalid_argument("index must be >= 0");
    uno::Arena arena(pool.R, pool.seats, bots, seed, max_actions, params);
    std::vector<uno::Table> table(1);
    uno::PublicRecord rec;
    uno::ArenaGame g{};
    std::vector<uno::ArenaMove> log;
    arena.play(index, table[0], rec, g, &log);
    std::vector<int32_t> row(static_cast<size_t>(2 + 2 * pool.seats));
    arena_record(g, pool.seats, row.data());
    std::vector<std::tuple<int, std::string>> moves;
    moves.reserve(log.size());
    for (const auto& m : log) moves.emplace_back(m.seat, uno::act_name(m.act));
    return {row, moves};
}

void bind_arena(nb::module_& m) {
    m.def("arena", &arena_run, nb::arg("pool"), nb::arg("bots"), nb::arg("seed"), nb::arg("first"),
          nb::arg("games"), nb::arg("max_actions"), nb::arg("threads"),
          nb::arg("params") = std::vector<std::vector<int>>{});
    m.def("arena_game", &arena_game, nb::arg("pool"), nb::arg("bots"), nb::arg("seed"), nb::arg("index"),
          nb::arg("max_actions"), nb::arg("params") = std::vector<std::vector<int>>{});
}

}  // namespace
