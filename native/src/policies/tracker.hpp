// The public record a policy keeps of a round: unotable.bots.mixbot2.Bounds, event for event.
//
// Upper bounds, per seat and card id, on the copies a seat may hold, from public information
// only: which seat played which card (and named which color), who drew how many and why (its own
// draw action, resolve's DrawReason.DRAW, or any other draw), the first card and the colors
// chosen. Every event it reads is public, so one record per table serves every seat's policy
// (each Python bot keeps its own copy of the same numbers). The driver calls deal() after each
// deal, played() and chose() before a play or a color choice is resolved, and the engine's
// on_drew hook (Engine::on_drew, see attach()) reports the draws as resolve emits them.
#pragma once
#include <cstdint>
#include <cstring>

#include "../core.hpp"

namespace uno {

// card c is in unotable.bots.determinize.playable_set(top, color): every wild, and every colored
// card of the color or of the top card's rank (a colored top only)
inline bool in_playable_set(int c, int top, int color) {
    if (id_wild(c)) return true;
    int trank = top >= 0 && id_color(top) >= 0 ? id_rank(top) : -1;
    return id_color(c) == color || id_rank(c) == trank;
}

struct PublicRecord {
    static constexpr int NO_BOUND = 64;  // Bounds' "no bound yet": the cap by the unseen copies rules
    int seats = 0;                       // 0: no round seen (Bounds.bound empty)
    int top = -1, color = -1;
    uint8_t bound[MAXS][NIDS];

    // RoundStarted (Bounds.reset), then the FirstCard events: the first card that stayed is the
    // discard's top after the deal (its color a wild's -1, as FirstCard sets it). The deal's own
    // draws (a first Draw Two is a pending penalty) cannot raise a bound above NO_BOUND.
    void deal(const Table& t) {
        seats = t.n;
        std::memset(bound, NO_BOUND, sizeof(bound));
        top = t.ndiscard > 0 ? t.top() : -1;
        color = top >= 0 ? id_color(top) : -1;
    }

    // CardPlayed(seat, card, color)
    void played(int seat, int card, int named) {
        if (!seats) return;
        uint8_t& b = bound[seat][card];
        if (b > 0) b--;
        top = card;
        color = id_color(card) >= 0 ? id_color(card) : named;
    }

    // ColorChosen(color)
    void chose(int c) {
        if (seats) color = c;
    }

    // Drew(seat, count, reason): own is reason == DRAW
    void drew(int seat, int count, bool own) {
        if (!seats || seat < 0 || seat >= seats || count <= 0) return;
        uint8_t* row = bound[seat];
        if (own && top >= 0) {
            for (int c = 0; c < NIDS; c++) {
                int v = row[c] + count;
                row[c] = in_playable_set(c, top, color) ? 0 : static_cast<uint8_t>(v < NO_BOUND ? v : NO_BOUND);
            }
        } else {
            for (int c = 0; c < NIDS; c++) {
                int v = row[c] + count;
                row[c] = static_cast<uint8_t>(v < NO_BOUND ? v : NO_BOUND);
            }
        }
    }

    static void on_drew(void* self, int seat, int count, bool own) {
        static_cast<PublicRecord*>(self)->drew(seat, count, own);
    }

    // The engine e reports its draws to this record
    void attach(Engine& e) {
        e.on_drew = &PublicRecord::on_drew;
        e.on_drew_ctx = this;
    }

    // Bounds.capped: seat's bounds capped by unseen (copies per card id its reader cannot see)
    void capped(int seat, const int* unseen, int* out) const {
        if (!seats) {
            for (int c = 0; c < NIDS; c++) out[c] = unseen[c];
            return;
        }
        const uint8_t* row = bound[seat];
        for (int c = 0; c < NIDS; c++) out[c] = row[c] < unseen[c] ? row[c] : unseen[c];
    }
};

}  // namespace uno
