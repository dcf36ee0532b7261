// The arena in the core: unotable.bots.arena.play_game for rounds (mode "round") when every seat's
// bot has a native policy, game for game and decision for decision.
//
// What it mirrors, by the Python function:
// - arena.seating: game `index` is block index // seats, rotation index % seats; seat s gets the
//   lineup's bot (s + rotation) % seats; the deal is Game.new(seats, ruleset,
//   derive_seed(seed, "deal", block)), so the games of a block share one deal.
// - arena.game_rngs: seat s's generator is random.Random(derive_seed(derive_seed(seed, "bot",
//   index), "seat", s)) (agent.seat_rng).
// - arbiter.Arbiter.step / play_round: after every applied action, each seat other than the active
//   one with a legal action is offered it in offer_order (react = choose; None declines until an
//   action is applied), then the active seat chooses; at most max_actions actions.
// - arena.play_game's result: the winners (the winner's team under partnerships), the points
//   (RoundResult.scores), the turn actions of each seat (every applied action but calls and
//   catches), finished (the round ended within max_actions).
// The policies: random, random-stuck and rule-v1 as VecPool's opponents (vecpool.hpp), mixbot
// and mixbot2 (policies/mixbot.hpp), mixbot2 reading the table's PublicRecord and its seat's
// MixParams (its options; mixbot2-tuned is mixbot2 with other ones).
#pragma once
#include <cstdint>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core.hpp"
#include "policies/mixbot.hpp"
#include "policies/tracker.hpp"
#include "vecpool.hpp"

namespace uno {

enum ArenaBot : int8_t { AB_RANDOM = 0, AB_RANDOM_STUCK = 1, AB_RULE_V1 = 2, AB_MIXBOT = 3, AB_MIXBOT2 = 4 };
constexpr int AB_COUNT = 5;

// Bot.choose / Bot.react of the policy bot for seat; the index in legal, -1 for None
inline int arena_choose(int bot, const Table& t, int seat, bool turn, const Act* legal, int k, Rng& rng,
                        const MixContext& ctx, const MixParams& params) {
    if (bot == AB_MIXBOT) return mixbot_choose(false, t, seat, legal, k, rng, &ctx);
    if (bot == AB_MIXBOT2) return mixbot_choose(true, t, seat, legal, k, rng, &ctx, params);
    return bot_choose(static_cast<Bot>(bot), t, seat, turn, legal, k, rng);
}

struct ArenaGame {
    int32_t winners;  // a bit per winning seat
    int32_t finished;
    int32_t points[MAXS];
    int32_t turns[MAXS];
};

struct ArenaMove {
    int8_t seat;
    Act act;
};

struct Arena {
    const Rules& R;
    int n;
    int8_t lineup[MAXS];
    Seed seed;
    int64_t max_actions;
    int composition[NIDS];
    bool counting;  // a mixbot2 plays: keep the public record
    MixParams params[MAXS];  // the lineup's mixbot2 options, rotated with it

    // params: none (every mixbot2 with its defaults) or one per seat of the lineup, each empty
    // (the defaults) or MixParams' flat form
    Arena(const Rules& rules, int seats, const std::vector<int>& bots, uint64_t seed_, int64_t max_actions_,
          const std::vector<std::vector<int>>& mix = {})
        : R(rules), n(seats), seed(Seed::of(seed_)), max_actions(max_actions_), composition{}, counting(false) {
        if (static_cast<int>(bots.size()) != n) throw std::invalid_argument("one bot per seat");
        if (!mix.empty() && static_cast<int>(mix.size()) != n)
            throw std::invalid_argument("params: none, or one list per seat");
        for (size_t s = 0; s < mix.size(); s++)
            if (!mix[s].empty()) params[s] = MixParams::from(mix[s].data(), static_cast<int>(mix[s].size()));
        for (int s = 0; s < n; s++) {
            if (bots[static_cast<size_t>(s)] < 0 || bots[static_cast<size_t>(s)] >= AB_COUNT)
                throw std::invalid_argument("bots: 0 random, 1 random-stuck, 2 rule-v1, 3 mixbot, 4 mixbot2");
            lineup[s] = static_cast<int8_t>(bots[static_cast<size_t>(s)]);
            counting |= lineup[s] == AB_MIXBOT2;
        }
        for (int i = 0; i < R.deck_n; i++) composition[R.deck[i]]++;
    }

    // VecCore::oot_possible (Table._out_of_turn_possible): may a seat other than the active one
    // have a legal action?
    bool oot_possible(const Table& t) const {
        if (R.jump_in) return true;
        if (R.uno_penalty && t.any_exposed()) return true;
        for (int s = 0; s < n; s++) if (t.hsize(s) == 1 && !t.called[s]) return true;
        return false;
    }

    // arena.play_game(config, index) for a round, into out (and its actions into log)
    void play(int64_t index, Table& t, PublicRecord& rec, ArenaGame& out, std::vector<ArenaMove>* log) const {
        int64_t block = index / n, rotation = index % n;
        int8_t bot[MAXS];
        const MixParams* param[MAXS];
        for (int s = 0; s < n; s++) {
            bot[s] = lineup[(s + rotation) % n];
            param[s] = &params[(s + rotation) % n];
        }
        uint64_t deal = derive_seed(seed, "deal", block, true);
        uint32_t w[2] = {static_cast<uint32_t>(deal), static_cast<uint32_t>(deal >> 32)};
        Engine::init(t, n, w, w[1] ? 2 : 1);
        Engine{R, t}.start_match();
        Seed bots_seed = Seed::of(derive_seed(seed, "bot", index, true));
        Rng rngs[MAXS];
        for (int s = 0; s < n; s++) seed_rng(rngs[s], derive_seed(bots_seed, "seat", s, true));
        rec.seats = 0;
        if (counting) rec.deal(t);
        MixContext ctx{&rec, composition};
        for (int s = 0; s < n; s++) out.turns[s] = out.points[s] = 0;
        if (log) log->clear();
        Act legal[MAXA];
        uint64_t version = 0;
        uint64_t declined[MAXS] = {0};  // version + 1 at the seat's last decline
        int64_t count = 0;
        while (t.phase < PH_ROUND_OVER && count < max_actions) {
            int seat = -1;
            Act a{};
            if (oot_possible(t)) {
                for (int q = 1, s = t.active; q < n; q++) {  // arbiter.offer_order
                    s = t.step_seat(s, t.direction);
                    if (declined[s] == version + 1) continue;
                    int k = Engine{R, t}.legal(s, legal);
                    if (!k) continue;
                    int j = arena_choose(bot[s], t, s, false, legal, k, rngs[s], ctx, *param[s]);
                    if (j < 0) {
                        declined[s] = version + 1;
                        continue;
                    }
                    seat = s;
                    a = legal[j];
                    break;
                }
            }
            if (seat < 0) {
                seat = t.active;
                int k = Engine{R, t}.legal(seat, legal);
                int j = arena_choose(bot[seat], t, seat, true, legal, k, rngs[seat], ctx, *param[seat]);
                if (j < 0) throw std::logic_error("a bot chose no action on its turn");
                a = legal[j];
            }
            Engine e{R, t};
            if (counting) {
                if (a.kind == K_PLAY) rec.played(seat, a.card, a.color);
                else if (a.kind == K_CHOOSE) rec.chose(a.color);
                rec.attach(e);
            }
            e.apply(seat, a);
            if (log) log->push_back(ArenaMove{static_cast<int8_t>(seat), a});
            if (a.kind != K_CALL && a.kind != K_CATCH) out.turns[seat]++;
            version++;
            count++;
        }
        out.finished = t.phase >= PH_ROUND_OVER;
        out.winners = 0;
        if (!out.finished) return;
        for (int s = 0; s < n; s++) out.points[s] = t.scores[s];
        int winner = -1;
        for (int s = 0; s < n; s++) if (t.round_wins[s]) winner = s;
        if (winner < 0) return;
        for (int s = 0; s < n; s++)
            if (R.partnership ? s % 2 == winner % 2 : s == winner) out.winners |= 1 << s;
    }

    // Games first .. first + games - 1 into out[0 ..], on `threads` threads
    void run(int64_t first, int64_t games, ArenaGame* out, int threads) const {
        if (threads < 1) threads = 1;
        if (threads > games) threads = static_cast<int>(games > 0 ? games : 1);
        std::mutex lock;
        std::string error;
        auto work = [&](int64_t lo, int64_t hi) {
            try {
                std::vector<Table> table(1);  // about 7 KB: on the heap
                PublicRecord rec;
                for (int64_t i = lo; i < hi; i++) play(first + i, table[0], rec, out[i], nullptr);
            } catch (const std::exception& exc) {
                std::lock_guard<std::mutex> hold(lock);
                if (error.empty()) error = exc.what();
            }
        };
        if (threads == 1) {
            work(0, games);
        } else {
            std::vector<std::thread> pool;
            int64_t step = (games + threads - 1) / threads;
            for (int64_t lo = 0; lo < games; lo += step)
                pool.emplace_back(work, lo, lo + step < games ? lo + step : games);
            for (auto& th : pool) th.join();
        }
        if (!error.empty()) throw std::logic_error(error);
    }
};

}  // namespace uno
