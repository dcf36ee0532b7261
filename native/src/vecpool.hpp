// The vector environment's backend in the core (unotable/env/vector.py's Backend, ENV_API 1):
// VecPool steps many tables as unotable/env/table.py's Table does, decision point for decision
// point, and writes what vector.PythonBackend writes, byte for byte and float for float.
//
// What it mirrors, by the Python function:
// - Table._advance / _settle / _auto_calls: the decision points in unotable.arbiter's order (each
//   seat other than the active one with a legal action, offered in offer_order with NOOP; a seat
//   that declined is not asked again until an action is applied; then the active seat), or under
//   out_of_turn="auto" none of them (the first UNO call, else the first catch, is made for the
//   seat, in the same order; a play that may call UNO always does).
// - Table._round_end / _finish / _knock / _truncate: the win, score and rank rewards, partnerships,
//   round and match episodes, a seat knocked out or eliminated terminated at once, max_cycles.
// - arbiter.derive_seed (SHA-256 of the parts joined by "/") and agent.seat_rng: table i reset with
//   seed s plays Game.new(seats, ruleset, s) and its episode k Game.new(..., derive_seed(s,
//   "episode", k)); the opponents draw from random.Random(derive_seed(episode seed, "seat", seat)).
// - The bots random, random-stuck and rule-v1 (unotable/bots), choose and react, draw for draw.
// - PythonBackend._start / step / _write: auto-reset NEXT_STEP, the rows' seat, obs and mask.
#pragma once
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <vector>

#include "core.hpp"
#include "env.hpp"
#include "policy.hpp"
#include "workers.hpp"

namespace uno {

// ---------------------------------------------------------------- SHA-256 (FIPS 180-4)
struct Sha256 {
    uint32_t h[8];
    uint8_t buf[64];
    uint64_t total;
    size_t used;

    Sha256() : h{0x6a09e667U, 0xbb67ae85U, 0x3c6ef372U, 0xa54ff53aU, 0x510e527fU, 0x9b05688cU, 0x1f83d9abU,
                 0x5be0cd19U},
               buf{}, total(0), used(0) {}

    static uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

    void block(const uint8_t* p) {
        static const uint32_t K[64] = {
            0x428a2f98U, 0x71374491U, 0xb5c0fbcfU, 0xe9b5dba5U, 0x3956c25bU, 0x59f111f1U, 0x923f82a4U, 0xab1c5ed5U,
            0xd807aa98U, 0x12835b01U, 0x243185beU, 0x550c7dc3U, 0x72be5d74U, 0x80deb1feU, 0x9bdc06a7U, 0xc19bf174U,
            0xe49b69c1U, 0xefbe4786U, 0x0fc19dc6U, 0x240ca1ccU, 0x2de92c6fU, 0x4a7484aaU, 0x5cb0a9dcU, 0x76f988daU,
            0x983e5152U, 0xa831c66dU, 0xb00327c8U, 0xbf597fc7U, 0xc6e00bf3U, 0xd5a79147U, 0x06ca6351U, 0x14292967U,
            0x27b70a85U, 0x2e1b2138U, 0x4d2c6dfcU, 0x53380d13U, 0x650a7354U, 0x766a0abbU, 0x81c2c92eU, 0x92722c85U,
            0xa2bfe8a1U, 0xa81a664bU, 0xc24b8b70U, 0xc76c51a3U, 0xd192e819U, 0xd6990624U, 0xf40e3585U, 0x106aa070U,
            0x19a4c116U, 0x1e376c08U, 0x2748774cU, 0x34b0bcb5U, 0x391c0cb3U, 0x4ed8aa4aU, 0x5b9cca4fU, 0x682e6ff3U,
            0x748f82eeU, 0x78a5636fU, 0x84c87814U, 0x8cc70208U, 0x90befffaU, 0xa4506cebU, 0xbef9a3f7U, 0xc67178f2U};
        uint32_t w[64];
        for (int i = 0; i < 16; i++)
            w[i] = (static_cast<uint32_t>(p[4 * i]) << 24) | (static_cast<uint32_t>(p[4 * i + 1]) << 16) |
                   (static_cast<uint32_t>(p[4 * i + 2]) << 8) | static_cast<uint32_t>(p[4 * i + 3]);
        for (int i = 16; i < 64; i++) {
            uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
            uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16] + s0 + w[i - 7] + s1;
        }
        uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
        for (int i = 0; i < 64; i++) {
            uint32_t S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
            uint32_t ch = (e & f) ^ (~e & g);
            uint32_t t1 = hh + S1 + ch + K[i] + w[i];
            uint32_t S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
            uint32_t mj = (a & b) ^ (a & c) ^ (b & c);
            uint32_t t2 = S0 + mj;
            hh = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        h[0] += a;
        h[1] += b;
        h[2] += c;
        h[3] += d;
        h[4] += e;
        h[5] += f;
        h[6] += g;
        h[7] += hh;
    }

    void update(const char* data, size_t len) {
        const uint8_t* p = reinterpret_cast<const uint8_t*>(data);
        total += len;
        while (len) {
            size_t take = 64 - used < len ? 64 - used : len;
            std::memcpy(buf + used, p, take);
            used += take;
            p += take;
            len -= take;
            if (used == 64) {
                block(buf);
                used = 0;
            }
        }
    }

    // The first 8 bytes of the digest, big-endian
    uint64_t first64() {
        uint64_t bits = total * 8;
        uint8_t pad = 0x80;
        update(reinterpret_cast<const char*>(&pad), 1);
        uint8_t zero = 0;
        while (used != 56) update(reinterpret_cast<const char*>(&zero), 1);
        uint8_t len[8];
        for (int i = 0; i < 8; i++) len[i] = static_cast<uint8_t>(bits >> (56 - 8 * i));
        update(reinterpret_cast<const char*>(len), 8);
        return (static_cast<uint64_t>(h[0]) << 32) | h[1];
    }
};

// ---------------------------------------------------------------- seeds
// A seed as random.Random(int) reads it (its 32-bit words, least significant first) and as
// derive_seed's str() writes it (decimal).
struct Seed {
    char text[84];
    uint8_t len;
    uint32_t words[8];
    uint8_t nwords;

    static Seed of(uint64_t v) {
        Seed s;
        char tmp[24];
        int k = 0;
        do {
            tmp[k++] = static_cast<char>('0' + v % 10);
            v /= 10;
        } while (v);
        for (int i = 0; i < k; i++) s.text[i] = tmp[k - 1 - i];
        s.len = static_cast<uint8_t>(k);
        s.text[k] = 0;
        uint64_t w = 0;
        for (int i = 0; i < k; i++) w = w * 10 + static_cast<uint64_t>(s.text[i] - '0');
        s.words[0] = static_cast<uint32_t>(w);
        s.words[1] = static_cast<uint32_t>(w >> 32);
        s.nwords = s.words[1] ? 2 : 1;
        return s;
    }
};

// arbiter.derive_seed(seed, word[, k]): sha256("seed/word[/k]")[:8] big-endian >> 1
inline uint64_t derive_seed(const Seed& seed, const char* word, int64_t k, bool with_k) {
    Sha256 h;
    h.update(seed.text, seed.len);
    h.update("/", 1);
    h.update(word, std::strlen(word));
    if (with_k) {
        Seed ks = Seed::of(static_cast<uint64_t>(k));
        h.update("/", 1);
        h.update(ks.text, ks.len);
    }
    return h.first64() >> 1;
}

inline void seed_rng(Rng& rng, uint64_t v) {
    uint32_t w[2] = {static_cast<uint32_t>(v), static_cast<uint32_t>(v >> 32)};
    rng.seed_words(w, w[1] ? 2 : 1);
}

// ---------------------------------------------------------------- the built-in opponents
// BOT_EXTERNAL + j: a seat of the batched policy j, which decides outside the core (VecCore::pending
// lists the tables waiting on one, VecCore::act applies its actions)
enum Bot : int8_t { BOT_LEARNER = -1, BOT_RANDOM = 0, BOT_RANDOM_STUCK = 1, BOT_RULE_V1 = 2, BOT_EXTERNAL = 3 };

// A seat the core stops at: a learner's, or an external policy's
inline bool stops_at(int8_t bot) { return bot == BOT_LEARNER || bot >= BOT_EXTERNAL; }

// base.best_uno: the indices kept (an unflagged play whose flagged twin is legal is dropped)
inline int best_uno(const Act* legal, int k, int* keep) {
    int m = 0;
    for (int i = 0; i < k; i++) {
        const Act& a = legal[i];
        bool drop = false;
        if (a.kind == K_PLAY && !a.uno)
            for (int j = 0; j < k && !drop; j++) {
                const Act& b = legal[j];
                drop = b.kind == K_PLAY && b.uno && b.card == a.card && b.color == a.color && b.target == a.target;
            }
        if (!drop) keep[m++] = i;
    }
    return m;
}

// random_stuck.RandomStuckBot.choose (and random_card_play); -1: None
inline int random_stuck_bot(const Table& t, int seat, bool turn, const Act* legal, int k, Rng& rng) {
    if (!k) return -1;
    int call = -1;
    for (int i = 0; i < k && call < 0; i++) if (legal[i].kind == K_CALL) call = i;
    if (!turn || call >= 0) return call;
    int keep[MAXA];
    int m = best_uno(legal, k, keep);
    bool any_play = false;
    for (int i = 0; i < m && !any_play; i++) any_play = legal[keep[i]].kind == K_PLAY;
    if (any_play) {
        int copies[NIDS] = {0};
        bool used[NIDS] = {false};
        for (int i = 0; i < m; i++) if (legal[keep[i]].kind == K_PLAY) used[legal[keep[i]].card] = true;
        const uint8_t* h = t.hand(seat);
        for (int i = 0, n = t.hsize(seat); i < n; i++) copies[h[i]]++;
        uint32_t total = 0;
        for (int c = 0; c < NIDS; c++) if (used[c]) total += static_cast<uint32_t>(copies[c] > 1 ? copies[c] : 1);
        uint32_t pick = rng.randbelow(total);
        for (int c = 0; c < NIDS; c++) {
            if (!used[c]) continue;
            uint32_t q = static_cast<uint32_t>(copies[c] > 1 ? copies[c] : 1);
            if (pick < q) {
                int options[MAXA];
                int no = 0;
                for (int i = 0; i < m; i++)
                    if (legal[keep[i]].kind == K_PLAY && legal[keep[i]].card == c) options[no++] = keep[i];
                return options[rng.randbelow(static_cast<uint32_t>(no))];
            }
            pick -= q;
        }
    }
    for (int i = 0; i < m; i++) if (legal[keep[i]].kind == K_DRAW) return keep[i];
    int others[MAXA];
    int no = 0;
    for (int i = 0; i < m; i++) if (legal[keep[i]].kind != K_CATCH) others[no++] = keep[i];
    return others[rng.randbelow(static_cast<uint32_t>(no))];
}

// Bot.choose on its turn, Bot.react (= choose) out of turn; the index in legal, -1 for None
inline int bot_choose(Bot b, const Table& t, int seat, bool turn, const Act* legal, int k, Rng& rng) {
    if (!k) return -1;
    switch (b) {
        case BOT_RANDOM: {  // random_bot.RandomBot
            if (turn) return static_cast<int>(rng.randbelow(static_cast<uint32_t>(k)));
            int i = static_cast<int>(rng.randbelow(static_cast<uint32_t>(k + 1)));
            return i < k ? i : -1;
        }
        case BOT_RANDOM_STUCK: return random_stuck_bot(t, seat, turn, legal, k, rng);
        case BOT_RULE_V1: {  // rule_v1.RuleV1Bot: a call first; nothing else out of turn
            if (!turn) {
                for (int i = 0; i < k; i++) if (legal[i].kind == K_CALL) return i;
                return -1;
            }
            return rule_v1(t, seat, legal, k, rng);
        }
        default: return -1;
    }
}

// table.auto_legal: no separate calls or catches, a play that may call UNO always does (in place)
inline int auto_legal(Act* legal, int k) {
    int keep[MAXA];
    int m = best_uno(legal, k, keep);
    int out = 0;
    for (int i = 0; i < m; i++) {
        const Act& a = legal[keep[i]];
        if (a.kind == K_CALL || a.kind == K_CATCH) continue;
        legal[out++] = a;
    }
    return out;
}

// ---------------------------------------------------------------- one table as decision points
enum Reward : int8_t { RW_WIN, RW_SCORE, RW_RANK };

struct VecOptions {
    bool auto_oot = false;  // out_of_turn == "auto"
    bool match = false;     // episode == "match"
    Reward reward = RW_WIN;
    int64_t max_cycles = 0;  // 0: none
    bool opponents = false;  // opponent mode (else self-play)
    bool random_seat = false;
    int learner_seat = 0;
    int8_t specs[MAXS] = {0};  // the bot of each other seat, in seat order (opponent mode)
    bool external = false;     // some spec is BOT_EXTERNAL + j: rows are finished by finish_rows
};

struct VecTable {
    Table t;
    Seed base;
    int64_t episode;
    int8_t learner;
    int8_t seat;  // the deciding seat, -1 when done
    bool decline, done;
    bool row_term, row_trunc;  // the row's flags, as written
    int8_t bot[MAXS];          // BOT_LEARNER for a learning seat
    double rewards[MAXS];
    bool term[MAXS], trunc[MAXS];
    int64_t cycles;
    uint64_t version;        // moves with every applied action (Game.action_count)
    uint64_t declined[MAXS];  // version + 1 at the seat's last decline, 0: none
    int32_t scores_at_deal[MAXS], wins_at_deal[MAXS];
    bool participant[MAXS];
    int nparticipants;
    // the decision point's legal actions as write() found them (check() reads them instead of
    // generating them again); ncache -1: not cached (more than CACHE actions)
    static constexpr int CACHE = 96;
    int16_t ncache;
    Act cache[CACHE];
    // external opponents: the row was reset in this step (fresh) or the learner's seat that acted
    bool fresh;
    int8_t actor;
};

struct VecCore {
    Rules R;
    int n;
    uint8_t block[RULESET_SIZE];
    int target_score;
    VecOptions o;
    std::vector<VecTable> tables;
    std::vector<Rng> rngs;  // the opponents' generators, n per table (opponent mode only)
    std::vector<Act> picks;
    // The actions applied to each table since its episode began (EnvCore turns it on: the Python
    // engine replays them for env.game and env.record()): seat << 16 | action index, -1 a deal
    bool logging = false;
    std::vector<std::vector<int32_t>> logs;
    // the threads that step the tables (none: the calling thread alone)
    std::unique_ptr<Workers> workers;

    void set_threads(int k) { workers = k > 1 ? std::make_unique<Workers>(k) : nullptr; }
    int threads() const { return workers ? workers->size() : 1; }

    // f(i, legal) for i in [0, count), the rows split into contiguous ranges over the threads, each
    // with its own scratch list of legal actions
    template <class F>
    void each(size_t count, F&& f) {
        size_t parts = static_cast<size_t>(threads());
        if (parts > count) parts = count;
        if (parts <= 1) {
            std::vector<Act> legal(MAXA);
            for (size_t i = 0; i < count; i++) f(i, legal.data());
            return;
        }
        workers->run([&](int p) {
            size_t q = static_cast<size_t>(p);
            if (q >= parts) return;
            std::vector<Act> legal(MAXA);
            for (size_t i = count * q / parts, hi = count * (q + 1) / parts; i < hi; i++) f(i, legal.data());
        });
    }

    VecCore(const Rules& rules, int seats, const uint8_t* ruleset_block, int target, const VecOptions& opts,
            int num_envs)
        : R(rules), n(seats), target_score(target), o(opts) {
        std::memcpy(block, ruleset_block, RULESET_SIZE);
        tables.resize(static_cast<size_t>(num_envs));
        picks.resize(static_cast<size_t>(num_envs));
        if (o.opponents) rngs.resize(static_cast<size_t>(num_envs) * static_cast<size_t>(n));
        logs.resize(static_cast<size_t>(num_envs));
        for (auto& v : tables) {
            std::memset(&v, 0, sizeof(VecTable));
            uint32_t zero = 0;
            Engine::init(v.t, n, &zero, 1);
            v.done = true;
            v.seat = -1;
        }
    }

    Rng& rng_of(size_t i, int seat) { return rngs[i * static_cast<size_t>(n) + static_cast<size_t>(seat)]; }

    int gen(const Table& t, int seat, Act* out) const { return Engine{R, const_cast<Table&>(t)}.legal(seat, out); }

    // ------------------------------------------------------------ rewards (Table._loss ... _finish)
    double score_delta(const VecTable& v, int s) const {
        double d = static_cast<double>(v.t.scores[s] - v.scores_at_deal[s]) / static_cast<double>(R.target_score);
        return (R.scoring == SC_LOW || R.scoring == SC_ELIMINATION) ? -d : d;
    }

    double loss(const VecTable& v, int s) const {
        if (o.reward == RW_WIN) return -1.0 / static_cast<double>(v.nparticipants - 1 > 1 ? v.nparticipants - 1 : 1);
        if (o.reward == RW_RANK) return -1.0;
        return score_delta(v, s);
    }

    // Table._ranked: +1 (lowest key) to -1, ties sharing the mean; seats ascending, a stable sort
    static void ranked(const int* seats, int m, const double* key, double* out) {
        int order[MAXS];
        for (int i = 0; i < m; i++) order[i] = seats[i];
        for (int i = 1; i < m; i++) {  // insertion sort: stable, as sorted()
            int x = order[i], j = i - 1;
            while (j >= 0 && key[order[j]] > key[x]) {
                order[j + 1] = order[j];
                j--;
            }
            order[j + 1] = x;
        }
        int i = 0;
        while (i < m) {
            int j = i;
            while (j + 1 < m && key[order[j + 1]] == key[order[i]]) j++;
            double mean = static_cast<double>(i + j) / 2;
            for (int q = i; q <= j; q++) out[order[q]] = m > 1 ? 1.0 - 2.0 * mean / static_cast<double>(m - 1) : 0.0;
            i = j + 1;
        }
    }

    // Table._win_rewards(winners, seats) added to the seats (only_live: skip terminated seats)
    void add_win(VecTable& v, uint16_t winners, int nwinners, const int* seats, int m, bool only_live) {
        int nlosers = 0;
        for (int i = 0; i < m; i++) nlosers += !((winners >> seats[i]) & 1);
        if (!nwinners || !nlosers) return;
        double lose = -static_cast<double>(nwinners) / static_cast<double>(nlosers);
        for (int i = 0; i < m; i++) {
            int s = seats[i];
            if (only_live && v.term[s]) continue;
            v.rewards[s] += (winners >> s) & 1 ? 1.0 : lose;
        }
    }

    void knock(VecTable& v, int s) {
        v.rewards[s] += loss(v, s);
        v.term[s] = true;
    }

    void round_end(VecTable& v, bool final) {
        Table& t = v.t;
        int parts[MAXS];
        int m = 0;
        for (int s = 0; s < n; s++) if (v.participant[s]) parts[m++] = s;
        if (o.reward == RW_SCORE) {
            for (int i = 0; i < m; i++) if (!v.term[parts[i]]) v.rewards[parts[i]] += score_delta(v, parts[i]);
        } else if (!o.match) {
            int winner = -1;
            for (int s = 0; s < n; s++) if (t.round_wins[s] != v.wins_at_deal[s]) winner = s;
            if (o.reward == RW_WIN) {
                if (winner >= 0) {
                    uint16_t team = 0;
                    int nteam = 0;
                    for (int i = 0; i < m; i++)
                        if (R.partnership ? parts[i] % 2 == winner % 2 : parts[i] == winner) {
                            team |= static_cast<uint16_t>(1u << parts[i]);
                            nteam++;
                        }
                    add_win(v, team, nteam, parts, m, true);
                }
            } else {
                double values[MAXS] = {0};
                for (int s = 0; s < n; s++) {
                    int val = 0;
                    if ((t.in_round[s] || t.knocked[s]) && v.participant[s]) {
                        const uint8_t* h = t.hand(s);
                        for (int q = 0, z = t.hsize(s); q < z; q++) val += R.points[h[q]];
                    }
                    values[s] = static_cast<double>(val);
                }
                double out[MAXS];
                ranked(parts, m, values, out);
                for (int i = 0; i < m; i++) if (!v.term[parts[i]]) v.rewards[parts[i]] += out[parts[i]];
            }
        }
        if (o.match && !final)
            for (int s = 0; s < n; s++)
                if (t.eliminated[s] && !v.term[s]) {
                    if (o.reward != RW_SCORE) v.rewards[s] += loss(v, s);
                    v.term[s] = true;
                }
    }

    void finish(VecTable& v, bool scored) {
        Table& t = v.t;
        if (!scored) round_end(v, true);
        if (o.match && t.phase == PH_MATCH_OVER && t.match_reason != MR_NONE) {
            int every[MAXS] = {0};
            int m = 0;
            for (int s = 0; s < n; s++) if (!v.term[s]) every[m++] = s;
            if (o.reward == RW_WIN) {
                int nw = 0;
                for (int s = 0; s < n; s++) nw += (t.match_winners >> s) & 1;
                add_win(v, t.match_winners, nw, every, m, false);
            } else if (o.reward == RW_RANK) {
                bool low = R.scoring == SC_LOW || R.scoring == SC_ELIMINATION;
                double key[MAXS] = {0};
                for (int s = 0; s < n; s++) key[s] = low ? static_cast<double>(t.scores[s]) : -static_cast<double>(t.scores[s]);
                double out[MAXS];
                ranked(every, m, key, out);
                for (int i = 0; i < m; i++) v.rewards[every[i]] += out[every[i]];
            }
        }
        for (int s = 0; s < n; s++) v.term[s] = true;
        v.done = true;
        v.seat = -1;
        v.decline = false;
    }

    void truncate(VecTable& v) {
        for (int s = 0; s < n; s++) if (!v.term[s]) v.trunc[s] = true;
        v.done = true;
        v.seat = -1;
        v.decline = false;
    }

    // ------------------------------------------------------------ decision points
    void start_round(VecTable& v) {
        v.nparticipants = 0;
        for (int s = 0; s < n; s++) {
            v.scores_at_deal[s] = v.t.scores[s];
            v.wins_at_deal[s] = v.t.round_wins[s];
            v.participant[s] = !v.t.eliminated[s];
            v.nparticipants += v.participant[s];
        }
        history_clear(v.t);
    }

    // Table._apply
    void apply(VecTable& v, int seat, const Act& a) {
        Table& t = v.t;
        bool before[MAXS];
        std::memcpy(before, t.in_round, sizeof(before));
        history_push(t, seat, a);
        if (logging) logs[static_cast<size_t>(&v - tables.data())].push_back((seat << 16) | index_of(a, seat, n));
        Engine{R, t}.apply(seat, a);
        v.cycles++;
        v.version++;
        if (t.phase < PH_ROUND_OVER && !o.match)
            for (int s = 0; s < n; s++)
                if (before[s] && !t.in_round[s] && !v.term[s]) knock(v, s);
    }

    // Table._out_of_turn_possible
    bool oot_possible(const Table& t) const {
        if (R.jump_in) return true;
        if (R.uno_penalty && t.any_exposed()) return true;
        for (int s = 0; s < n; s++) if (t.hsize(s) == 1 && !t.called[s]) return true;
        return false;
    }

    // arbiter.offer_order
    int offer_order(const Table& t, int* out) const {
        int m = 0;
        for (int k = 1, s = t.active; k < n; k++) {
            s = t.step_seat(s, t.direction);
            out[m++] = s;
        }
        return m;
    }

    // Table._auto_calls
    bool auto_calls(VecTable& v, Act* legal) {
        Table& t = v.t;
        if (!oot_possible(t)) return false;
        int order[MAXS];
        int m = offer_order(t, order);
        order[m++] = t.active;
        for (int kind : {K_CALL, K_CATCH})
            for (int q = 0; q < m; q++) {
                int s = order[q];
                if (v.term[s]) continue;
                int k = gen(t, s, legal);
                for (int j = 0; j < k; j++)
                    if (legal[j].kind == kind) {
                        Act a = legal[j];
                        apply(v, s, a);
                        return true;
                    }
            }
        return false;
    }

    bool all_learners_terminated(const VecTable& v) const {
        for (int s = 0; s < n; s++) if (v.bot[s] == BOT_LEARNER && !v.term[s]) return false;
        return true;
    }

    // Table._settle
    bool settle(VecTable& v, Act* legal) {
        Table& t = v.t;
        while (!v.done) {
            if (t.phase == PH_MATCH_OVER) {
                finish(v, false);
                return false;
            }
            if (t.phase == PH_ROUND_OVER) {
                if (!o.match) {
                    finish(v, false);
                    return false;
                }
                round_end(v, false);
                if (all_learners_terminated(v)) {
                    finish(v, true);
                    return false;
                }
                Engine{R, t}.next_round();
                if (logging) logs[static_cast<size_t>(&v - tables.data())].push_back(-1);
                v.version++;
                start_round(v);
                continue;
            }
            if (o.max_cycles > 0 && v.cycles >= o.max_cycles) {
                truncate(v);
                return false;
            }
            if (o.auto_oot && auto_calls(v, legal)) continue;
            return true;
        }
        return false;
    }

    // The table's generator for a bot's seat
    Rng& bot_rng(size_t i, int seat) { return rng_of(i, seat); }

    // Table._advance
    void advance(size_t i, Act* legal) {
        VecTable& v = tables[i];
        Table& t = v.t;
        while (settle(v, legal)) {
            if (!o.auto_oot && oot_possible(t)) {
                int order[MAXS];
                int m = offer_order(t, order);
                bool asked = false;
                for (int q = 0; q < m; q++) {
                    int s = order[q];
                    if (v.term[s] || v.declined[s] == v.version + 1) continue;
                    int k = gen(t, s, legal);
                    if (!k) continue;
                    if (stops_at(v.bot[s])) {
                        v.seat = static_cast<int8_t>(s);
                        v.decline = true;
                        return;
                    }
                    int j = bot_choose(static_cast<Bot>(v.bot[s]), t, s, false, legal, k, bot_rng(i, s));
                    if (j < 0) {
                        v.declined[s] = v.version + 1;
                        continue;
                    }
                    Act a = legal[j];
                    apply(v, s, a);
                    asked = true;
                    break;
                }
                if (asked) continue;
            }
            int active = t.active;
            if (stops_at(v.bot[active])) {
                v.seat = static_cast<int8_t>(active);
                v.decline = false;
                return;
            }
            int k = gen(t, active, legal);
            if (o.auto_oot) k = auto_legal(legal, k);
            int j = bot_choose(static_cast<Bot>(v.bot[active]), t, active, true, legal, k, bot_rng(i, active));
            if (j < 0) throw std::logic_error("an opponent chose no action on its turn");
            Act a = legal[j];
            apply(v, active, a);
        }
    }

    // The decision point's legal actions (Table.legal): the seat's list, filtered under "auto"
    // when it is the active seat's turn
    int decision_legal(const VecTable& v, Act* legal) const {
        int k = gen(v.t, v.seat, legal);
        if (o.auto_oot && !v.decline) k = auto_legal(legal, k);
        return k;
    }

    // ------------------------------------------------------------ rows (PythonBackend)
    struct Out {
        uint8_t* obs;
        uint8_t* mask;
        float* reward;
        int8_t* acted;
        bool* terminated;
        bool* truncated;
        int8_t* seat;
    };

    // PythonBackend._write
    void write(size_t i, const Out& b, Act* legal) {
        VecTable& v = tables[i];
        Table& t = v.t;
        int seat = o.opponents ? v.learner : (v.seat < 0 ? 0 : v.seat);
        b.seat[i] = static_cast<int8_t>(seat);
        int k = gen(t, seat, legal);
        encode(R, t, seat, legal, k, block, target_score, b.obs + i * OBS_SIZE);
        uint8_t* mask = b.mask + i * NUM_ACTIONS;
        std::memset(mask, 0, NUM_ACTIONS);
        v.ncache = -1;
        if (v.done || v.seat != seat) return;
        if (o.auto_oot && !v.decline) k = auto_legal(legal, k);
        for (int j = 0; j < k; j++) mask[index_of(legal[j], seat, n)] = 1;
        if (v.decline) mask[NOOP] = 1;
        if (k <= VecTable::CACHE) {
            std::memcpy(v.cache, legal, sizeof(Act) * static_cast<size_t>(k));
            v.ncache = static_cast<int16_t>(k);
        }
    }

    // The row's terminated and truncated flags (PythonBackend._flags); Table.stop when the
    // learner of an opponent table is out before the table's episode ends
    void flags(size_t i, const Out& b) {
        VecTable& v = tables[i];
        bool term, trunc;
        if (!o.opponents) {
            bool any = false;
            for (int s = 0; s < n; s++) any |= v.trunc[s];
            term = v.done && !any;
            trunc = v.done && any;
        } else {
            int l = v.learner;
            term = v.term[l];
            trunc = v.trunc[l] && !v.term[l];
            if (!v.done && (term || trunc)) {
                for (int s = 0; s < n; s++) v.term[s] = true;
                v.done = true;
                v.seat = -1;
                v.decline = false;
            }
        }
        b.terminated[i] = term;
        b.truncated[i] = trunc;
        v.row_term = term;
        v.row_trunc = trunc;
    }

    // Table.reset after the deal (or the load of a position): a fresh episode at table i, run to
    // its first decision point
    void begin(size_t i, Act* legal) {
        VecTable& v = tables[i];
        for (int s = 0; s < n; s++) {
            v.rewards[s] = 0.0;
            v.term[s] = v.trunc[s] = false;
            v.declined[s] = 0;
        }
        v.done = false;
        v.decline = false;
        v.seat = -1;
        v.cycles = 0;
        v.version = 0;
        v.ncache = -1;
        if (logging) logs[i].clear();
        start_round(v);
        advance(i, legal);
    }

    // The seats' roles at table i for an episode of seed `seed`: in opponent mode the learning
    // seat and the bots (in seat order), each bot drawing from seat_rng(seed, seat); else every
    // seat a learner
    void seat_bots(size_t i, const Seed& seed, int learner) {
        VecTable& v = tables[i];
        v.learner = static_cast<int8_t>(o.opponents ? learner : 0);
        for (int s = 0, q = 0; s < n; s++) {
            bool bot = o.opponents && s != learner;
            v.bot[s] = bot ? o.specs[q++] : static_cast<int8_t>(BOT_LEARNER);
            if (bot) seed_rng(rng_of(i, s), derive_seed(seed, "seat", s, true));
        }
    }

    // PythonBackend._start: episode `v.episode` of the row's base seed, dealt, or from `from` (the
    // state of a position, loaded by Pool.set_state) in place of the deal; the learner (seat="random")
    // and the bots' generators come from the episode's seed either way
    void start(size_t i, const Out& b, Act* legal, const Table* from = nullptr) {
        start_table(i, legal, from);
        if (o.external) {
            tables[i].fresh = true;  // its row is written by finish_rows, once the opponents have decided
            return;
        }
        start_row(i, b, legal);
    }

    // start's table: the learner, the bots, the deal (or the position) and the first decision point
    void start_table(size_t i, Act* legal, const Table* from) {
        VecTable& v = tables[i];
        Seed seed = v.episode == 0 ? v.base : Seed::of(derive_seed(v.base, "episode", v.episode, true));
        int learner = o.learner_seat;
        if (o.opponents && o.random_seat) {
            Rng r;
            seed_rng(r, derive_seed(seed, "learner", 0, false));
            learner = static_cast<int>(r.randbelow(static_cast<uint32_t>(n)));
        }
        seat_bots(i, seed, learner);
        if (from) {
            v.t = *from;  // a copy into the row's own storage: no allocation
        } else {
            Engine::init(v.t, n, seed.words, seed.nwords);
            Engine{R, v.t}.start_match();
        }
        begin(i, legal);
    }

    // start's row: no reward, no seat acted, the flags, the observation and the mask
    void start_row(size_t i, const Out& b, Act* legal) {
        float* rw = b.reward + i * static_cast<size_t>(n);
        for (int s = 0; s < n; s++) rw[s] = 0.0f;
        b.acted[i] = -1;
        flags(i, b);  // set when the episode ended before its first decision (max_cycles, a finished position)
        write(i, b, legal);
    }

    void reset(const std::vector<Seed>& seeds, const Out& b) {
        each(tables.size(), [&](size_t i, Act* legal) {
            tables[i].base = seeds[i];
            tables[i].episode = 0;
            start(i, b, legal);
        });
    }

    // PythonBackend.reset(seeds, positions): every table's first episode from states[i] (what the
    // referee's position holds: phase, hands, piles, RNG), run on to its first decision point as a
    // dealt one is (the opponents' moves, a finished round settled); its later episodes dealt from
    // derive_seed(seeds[i], "episode", k) as after a seeded reset
    void load(const std::vector<Seed>& seeds, const std::vector<Table>& states, const Out& b) {
        each(tables.size(), [&](size_t i, Act* legal) {
            tables[i].base = seeds[i];
            tables[i].episode = 0;
            start(i, b, legal, &states[i]);
        });
    }

    // Checks every row's action first: the first bad row (nothing changed), its reason in *why
    // (1: no action index at all, 2: not in the mask, 3: NOOP on a turn, 4: the episode is over), else -1.
    int64_t check(const int32_t* actions, int* why) {
        Act legal[MAXA];
        for (size_t i = 0; i < tables.size(); i++) {
            VecTable& v = tables[i];
            if (v.row_term || v.row_trunc) continue;
            int w = check_one(v, actions[i], &picks[i], legal);
            if (w) {
                *why = w;
                return static_cast<int64_t>(i);
            }
        }
        return -1;
    }

    // Table.step's checks of one decision: 0 and *pick (K_DEAL for NOOP, a decline), else the
    // reason (1: no action index at all, 2: not in the mask, 3: NOOP on a turn, 4: the episode is over)
    int check_one(const VecTable& v, int want, Act* pick, Act* legal) const {
        if (v.done) return 4;
        if (want < 0 || want >= NUM_ACTIONS) return 1;
        if (want == NOOP) {
            if (!v.decline) return 3;
            *pick = mk(K_DEAL);
            return 0;
        }
        const Act* acts = v.cache;
        int k = v.ncache;
        if (k < 0) {
            k = decision_legal(v, legal);
            acts = legal;
        }
        for (int j = 0; j < k; j++)
            if (index_of(acts[j], v.seat, n) == want) {
                *pick = acts[j];
                return 0;
            }
        return 2;
    }

    // ------------------------------------------------------------ one table at a time (EnvCore)
    // Table.step: the decision of v.seat, then on to the next decision point (no auto-reset);
    // 0, or minus check_one's reason and nothing changed
    int step_one(size_t i, int want, Act* legal) {
        VecTable& v = tables[i];
        Act pick;
        int why = check_one(v, want, &pick, legal);
        if (why) return -why;
        if (pick.kind == K_DEAL) {
            v.declined[v.seat] = v.version + 1;
        } else {
            apply(v, v.seat, pick);
        }
        advance(i, legal);
        return 0;
    }

    // The decision point's mask (Table.mask: all zero once done), keeping its legal actions for check_one
    void decision_mask(size_t i, uint8_t* mask, Act* legal) {
        VecTable& v = tables[i];
        std::memset(mask, 0, NUM_ACTIONS);
        v.ncache = -1;
        if (v.done) return;
        int k = decision_legal(v, legal);
        for (int j = 0; j < k; j++) mask[index_of(legal[j], v.seat, n)] = 1;
        if (v.decline) mask[NOOP] = 1;
        if (k <= VecTable::CACHE) {
            std::memcpy(v.cache, legal, sizeof(Act) * static_cast<size_t>(k));
            v.ncache = static_cast<int16_t>(k);
        }
    }

    // The seat's observation (Table.observation)
    void observe(size_t i, int seat, uint8_t* out, Act* legal) const {
        const Table& t = tables[i].t;
        int k = gen(t, seat, legal);
        encode(R, t, seat, legal, k, block, target_score, out);
    }

    // Table.parallel_legal as a mask: the active seat's legal actions, every other live seat's
    // (none under "auto") with NOOP; nothing for a terminated seat or once done
    void parallel_mask(size_t i, int seat, uint8_t* mask, Act* legal) const {
        const VecTable& v = tables[i];
        std::memset(mask, 0, NUM_ACTIONS);
        if (v.done || v.term[seat]) return;
        const Table& t = v.t;
        bool turn = seat == t.active;
        if (!turn) mask[NOOP] = 1;
        if (!turn && o.auto_oot) return;
        int k = gen(t, seat, legal);
        if (turn && o.auto_oot) k = auto_legal(legal, k);
        for (int j = 0; j < k; j++) mask[index_of(legal[j], seat, n)] = 1;
    }

    // Table.step_parallel: every seat that may act submits an index (-2: none submitted); the first
    // out-of-turn action in the arbiter's order, else the active seat's, is applied, then the table
    // settles. The seat applied, or -1 with *bad the first seat refused and *why its reason
    // (1: no index, 2: not legal, 3: NOOP on a turn, 4: the episode is over, 5: nothing submitted)
    int step_parallel(size_t i, const int32_t* idx, int* bad, int* why, Act* legal) {
        VecTable& v = tables[i];
        *bad = -1;
        if (v.done) {
            *why = 4;
            return -1;
        }
        Table& t = v.t;
        Act chosen[MAXS];
        bool has[MAXS] = {false};
        for (int s = 0; s < n; s++) {
            if (v.term[s]) continue;
            bool turn = s == t.active;
            int k = 0;
            if (turn || !o.auto_oot) {
                k = gen(t, s, legal);
                if (turn && o.auto_oot) k = auto_legal(legal, k);
            }
            bool may_decline = !turn;
            if (!k && !may_decline) continue;
            int want = idx[s];
            int w = 0;
            if (want == -2) {
                w = 5;
            } else if (want == NOOP) {
                if (!may_decline) w = 3;
            } else if (want < 0 || want >= NUM_ACTIONS) {
                w = 1;
            } else {
                w = 2;
                for (int j = 0; j < k; j++)
                    if (index_of(legal[j], s, n) == want) {
                        chosen[s] = legal[j];
                        has[s] = true;
                        w = 0;
                        break;
                    }
            }
            if (w) {
                *bad = s;
                *why = w;
                return -1;
            }
        }
        int order[MAXS];
        int m = offer_order(t, order);
        order[m++] = t.active;
        int seat = -1;
        for (int q = 0; q < m && seat < 0; q++) if (has[order[q]]) seat = order[q];
        if (seat < 0) throw std::logic_error("no seat submitted an action");
        apply(v, seat, chosen[seat]);
        v.ncache = -1;
        settle(v, legal);
        return seat;
    }

    // Software prefetch (a speed hint, no effect on results): the scalar fields of the table two
    // rows ahead, then (their values now at hand) the top card, the hands and the history of the
    // table one row ahead, whose first touch is otherwise a cache miss with 1,024 tables
    void prefetch(size_t i) const {
        if (i + 2 < tables.size()) {
            const VecTable& w = tables[i + 2];
            __builtin_prefetch(&w.t.ndraw);
            __builtin_prefetch(&w.t.in_round[0]);
            __builtin_prefetch(&w.t.scores[0]);
            __builtin_prefetch(&w.seat);
            __builtin_prefetch(&w.rewards[0]);
            __builtin_prefetch(&w.t.slot[0]);
            __builtin_prefetch(&w.ncache);
        }
        if (i + 1 < tables.size()) {
            const Table& t = tables[i + 1].t;
            if (t.ndiscard > 0) __builtin_prefetch(&t.discard[t.ndiscard - 1]);
            for (int s = 0; s < t.n; s++) __builtin_prefetch(t.hand(s));
            __builtin_prefetch(&t.hist[0][0]);
            __builtin_prefetch(&t.hist[5][0]);
        }
    }

    // PythonBackend.step, after check() passed
    // (with external opponents, the rows are left to finish_rows, after the opponents' decisions)
    void step(const Out& b) {
        each(tables.size(), [&](size_t i, Act* legal) {
            prefetch(i);
            VecTable& v = tables[i];
            if (v.row_term || v.row_trunc) {
                v.episode++;
                start(i, b, legal);
                return;
            }
            int actor = v.seat;
            if (picks[i].kind == K_DEAL) {  // NOOP: decline
                v.declined[actor] = v.version + 1;
            } else {
                apply(v, actor, picks[i]);
            }
            advance(i, legal);
            if (o.external) {
                v.fresh = false;
                v.actor = static_cast<int8_t>(actor);
                return;
            }
            finish_row(i, b, actor, legal);
        });
    }

    // The row of a stepped table: the rewards since its last row, the seat that acted, the flags,
    // the observation and the mask
    void finish_row(size_t i, const Out& b, int actor, Act* legal) {
        VecTable& v = tables[i];
        float* rw = b.reward + i * static_cast<size_t>(n);
        for (int s = 0; s < n; s++) {
            rw[s] = static_cast<float>(v.rewards[s]);
            v.rewards[s] = 0.0;
        }
        b.acted[i] = static_cast<int8_t>(actor);
        flags(i, b);
        write(i, b, legal);
    }

    // ------------------------------------------------------------ external opponents
    // A table waits on an external policy: its decision point is at such a seat, and its learner
    // is still in the episode (once it is out, finish_rows ends the table, as flags does)
    bool waiting(const VecTable& v) const {
        if (v.done || v.seat < 0 || v.bot[v.seat] < BOT_EXTERNAL) return false;
        return !(v.term[v.learner] || v.trunc[v.learner]);
    }

    // The tables waiting on an external policy, in table order: their rows, seats and policies
    // (j of BOT_EXTERNAL + j) into rows/seats/which, the deciding seat's observation and mask
    // into obs and mask (k rows each); returns k
    size_t pending(int32_t* rows, int8_t* seats, int8_t* which, uint8_t* obs, uint8_t* mask) {
        size_t k = 0;
        for (size_t i = 0; i < tables.size(); i++) {
            const VecTable& v = tables[i];
            if (!waiting(v)) continue;
            rows[k] = static_cast<int32_t>(i);
            seats[k] = v.seat;
            which[k] = static_cast<int8_t>(v.bot[v.seat] - BOT_EXTERNAL);
            k++;
        }
        each(k, [&](size_t j, Act* legal) {
            size_t i = static_cast<size_t>(rows[j]);
            observe(i, tables[i].seat, obs + j * OBS_SIZE, legal);
            decision_mask(i, mask + j * NUM_ACTIONS, legal);
        });
        return k;
    }

    // The external policies' actions at tables rows[0..k) (each waiting): every one checked first
    // (check_one), the first bad one's position returned with *why and nothing changed, else each
    // applied and its table run on to its next decision point; -1
    int64_t act(const int32_t* rows, const int32_t* actions, size_t k, int* why) {
        std::vector<Act> legal(MAXA);
        for (size_t j = 0; j < k; j++) {
            int32_t r = rows[j];
            if (r < 0 || static_cast<size_t>(r) >= tables.size() || !waiting(tables[static_cast<size_t>(r)]))
                throw std::invalid_argument("act: a row that waits on no external policy");
            int w = check_one(tables[static_cast<size_t>(r)], actions[j], &picks[static_cast<size_t>(r)],
                              legal.data());
            if (w) {
                *why = w;
                return static_cast<int64_t>(j);
            }
        }
        each(k, [&](size_t j, Act* scratch) {
            size_t i = static_cast<size_t>(rows[j]);
            VecTable& v = tables[i];
            if (picks[i].kind == K_DEAL) {
                v.declined[v.seat] = v.version + 1;
            } else {
                apply(v, v.seat, picks[i]);
            }
            advance(i, scratch);
        });
        return -1;
    }

    // Every row after the external policies are done: a reset row as start writes it, a stepped
    // one as step does (the rewards gathered over the opponents' moves included)
    void finish_rows(const Out& b) {
        each(tables.size(), [&](size_t i, Act* legal) {
            VecTable& v = tables[i];
            if (v.fresh) {
                start_row(i, b, legal);
            } else {
                finish_row(i, b, v.actor, legal);
            }
        });
    }
};

}  // namespace uno
