// Built-in policies for self-play inside the core. Each chooses the active seat's action from its
// legal list with the table's policy RNG (random.Random's randrange, so a port of a Python bot
// draws exactly what the bot draws from a random.Random of the same seed).
#pragma once
#include "core.hpp"

namespace uno {

enum Policy { POL_RANDOM, POL_RANDOM_STUCK, POL_RULE_V1 };

// unotable.bots.rule_v1.most_common_color
inline int most_common_color(const Table& t, int seat, Rng& rng) {
    int counts[4] = {0, 0, 0, 0};
    const uint8_t* h = t.hand(seat);
    for (int i = 0, m = t.hsize(seat); i < m; i++) if (id_color(h[i]) >= 0) counts[id_color(h[i])]++;
    int best = 0;
    for (int c = 0; c < 4; c++) if (counts[c] > best) best = counts[c];
    if (best == 0) return static_cast<int>(rng.randbelow(4));
    for (int c = 0; c < 4; c++) if (counts[c] == best) return c;
    return 0;
}

// unotable.bots.rule_v1.RuleV1Bot.choose for the active seat (is_turn holds), with best_uno
inline int rule_v1(const Table& t, int seat, const Act* legal, int k, Rng& rng) {
    for (int i = 0; i < k; i++) if (legal[i].kind == K_CALL) return i;
    // best_uno: drop an unflagged play whose flagged twin is legal
    int keep[MAXA];
    int m = 0;
    for (int i = 0; i < k; i++) {
        const Act& a = legal[i];
        bool drop = false;
        if (a.kind == K_PLAY && !a.uno)
            for (int j = 0; j < k; j++) {
                const Act& b = legal[j];
                if (b.kind == K_PLAY && b.uno && b.card == a.card && b.color == a.color && b.target == a.target) {
                    drop = true;
                    break;
                }
            }
        if (!drop) keep[m++] = i;
    }
    int plays[MAXA];
    int np = 0;
    for (int i = 0; i < m; i++) if (legal[keep[i]].kind == K_PLAY) plays[np++] = keep[i];
    if (np) {  // RuleV1Bot._play
        int wd4[MAXA];
        int nw = 0;
        for (int i = 0; i < np; i++) if (legal[plays[i]].card == C_WD4) wd4[nw++] = plays[i];
        if (nw) {
            int color = most_common_color(t, seat, rng);
            for (int i = 0; i < nw; i++)
                if (legal[wd4[i]].color == color || legal[wd4[i]].color < 0) return wd4[i];
            return wd4[0];
        }
        int plain[MAXA];
        int nplain = 0;
        for (int i = 0; i < np; i++) if (!id_wild(legal[plays[i]].card)) plain[nplain++] = plays[i];
        if (nplain) return plain[rng.randbelow(static_cast<uint32_t>(nplain))];
        return plays[rng.randbelow(static_cast<uint32_t>(np))];
    }
    int colors[MAXA];
    int nc = 0;
    for (int i = 0; i < m; i++) if (legal[keep[i]].kind == K_CHOOSE) colors[nc++] = keep[i];
    if (nc) {
        int color = most_common_color(t, seat, rng);
        int named[MAXA];
        int nn = 0;
        for (int i = 0; i < nc; i++) if (legal[colors[i]].color == color) named[nn++] = colors[i];
        return named[rng.randbelow(static_cast<uint32_t>(nn))];
    }
    const int8_t words[3] = {K_DRAW, K_ACCEPT, K_PASS};
    for (int w = 0; w < 3; w++)
        for (int i = 0; i < m; i++) if (legal[keep[i]].kind == words[w]) return keep[i];
    return keep[0];
}

// random-stuck: a random play while there is one, else a random turn action (draw, accept,
// pass, a colour), never a separate call or catch
inline int random_stuck(const Act* legal, int k, Rng& rng) {
    int idx[MAXA];
    int m = 0;
    for (int i = 0; i < k; i++) if (legal[i].kind == K_PLAY) idx[m++] = i;
    if (!m)
        for (int i = 0; i < k; i++) if (legal[i].kind != K_CALL && legal[i].kind != K_CATCH) idx[m++] = i;
    if (!m) return 0;
    return idx[rng.randbelow(static_cast<uint32_t>(m))];
}

// unotable.bots.random_bot.RandomBot.choose for the active seat: uniform over the legal actions
inline int choose(Policy p, const Table& t, int seat, const Act* legal, int k, Rng& rng) {
    switch (p) {
        case POL_RULE_V1: return rule_v1(t, seat, legal, k, rng);
        case POL_RANDOM_STUCK: return random_stuck(legal, k, rng);
        default: return static_cast<int>(rng.randbelow(static_cast<uint32_t>(k)));
    }
}

}  // namespace uno
