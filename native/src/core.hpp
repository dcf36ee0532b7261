// The native core's rules: the same state, move generator and resolver as the Python engine
// (unotable/state.py, movegen.py, resolve.py, deal.py, scoring.py), step for step and draw for draw.
//
// Each function names the rule IDs of docs/rules.md it implements and the Python function it
// mirrors. The state is one fixed-size POD Table (10 seats, 168 cards); nothing allocates after
// construction. The functions trust their input, as resolve.py does: checking is check_action's.
#pragma once
#include <cstdint>
#include <cstring>

#include "rng.hpp"

namespace uno {

constexpr int MAXS = 10;    // seats
constexpr int MAXC = 168;   // cards in the largest deck
constexpr int NIDS = 74;    // card ids (unotable/cards.py)
constexpr int MAXA = 1024;  // legal actions of one seat, a bound far above any reachable count

// ---------------------------------------------------------------- cards (unotable/cards.py)
enum : int {
    R_SKIP = 10, R_REVERSE = 11, R_DRAW_TWO = 12, R_DRAW_FOUR = 13, R_SKIP_EVERYONE = 14,
    R_DISCARD_ALL = 15, R_WILD = 16,
};
enum : int {
    C_WILD = 64, C_WD4 = 65, C_WS = 66, C_WX = 67, C_WC = 68, C_WB = 69, C_WRD4 = 70, C_W6 = 71,
    C_W10 = 72, C_WCR = 73,
};
inline int id_color(int c) { return c < 64 ? c / 16 : -1; }
inline int id_rank(int c) { return c < 64 ? c % 16 : c - 64 + 16; }
inline bool id_wild(int c) { return c >= 64; }
inline bool id_number(int c) { return id_rank(c) <= 9; }
inline int id_draw_value(int c) {
    switch (id_rank(c)) {
        case 12: return 2;
        case 13: case 17: case 22: return 4;
        case 23: return 6;
        case 24: return 10;
        default: return 0;
    }
}

// ---------------------------------------------------------------- the ruleset (unotable/rules.py)
enum Stacking : int8_t { ST_NONE, ST_SAME_KIND, ST_PLUS4_ON_PLUS2, ST_BY_VALUE };
enum Scoring : int8_t { SC_STANDARD, SC_LOW, SC_ELIMINATION, SC_NONE };
enum CustomEffect : int8_t { CE_PLAIN, CE_OTHERS_DRAW_2, CE_OTHERS_DISCARD_WILDS, CE_EXTRA_TURN };
enum Step : int8_t { STEP_OTHER, STEP_NEXT, STEP_SKIP, STEP_REVERSE };

// The Ruleset compiled once (unotable.state.Flags); every field is set from Ruleset.to_dict().
struct Rules {
    bool nm, challenge, strict_wd4;
    bool dealer_seat0, first_card_redraw, first_card_swap_effect;
    bool may_draw, draw_until_playable, force_play;
    int uno_penalty, false_catch_penalty, false_uno_penalty;
    bool swap_last_swap, shuffle_last_shuffle;  // swap_hands_last_card == swap, shuffle_... == shuffle
    Scoring scoring;
    int target_score;
    bool elimination_one_round;
    bool partnership;
    Stacking stacking;
    bool stack_sum, jump_in, seven_zero, bounce_draw_two, defend_wd4;
    int mercy_limit;
    CustomEffect custom_effect;
    int deck_n;
    uint8_t deck[MAXC];  // Ruleset.deck_ids(): ascending, the unshuffled order
    int points[NIDS];    // DECK-8 / DECK-9
    bool simple[NIDS];   // Flags.simple: the play leaves len(hand) - 1 cards and needs no target
    Step step[NIDS];     // Flags.step

    // unotable.state.Flags.__init__
    void compile() {
        for (int c = 0; c < NIDS; c++) {
            if (id_color(c) < 0) simple[c] = !(c == C_WS || c == C_WX || c == C_WCR);
            else if (id_rank(c) == R_DISCARD_ALL) simple[c] = false;
            else simple[c] = !(seven_zero && id_number(c) && (id_rank(c) == 0 || id_rank(c) == 7));
            int r = id_rank(c);
            if (id_color(c) < 0) step[c] = r == R_WILD ? STEP_NEXT : STEP_OTHER;
            else if (id_number(c)) step[c] = seven_zero ? STEP_OTHER : STEP_NEXT;
            else step[c] = r == R_SKIP ? STEP_SKIP : r == R_REVERSE ? STEP_REVERSE : STEP_OTHER;
        }
    }
};

// ---------------------------------------------------------------- actions (unotable/actions.py)
enum Kind : int8_t { K_PLAY, K_DRAW, K_PASS, K_ACCEPT, K_CHALLENGE, K_CHOOSE, K_CALL, K_CATCH, K_DEAL };

struct Act {
    int8_t kind;
    int8_t card;    // K_PLAY
    int8_t color;   // K_PLAY (a wild's named color), K_CHOOSE; -1: none
    int8_t target;  // K_PLAY, K_CHOOSE, K_CATCH; -1: none
    int8_t uno;     // K_PLAY
    bool operator==(const Act& o) const {
        return kind == o.kind && card == o.card && color == o.color && target == o.target && uno == o.uno;
    }
};
inline Act mk(int kind, int card = -1, int color = -1, int target = -1, bool uno = false) {
    return Act{static_cast<int8_t>(kind), static_cast<int8_t>(card), static_cast<int8_t>(color),
               static_cast<int8_t>(target), static_cast<int8_t>(uno)};
}

// ---------------------------------------------------------------- the state (unotable/state.py)
enum Phase : int8_t { PH_PLAY, PH_PLAY_DRAWN, PH_CHOOSE_COLOR, PH_RESPOND, PH_ROUND_OVER, PH_MATCH_OVER };
enum ColorReason : int8_t { CR_FIRST_CARD, CR_ROULETTE, CR_ROULETTE_LAST };
// MatchEndReason, in its declaration order; -1: none
enum MatchReason : int8_t { MR_NONE = -1, MR_TARGET, MR_LOWEST, MR_FINAL_ROUND, MR_LAST_SEAT, MR_SINGLE };

// The fields that every decision reads come first (a few cache lines), the card arrays next and
// the RNG's state, read only to shuffle, last.
struct Table {
    int8_t n;
    // Hands live in slots; slot[seat] names the slot of a seat, so swaps and passes move no cards.
    uint8_t slot[MAXS];
    uint8_t hlen[MAXS];
    int16_t ndraw, ndiscard, nset, nwd4, ndeal;  // ndeal -1: no fixed order
    int8_t color, active, dealer, direction, top_player, drawn, wd4_player, pending_card;
    Phase phase;
    ColorReason color_reason;
    MatchReason match_reason;
    bool wd4_illegal, final_round;
    int32_t pending, auto_passes, round_no;
    bool in_round[MAXS], eliminated[MAXS], knocked[MAXS], exposed[MAXS], called[MAXS], caught[MAXS],
        fresh[MAXS];
    int32_t scores[MAXS], round_wins[MAXS];
    uint8_t score_obs[MAXS];  // the observation's score bytes, min(255, score * 255 // target), kept with scores
    uint16_t match_winners;  // a bit per seat
    uint8_t seed_len;
    uint32_t seed_words[8];  // the seed, least significant word first (the referee's secret)
    uint8_t hist_n[MAXS];
    uint8_t hist_t[MAXS];  // a bit per history entry (bit i: entry i) whose target byte is set
    // The public history of the round for observations (unotable.env.spaces.History): per seat its
    // last 4 actions, newest first, 6 bytes each as the observation holds them (kind, card + 1,
    // named colour + 1, target + 1 (0: none; made relative to the observer by encode), top + 1,
    // colour + 1), unused entries zero.
    uint8_t hist[MAXS][24];
    // The discard pile's count of each card id (the observation's discard counts), kept with it.
    uint8_t dcount[NIDS];
    uint8_t hcards[MAXS][MAXC];
    uint8_t discard[MAXC];
    uint8_t draw[MAXC];  // bottom first: the top card is draw[ndraw - 1]
    uint8_t set_aside[MAXC];
    uint8_t wd4_hand[MAXC];
    uint8_t deal_order[MAXC];  // top first, as State.deal_order
    Rng rng;

    uint8_t* hand(int s) { return hcards[slot[s]]; }
    const uint8_t* hand(int s) const { return hcards[slot[s]]; }
    int hsize(int s) const { return hlen[slot[s]]; }
    int top() const { return discard[ndiscard - 1]; }
    int seats_in_round() const {
        int k = 0;
        for (int s = 0; s < n; s++) k += in_round[s];
        return k;
    }
    bool any_exposed() const {
        for (int s = 0; s < n; s++) if (exposed[s]) return true;
        return false;
    }
    bool any_caught() const {
        for (int s = 0; s < n; s++) if (caught[s]) return true;
        return false;
    }
    bool holds(int s, int c) const {
        const uint8_t* h = hand(s);
        for (int k = hsize(s) - 1; k >= 0; k--) if (h[k] == c) return true;
        return false;
    }
    void discard_push(int c) {
        discard[ndiscard++] = static_cast<uint8_t>(c);
        dcount[c]++;
    }
    void hand_push(int s, int c) { hcards[slot[s]][hlen[slot[s]]++] = static_cast<uint8_t>(c); }
    // list.remove(c): the first copy
    void hand_remove(int s, int c) {
        uint8_t* h = hand(s);
        int m = hsize(s);
        for (int k = 0; k < m; k++) {
            if (h[k] == c) {
                for (int j = k + 1; j < m; j++) h[j - 1] = h[j];  // (a hand is short: no memmove call)
                hlen[slot[s]]--;
                return;
            }
        }
    }
    // State.next_seat: the first seat in the round stepping from seat in the current direction
    int next_seat(int seat) const {
        int s = step_seat(seat, direction);
        while (!in_round[s]) s = step_seat(s, direction);
        return s;
    }
    // (seat + d) % n for d = +1 or -1, without a division
    int step_seat(int seat, int d) const {
        int s = seat + d;
        return s < 0 ? s + n : (s >= n ? s - n : s);
    }
};

// Everything below reads the ruleset through R and changes only the table.
struct Engine {
    const Rules& R;
    Table& t;
    // An observer of resolve's Drew events (seat, count > 0, whether it was the seat's own draw
    // action), for the public record the policies keep (policies/tracker.hpp); none by default.
    void (*on_drew)(void* ctx, int seat, int count, bool own) = nullptr;
    void* on_drew_ctx = nullptr;

    // ------------------------------------------------------------ setup (unotable/state.py)

    // State.__init__ (with the seed's words) then nothing dealt
    static void init(Table& t, int n, const uint32_t* seed, int seed_len) {
        std::memset(&t, 0, sizeof(Table));
        t.n = static_cast<int8_t>(n);
        t.seed_len = static_cast<uint8_t>(seed_len);
        for (int k = 0; k < seed_len; k++) t.seed_words[k] = seed[k];
        t.rng.seed_words(seed, static_cast<size_t>(seed_len));
        for (int s = 0; s < MAXS; s++) t.slot[s] = static_cast<uint8_t>(s);
        t.color = -1;
        t.active = 0;
        t.color_reason = CR_FIRST_CARD;
        t.dealer = -1;
        t.match_reason = MR_NONE;
        t.ndeal = -1;
        clear_round(t);
    }

    // State.clear_round
    static void clear_round(Table& t) {
        t.phase = PH_PLAY;
        for (int s = 0; s < MAXS; s++) {
            t.in_round[s] = s < t.n && !t.eliminated[s];
            t.knocked[s] = t.exposed[s] = t.called[s] = t.caught[s] = t.fresh[s] = false;
        }
        t.nset = 0;
        t.direction = 1;
        t.pending = 0;
        t.pending_card = -1;
        t.top_player = -1;
        t.drawn = -1;
        t.wd4_player = -1;
        t.wd4_illegal = false;
        t.nwd4 = 0;
        t.auto_passes = 0;
    }

    // ------------------------------------------------------------ playability (movegen.py)

    // CL-DRAW-7: a card can be drawn (the pile, or a reshuffle of the discard and set-aside cards)
    bool can_draw() const { return t.ndraw > 0 || t.ndiscard > 1 || t.nset > 0; }

    // CL-ACT-6: a WD4 is legal when the hand holds no other card of the current color
    bool wd4_is_legal(int s, int color) const {
        const uint8_t* h = t.hand(s);
        for (int k = 0, m = t.hsize(s); k < m; k++) if (id_color(h[k]) == color) return false;
        return true;
    }

    // CL-TURN-2: may card, held by seat s, be played on the top card (outside a response)?
    bool playable(int card, int s) const {
        int col = id_color(card);
        if (col < 0) {
            if (card == C_WD4 && R.strict_wd4) return wd4_is_legal(s, t.color);
            return true;
        }
        if (col == t.color) return true;
        int top = t.top();
        if (id_color(top) < 0) return false;
        return id_rank(card) == id_rank(top);
    }

    bool has_playable(int s) const {
        const uint8_t* h = t.hand(s);
        for (int k = 0, m = t.hsize(s); k < m; k++) if (playable(h[k], s)) return true;
        return false;
    }

    // CL-ACT-8: does the ruleset allow any response to a penalty from draw card `card`?
    bool response_allowed(int card) const {
        if (card == C_WD4 && R.challenge) return true;
        if (R.stacking != ST_NONE) return true;
        if (!R.nm) {
            if (R.bounce_draw_two && id_rank(card) == R_DRAW_TWO) return true;
            if (R.defend_wd4 && card == C_WD4) return true;
        }
        return false;
    }

    // HOUSE-1, HOUSE-2, NM-6: may `card` be stacked on the penalty of `pending_card`?
    bool can_stack(int pending_card, int card) const {
        int value = id_draw_value(card);
        if (!value || R.stacking == ST_NONE) return false;
        if (R.stacking == ST_BY_VALUE) return value >= id_draw_value(pending_card);
        if (id_rank(card) == id_rank(pending_card)) return true;
        return R.stacking == ST_PLUS4_ON_PLUS2 && id_rank(pending_card) == R_DRAW_TWO && value == 4;
    }

    // HOUSE-1, HOUSE-13, HOUSE-14, NM-6 (movegen.response_cards): the distinct answering cards
    int response_cards(int s, int* out) const {
        int pc = t.pending_card;
        bool bounce = R.bounce_draw_two && !R.nm && id_rank(pc) == R_DRAW_TWO;
        bool defend = R.defend_wd4 && !R.nm && pc == C_WD4 && t.top() == pc;
        int k = 0;
        if (R.stacking == ST_NONE && !bounce && !defend) return 0;
        const uint8_t* h = t.hand(s);
        for (int i = 0, m = t.hsize(s); i < m; i++) {
            int c = h[i];
            bool seen = false;
            for (int j = 0; j < k; j++) if (out[j] == c) { seen = true; break; }
            if (seen) continue;
            int r = id_rank(c);
            if (can_stack(pc, c) || (bounce && id_color(c) == t.color && (r == R_SKIP || r == R_REVERSE)) ||
                (defend && id_color(c) == t.color && r == R_DRAW_TWO))
                out[k++] = c;
        }
        return k;
    }

    // HOUSE-10: the seat whose hand passes to `seat` under a 0
    int receives_from(int seat) const {
        int d = -t.direction;
        int s = t.step_seat(seat, d);
        while (!t.in_round[s]) s = t.step_seat(s, d);
        return s;
    }

    // CL-UNO-3 (movegen.result_size): the cards `seat` holds once this play has resolved
    int result_size(int seat, int card, int target) const {
        int left = t.hsize(seat) - 1;
        if (card == C_WX && (left || R.shuffle_last_shuffle)) {  // CL-ACT-16, CL-END-6
            int total = -1;
            for (int s = 0; s < t.n; s++) if (t.in_round[s]) total += t.hsize(s);
            return total / t.seats_in_round();
        }
        if (left == 0) return 0;
        int rank = id_rank(card);
        if (card == C_WS) return target >= 0 ? t.hsize(target) : left;
        if (rank == R_DISCARD_ALL) {
            int col = id_color(card), same = 0;
            const uint8_t* h = t.hand(seat);
            for (int k = 0, m = t.hsize(seat); k < m; k++) same += id_color(h[k]) == col;
            return left - (same - 1);
        }
        if (R.seven_zero && id_number(card)) {
            if (rank == 7 && target >= 0) return t.hsize(target);
            if (rank == 0) return t.hsize(receives_from(seat));
        }
        return left;
    }

    bool needs_target(int card) const {
        return card == C_WS || (R.seven_zero && id_number(card) && id_rank(card) == 7);
    }

    // CL-TURN-4, CL-END-3 (movegen.add_plays): every play of `card` by `seat`
    void add_plays(int seat, int card, Act* out, int& k) const {
        bool last = t.hsize(seat) == 1;
        int colors[5];
        int nc;
        if (id_color(card) >= 0 || card == C_WCR) {
            colors[0] = -1;
            nc = 1;
        } else if (last && !(card == C_WX && R.shuffle_last_shuffle)) {
            colors[0] = -1; colors[1] = 0; colors[2] = 1; colors[3] = 2; colors[4] = 3;
            nc = 5;
        } else {
            colors[0] = 0; colors[1] = 1; colors[2] = 2; colors[3] = 3;
            nc = 4;
        }
        int targets[MAXS + 1];
        int nt = 0;
        if (needs_target(card)) {
            bool optional = last && (card != C_WS || !R.swap_last_swap);
            if (optional) targets[nt++] = -1;
            for (int s = 0; s < t.n; s++) if (s != seat && t.in_round[s]) targets[nt++] = s;
        } else {
            targets[nt++] = -1;
        }
        for (int i = 0; i < nt; i++) {
            bool flag = result_size(seat, card, targets[i]) == 1;
            for (int j = 0; j < nc; j++) {
                out[k++] = mk(K_PLAY, card, colors[j], targets[i], false);
                if (flag) out[k++] = mk(K_PLAY, card, colors[j], targets[i], true);
            }
        }
    }

    // CL-UNO-2, CL-UNO-5, HOUSE-6 (movegen.out_of_turn)
    void out_of_turn(int seat, Act* out, int& k) const {
        if (t.hsize(seat) == 1 && !t.called[seat]) out[k++] = mk(K_CALL);
        if (R.uno_penalty > 0 && t.any_exposed())
            for (int s = 0; s < t.n; s++)
                if (t.exposed[s] && s != seat && t.in_round[s]) out[k++] = mk(K_CATCH, -1, -1, s);
        if (R.jump_in && seat != t.active && seat != t.top_player &&
            (t.phase == PH_PLAY || t.phase == PH_PLAY_DRAWN)) {
            int top = t.top();
            if (id_color(top) >= 0 && t.holds(seat, top)) add_plays(seat, top, out, k);
        }
    }

    // CL-TURN-2, CL-DRAW-1, CL-DRAW-7 (movegen._turn_plays and the draw)
    void turn_plays(int seat, Act* out, int& k) const {
        int color = t.color, top = t.top();
        int trank = id_color(top) >= 0 ? id_rank(top) : -1;
        const uint8_t* h = t.hand(seat);
        int m = t.hsize(seat);
        // The card ids still to offer, a bit each: the colored ids (0-63) of the color or the top's
        // rank, then every wild (64-73); a bit is cleared at its first copy in the hand.
        uint64_t colored = (color >= 0 ? uint64_t{0xFFFF} << (16 * color) : 0) |
                           (trank >= 0 ? uint64_t{0x0001000100010001} << trank : 0);
        uint64_t avail[2] = {colored, (uint64_t{1} << (NIDS - 64)) - 1};
        uint8_t cand[MAXC];  // the hand's first copies of those ids, in hand order (without branches)
        int nc = 0;
        for (int i = 0; i < m; i++) {
            int c = h[i];
            uint64_t& w = avail[c >> 6];
            uint64_t p = (w >> (c & 63)) & 1;
            w &= ~(p << (c & 63));
            cand[nc] = static_cast<uint8_t>(c);
            nc += static_cast<int>(p);
        }
        for (int i = 0; i < nc; i++) {
            int c = cand[i];
            if (c < 64 && R.simple[c]) {  // add_plays of a card that leaves m - 1 cards and needs no target
                out[k++] = mk(K_PLAY, c, -1, -1, false);
                if (m == 2) out[k++] = mk(K_PLAY, c, -1, -1, true);
                continue;
            }
            // (a WD4 refused here is refused for every copy alike)
            if (c == C_WD4 && R.strict_wd4 && !wd4_is_legal(seat, color)) continue;
            add_plays(seat, c, out, k);
        }
    }

    // movegen.legal_actions: every legal action of `seat` now, turn actions first
    int legal(int seat, Act* out) const {
        if (t.phase >= PH_ROUND_OVER || !t.in_round[seat]) return 0;
        int k = 0;
        int size = t.hsize(seat);
        if (seat == t.active) {
            if (t.phase == PH_PLAY) {
                turn_plays(seat, out, k);
                if (can_draw() && (k == 0 || R.may_draw)) out[k++] = mk(K_DRAW);
            } else if (t.phase == PH_PLAY_DRAWN) {
                int card = t.drawn;
                add_plays(seat, card, out, k);
                if (!R.force_play || (card == C_WD4 && R.challenge && !wd4_is_legal(seat, t.color)))
                    out[k++] = mk(K_PASS);
            } else if (t.phase == PH_RESPOND) {
                out[k++] = mk(K_ACCEPT);
                if (t.pending_card == C_WD4 && t.top() == C_WD4 && t.wd4_player >= 0 && R.challenge)
                    out[k++] = mk(K_CHALLENGE);
                int cards[NIDS];
                int nr = response_cards(seat, cards);
                for (int i = 0; i < nr; i++) add_plays(seat, cards[i], out, k);
            } else {  // SET-11, SET-12, NM-11: CHOOSE_COLOR
                bool swap = t.color_reason == CR_FIRST_CARD && R.first_card_swap_effect && t.top() == C_WS;
                for (int color = 0; color < 4; color++) {
                    if (swap) {
                        for (int s = 0; s < t.n; s++)
                            if (s != seat && t.in_round[s]) out[k++] = mk(K_CHOOSE, -1, color, s);
                    } else {
                        out[k++] = mk(K_CHOOSE, -1, color, -1);
                    }
                }
            }
        }
        if (size == 1 || R.jump_in || (R.uno_penalty && t.any_exposed())) out_of_turn(seat, out, k);
        return k;
    }

    // ------------------------------------------------------------ small steps (resolve.py)

    // CL-UNO-4: a turn action by any seat closes every open catch window
    void turn_action() {
        for (int s = 0; s < MAXS; s++) t.exposed[s] = t.caught[s] = false;
    }

    // CL-UNO-4, CL-UNO-7: a changed hand closes its window and loses its call
    void hand_changed(int s) {
        t.called[s] = false;
        t.exposed[s] = false;
        t.fresh[s] = true;
    }

    // CL-UNO-1 (resolve.settle): a changed hand of one card without a call is exposed
    void settle() {
        const bool live = t.phase < PH_ROUND_OVER;
        for (int s = 0; s < t.n; s++) {  // (without branches: which hands changed is anyone's guess)
            bool f = t.fresh[s];
            t.fresh[s] = false;
            t.exposed[s] = t.exposed[s] | (f & live & t.in_round[s] & (t.hsize(s) == 1) & !t.called[s]);
        }
    }

    // CL-DRAW-5, CL-DRAW-6 (resolve._take): the top card, reshuffling first; -1 if none exist
    int take() {
        if (t.ndraw == 0) {
            int m = 0;
            for (int k = 0; k < t.ndiscard - 1; k++) t.draw[m++] = t.discard[k];
            for (int k = 0; k < t.nset; k++) t.draw[m++] = t.set_aside[k];
            if (m == 0) return -1;
            t.discard[0] = t.discard[t.ndiscard - 1];
            t.ndiscard = 1;
            std::memset(t.dcount, 0, sizeof(t.dcount));
            t.dcount[t.discard[0]] = 1;
            t.nset = 0;
            t.rng.shuffle(t.draw, m);
            t.ndraw = static_cast<int16_t>(m);
        }
        return t.draw[--t.ndraw];
    }

    enum Until { U_COUNT, U_PLAYABLE, U_COLOR };
    static constexpr int NO_END = 1 << 30;

    // CL-DRAW-3, CL-DRAW-5, CL-DRAW-6, NM-4, NM-11, NM-14 (resolve._take_cards): seat takes up to
    // count cards, stopping after one that meets `until`, and always at the mercy limit.
    // Returns the cards taken; *last the last of them; *knocked whether the limit was reached.
    int take_cards(int s, int count, Until until, int color, int* last, bool* knocked) {
        int limit = R.mercy_limit;
        int got = 0;
        *knocked = false;
        *last = -1;
        while (got < count) {
            int c = take();
            if (c < 0) break;
            t.hand_push(s, c);
            got++;
            *last = c;
            if (limit && t.hsize(s) >= limit) {
                *knocked = true;
                break;
            }
            if (until == U_PLAYABLE && playable(c, s)) break;
            if (until == U_COLOR && id_color(c) == color) break;
        }
        if (got) {
            t.auto_passes = 0;
            hand_changed(s);
        }
        return got;
    }

    // CL-DRAW-6, NM-14 (resolve._draw_n)
    int draw_n(int s, int count) {
        int last;
        bool knocked;
        int got = take_cards(s, count, U_COUNT, -1, &last, &knocked);
        if (on_drew && got) on_drew(on_drew_ctx, s, got, false);
        if (knocked) knock_out(s);
        return got;
    }

    // NM-14 to NM-16 (resolve._knock_out)
    void knock_out(int s) {
        uint8_t* h = t.hand(s);
        for (int k = 0, m = t.hsize(s); k < m; k++) t.set_aside[t.nset++] = h[k];
        t.hlen[t.slot[s]] = 0;
        t.in_round[s] = false;
        t.knocked[s] = true;
        t.exposed[s] = t.called[s] = t.fresh[s] = false;
        if (t.phase < PH_ROUND_OVER && t.seats_in_round() == 1) {
            int w = 0;
            while (!t.in_round[w]) w++;
            end_round(w);
        }
    }

    // NM-15, CL-DRAW-7 (resolve._after_penalty): after an out-of-turn penalty draw
    void after_penalty(int s) {
        if (t.phase >= PH_ROUND_OVER) return;
        if (t.in_round[s] || s != t.active) {
            if (t.phase == PH_PLAY) begin_turn(t.active);
            return;
        }
        if (t.phase == PH_CHOOSE_COLOR) {
            t.active = static_cast<int8_t>(t.next_seat(s));
            return;
        }
        t.pending = 0;
        t.pending_card = -1;
        begin_turn(t.next_seat(s));
    }

    // SCORE-1 to SCORE-10 (scoring.score_round), then the phase (resolve._end_round)
    void end_round(int winner) {
        for (int s = 0; s < MAXS; s++) t.exposed[s] = false;
        t.pending = 0;
        t.pending_card = -1;
        score_round(winner);
        t.phase = t.match_winners ? PH_MATCH_OVER : PH_ROUND_OVER;
    }

    int hand_value(int s) const {
        int v = 0;
        const uint8_t* h = t.hand(s);
        for (int k = 0, m = t.hsize(s); k < m; k++) v += R.points[h[k]];
        return v;
    }

    // The observation's score byte of every seat (spaces.encode: _cap(score * 255 // target_score))
    static void refresh_score_obs(Table& t, int target_score) {
        for (int s = 0; s < t.n; s++) {
            long long num = static_cast<long long>(t.scores[s]) * 255;
            long long q = num / target_score;
            if ((num % target_score != 0) && ((num < 0) != (target_score < 0))) q--;  // Python's floor division
            t.score_obs[s] = static_cast<uint8_t>(q > 255 ? 255 : (q < 0 ? 0 : q));
        }
    }

    void score_round(int winner) {
        score_round_points(winner);
        refresh_score_obs(t, R.target_score);
    }

    void score_round_points(int winner) {
        const int n = t.n;
        int values[MAXS];
        int nknocked = 0;
        for (int s = 0; s < n; s++) {
            values[s] = (t.in_round[s] || t.knocked[s]) && !t.eliminated[s] ? hand_value(s) : 0;
            nknocked += t.knocked[s];
        }
        if (winner < 0) return;  // SCORE-8: a blocked round scores nothing
        t.round_wins[winner]++;
        uint16_t winners = 0;
        MatchReason reason = MR_NONE;
        if (R.scoring == SC_STANDARD || R.scoring == SC_NONE) {  // SCORE-1, SCORE-2, SCORE-7, SCORE-9
            int points = 0;
            uint16_t team = 0;
            if (R.partnership) {
                int side = winner % 2;
                for (int s = 0; s < n; s++) if (s % 2 != side) points += values[s];
                for (int s = 0; s < n; s++)
                    if (s % 2 == side) {
                        t.scores[s] += points;
                        team |= static_cast<uint16_t>(1u << s);
                    }
            } else {
                if (R.nm) {  // NM-17, NM-18
                    for (int s = 0; s < n; s++) if (s != winner && t.in_round[s]) points += values[s];
                    points += 250 * nknocked;
                } else {
                    for (int s = 0; s < n; s++) if (s != winner && !t.eliminated[s]) points += values[s];
                }
                t.scores[winner] += points;
                team = static_cast<uint16_t>(1u << winner);
            }
            if (R.scoring == SC_NONE) {
                winners = team;
                reason = MR_SINGLE;
            } else if (t.scores[winner] >= R.target_score) {
                winners = team;
                reason = MR_TARGET;
            }
        } else if (R.scoring == SC_LOW) {  // SCORE-3, SCORE-4
            bool reached = false;
            for (int s = 0; s < n; s++) if (s != winner) t.scores[s] += values[s];
            for (int s = 0; s < n; s++) reached |= t.scores[s] >= R.target_score;
            if (reached) {
                int low = t.scores[0];
                for (int s = 1; s < n; s++) if (t.scores[s] < low) low = t.scores[s];
                int most = -1;
                for (int s = 0; s < n; s++) if (t.scores[s] == low && t.round_wins[s] > most) most = t.round_wins[s];
                for (int s = 0; s < n; s++)
                    if (t.scores[s] == low && t.round_wins[s] == most) winners |= static_cast<uint16_t>(1u << s);
                reason = MR_LOWEST;
            }
        } else {  // SCORE-5, SCORE-6: elimination
            bool alive_before[MAXS];
            int nbefore = 0, nalive = 0, last_alive = -1;
            for (int s = 0; s < n; s++) {
                alive_before[s] = !t.eliminated[s];
                nbefore += alive_before[s];
            }
            for (int s = 0; s < n; s++) if (alive_before[s] && s != winner) t.scores[s] += values[s];
            for (int s = 0; s < n; s++) if (alive_before[s] && t.scores[s] >= R.target_score) t.eliminated[s] = true;
            for (int s = 0; s < n; s++)
                if (!t.eliminated[s]) {
                    nalive++;
                    last_alive = s;
                }
            if (t.final_round) {
                winners = static_cast<uint16_t>(1u << winner);
                reason = MR_FINAL_ROUND;
            } else if (nalive == 1) {
                winners = static_cast<uint16_t>(1u << last_alive);
                reason = MR_LAST_SEAT;
            } else if (nalive == 2 && nbefore > 2 && R.elimination_one_round) {
                t.final_round = true;
            }
        }
        if (winners) {
            t.match_winners = winners;
            t.match_reason = reason;
        }
    }

    // CL-DRAW-7, CL-DRAW-8 (resolve._begin_turn): make `seat` active for a normal turn
    void begin_turn(int seat) {
        t.drawn = -1;
        t.phase = PH_PLAY;
        if (t.ndraw) {
            t.active = static_cast<int8_t>(seat);
            return;
        }
        while (true) {
            t.active = static_cast<int8_t>(seat);
            if (t.ndraw || can_draw() || has_playable(seat)) return;
            t.auto_passes++;
            if (t.auto_passes >= t.seats_in_round()) {
                end_round(-1);
                return;
            }
            seat = t.next_seat(seat);
        }
    }

    // CL-ACT-8 (resolve._set_penalty): a response phase when allowed, else the victim draws now
    void set_penalty(int victim, int total, int card, bool respond = true) {
        t.pending = total;
        t.pending_card = static_cast<int8_t>(card);
        if (respond && response_allowed(card)) {
            t.active = static_cast<int8_t>(victim);
            t.phase = PH_RESPOND;
            t.drawn = -1;
            return;
        }
        t.pending = 0;
        t.pending_card = -1;
        draw_n(victim, total);
        if (t.phase < PH_ROUND_OVER) begin_turn(t.next_seat(victim));
    }

    // CL-TURN-6, CL-ACT-1, CL-ACT-2, TWO-2 (resolve._turn_moves)
    int turn_moves(int p, Step step) {
        if (step == STEP_REVERSE) {
            t.direction = static_cast<int8_t>(-t.direction);
            return t.seats_in_round() == 2 ? p : t.next_seat(p);
        }
        int nxt = t.next_seat(p);
        return step == STEP_SKIP ? t.next_seat(nxt) : nxt;
    }

    void flip() { t.direction = static_cast<int8_t>(-t.direction); }

    // resolve._others: the other seats in the round, in turn order from next(seat)
    int others(int seat, int* out) const {
        int k = 0;
        int s = t.next_seat(seat);
        while (s != seat) {
            out[k++] = s;
            s = t.next_seat(s);
        }
        return k;
    }

    // CL-ACT-15, HOUSE-9
    void swap_hands(int a, int b) {
        uint8_t x = t.slot[a];
        t.slot[a] = t.slot[b];
        t.slot[b] = x;
        hand_changed(a);
        hand_changed(b);
    }

    // HOUSE-10: every seat in the round passes its hand to next(seat), all at once
    void pass_hands() {
        uint8_t nslot[MAXS];
        std::memcpy(nslot, t.slot, sizeof(nslot));
        for (int s = 0; s < t.n; s++) if (t.in_round[s]) nslot[t.next_seat(s)] = t.slot[s];
        std::memcpy(t.slot, nslot, sizeof(nslot));
        for (int s = 0; s < t.n; s++) if (t.in_round[s]) hand_changed(s);
    }

    // CL-ACT-16: collect the hands in the round, shuffle, deal from next(player), the player last
    void shuffle_hands(int player) {
        int order[MAXS];
        int k = others(player, order);
        order[k++] = player;
        uint8_t pool[MAXC];
        int m = 0;
        for (int s = 0; s < t.n; s++) {
            if (t.in_round[s]) {
                const uint8_t* h = t.hand(s);
                for (int i = 0, z = t.hsize(s); i < z; i++) pool[m++] = h[i];
                t.hlen[t.slot[s]] = 0;
            }
        }
        t.rng.shuffle(pool, m);
        for (int i = 0, total = m; i < total; i++) t.hand_push(order[i % k], pool[--m]);
        for (int i = 0; i < k; i++) hand_changed(order[i]);
    }

    // CL-ACT-19, NM-10: cards slipped face up under the top card
    void slip(int s, const uint8_t* cards, int m) {
        int top = t.discard[t.ndiscard - 1];
        for (int i = 0; i < m; i++) {
            t.discard[t.ndiscard - 1 + i] = cards[i];
            t.dcount[cards[i]]++;
        }
        t.ndiscard = static_cast<int16_t>(t.ndiscard + m);
        t.discard[t.ndiscard - 1] = static_cast<uint8_t>(top);
        hand_changed(s);
    }

    // Move the cards of seat s that meet pred to out (in hand order); returns how many.
    template <class P>
    int split_hand(int s, P pred, uint8_t* out) {
        uint8_t* h = t.hand(s);
        int m = t.hsize(s), keep = 0, k = 0;
        for (int i = 0; i < m; i++) {
            if (pred(h[i])) out[k++] = h[i];
            else h[keep++] = h[i];
        }
        t.hlen[t.slot[s]] = static_cast<uint8_t>(keep);
        return k;
    }

    // ------------------------------------------------------------ actions (resolve.apply)

    // resolve.apply: a legal action by seat, then CL-UNO-1 (settle)
    void apply(int seat, const Act& a) {
        switch (a.kind) {
            case K_PLAY: play(seat, a); break;
            case K_DRAW: draw_action(seat); break;
            case K_PASS:  // CL-DRAW-2
                turn_action();
                begin_turn(t.next_seat(seat));
                break;
            case K_ACCEPT: accept(seat); break;
            case K_CHALLENGE: challenge(seat); break;
            case K_CHOOSE: choose_color(seat, a.color, a.target); break;
            case K_CALL: call_uno(seat); break;
            case K_CATCH: catch_(seat, a.target); break;
            default: break;
        }
        settle();
    }

    // CL-TURN-3, CL-ACT-6, HOUSE-7 (resolve._play)
    void play(int p, const Act& a) {
        int c = a.card;
        bool responding = t.phase == PH_RESPOND;
        bool jump = p != t.active;
        turn_action();
        if (jump) {  // HOUSE-7: the jumper's turn now
            t.active = static_cast<int8_t>(p);
            t.phase = PH_PLAY;
        }
        bool is_wd4 = c == C_WD4 && !R.nm;
        if (is_wd4) {  // CL-ACT-6: the verdict is recorded with the play
            t.wd4_illegal = !wd4_is_legal(p, t.color);
            t.wd4_player = static_cast<int8_t>(p);
        }
        t.hand_remove(p, c);
        t.called[p] = false;
        t.exposed[p] = false;
        t.fresh[p] = true;
        t.discard_push(c);
        t.top_player = static_cast<int8_t>(p);
        t.drawn = -1;
        t.auto_passes = 0;
        int col = id_color(c);
        t.color = static_cast<int8_t>(col >= 0 ? col : a.color);
        if (is_wd4) {
            t.nwd4 = static_cast<int16_t>(t.hsize(p));
            std::memcpy(t.wd4_hand, t.hand(p), static_cast<size_t>(t.nwd4));
        }
        if (t.hsize(p) == 0) last_card(p, c, a.target, responding);
        else if (responding) respond(p, c);
        else effect(p, c, a.target);
        if (a.uno && t.hsize(p) == 1 && t.in_round[p]) t.called[p] = true;
    }

    // CL-ACT-1 to CL-ACT-5, CL-ACT-15 to CL-ACT-20, HOUSE-9, HOUSE-10, NM-5, NM-8 to NM-11, TWO-2,
    // TWO-3, TWO-7 (resolve._effect): a card that is not its player's last
    void effect(int p, int c, int target) {
        int rank = id_rank(c);
        if (rank <= 9 && !R.seven_zero) {
            begin_turn(t.next_seat(p));
            return;
        }
        int nxt;
        if (id_number(c)) {
            if (R.seven_zero && rank == 7 && target >= 0) swap_hands(p, target);
            else if (R.seven_zero && rank == 0) pass_hands();
            nxt = t.next_seat(p);
        } else if (rank == R_SKIP) {
            nxt = turn_moves(p, STEP_SKIP);
        } else if (rank == R_REVERSE) {
            nxt = turn_moves(p, STEP_REVERSE);
        } else if (c == C_WRD4) {  // NM-8, TWO-7
            flip();
            set_penalty(t.seats_in_round() == 2 ? p : t.next_seat(p), 4, c);
            return;
        } else if (id_draw_value(c)) {  // CL-ACT-3, CL-ACT-5, NM-5
            set_penalty(t.next_seat(p), id_draw_value(c), c);
            return;
        } else if (rank == R_SKIP_EVERYONE) {  // NM-9, TWO-3
            nxt = p;
        } else if (rank == R_DISCARD_ALL) {  // NM-10
            int col = id_color(c);
            uint8_t slipped[MAXC];
            int m = split_hand(p, [col](int x) { return id_color(x) == col; }, slipped);
            if (m) {
                slip(p, slipped, m);
                if (t.hsize(p) == 0) {
                    end_round(p);
                    return;
                }
            }
            nxt = t.next_seat(p);
        } else if (c == C_WS) {  // CL-ACT-15
            if (target >= 0) swap_hands(p, target);
            nxt = t.next_seat(p);
        } else if (c == C_WX) {  // CL-ACT-16
            shuffle_hands(p);
            nxt = t.next_seat(p);
        } else if (c == C_WC || c == C_WB) {  // CL-ACT-17 to CL-ACT-20
            nxt = t.next_seat(p);
            int os[MAXS];
            int no = others(p, os);
            if (R.custom_effect == CE_OTHERS_DRAW_2) {
                for (int i = 0; i < no; i++) draw_n(os[i], 2);
            } else if (R.custom_effect == CE_OTHERS_DISCARD_WILDS) {
                for (int i = 0; i < no; i++) {
                    int s = os[i];
                    uint8_t wilds[MAXC];
                    int m = split_hand(s, [](int x) { return id_wild(x); }, wilds);
                    if (m) {
                        slip(s, wilds, m);
                        if (t.hsize(s) == 0) {
                            end_round(s);
                            return;
                        }
                    }
                }
            } else if (R.custom_effect == CE_EXTRA_TURN) {
                nxt = p;
            }
        } else if (c == C_WCR) {  // NM-11
            t.active = static_cast<int8_t>(t.next_seat(p));
            t.phase = PH_CHOOSE_COLOR;
            t.color_reason = CR_ROULETTE;
            return;
        } else {  // CL-ACT-4: a plain Wild
            nxt = t.next_seat(p);
        }
        begin_turn(nxt);
    }

    // HOUSE-1 to HOUSE-3, HOUSE-13, HOUSE-14, NM-6, NM-8 (resolve._answer)
    void answer(int c, int* total, int* card, bool* flips) const {
        int pc = t.pending_card;
        if (can_stack(pc, c)) {
            int value = id_draw_value(c);
            *total = R.stack_sum ? t.pending + value : value;
            *card = c;
            *flips = c == C_WRD4;
            return;
        }
        if (pc == C_WD4 && id_rank(c) == R_DRAW_TWO) {
            *total = id_draw_value(c);
            *card = c;
            *flips = false;
            return;
        }
        *total = t.pending;
        *card = pc;
        *flips = id_rank(c) == R_REVERSE;
    }

    // HOUSE-1 to HOUSE-3, HOUSE-13, HOUSE-14, NM-6 (resolve._respond)
    void respond(int v, int c) {
        int total, card;
        bool flips;
        answer(c, &total, &card, &flips);
        if (flips) flip();
        int victim;
        if (card == C_WRD4 && card == c) victim = t.seats_in_round() == 2 ? v : t.next_seat(v);
        else victim = t.next_seat(v);
        if (t.pending_card == C_WD4 && card == c && id_rank(c) == R_DRAW_TWO) t.wd4_player = -1;
        set_penalty(victim, total, card);
    }

    // CL-END-2 to CL-END-7 (resolve._last_card)
    void last_card(int p, int c, int target, bool responding) {
        if (responding || id_draw_value(c)) {  // CL-END-4
            int total;
            bool flips;
            if (responding) {
                int card;
                answer(c, &total, &card, &flips);
            } else {
                total = id_draw_value(c);
                flips = c == C_WRD4;
            }
            if (flips) flip();
            t.pending = 0;
            t.pending_card = -1;
            draw_n(t.next_seat(p), total);
        } else if (c == C_WS && R.swap_last_swap && target >= 0) {  // CL-END-5
            swap_hands(p, target);
            end_round(target);
            return;
        } else if (c == C_WX && R.shuffle_last_shuffle) {  // CL-END-6
            shuffle_hands(p);
            if (t.hsize(p)) {
                begin_turn(t.next_seat(p));
                return;
            }
        } else if ((c == C_WC || c == C_WB) && R.custom_effect == CE_OTHERS_DRAW_2) {
            int os[MAXS];
            int no = others(p, os);
            for (int i = 0; i < no; i++) draw_n(os[i], 2);
        } else if (c == C_WCR) {  // CL-END-7
            t.active = static_cast<int8_t>(t.next_seat(p));
            t.phase = PH_CHOOSE_COLOR;
            t.color_reason = CR_ROULETTE_LAST;
            return;
        }
        if (t.phase < PH_ROUND_OVER) end_round(p);
    }

    // CL-DRAW-1 to CL-DRAW-4, NM-4 (resolve._draw_action)
    void draw_action(int s) {
        turn_action();
        int last;
        bool knocked;
        int got = take_cards(s, R.draw_until_playable ? NO_END : 1, U_PLAYABLE, -1, &last, &knocked);
        if (on_drew && got) on_drew(on_drew_ctx, s, got, true);
        if (knocked) {
            knock_out(s);
            if (t.phase < PH_ROUND_OVER) begin_turn(t.next_seat(s));
            return;
        }
        if (got && playable(last, s)) {
            t.phase = PH_PLAY_DRAWN;
            t.drawn = static_cast<int8_t>(last);
        } else {
            begin_turn(t.next_seat(s));
        }
    }

    // CL-ACT-9 (resolve._accept)
    void accept(int v) {
        turn_action();
        int total = t.pending;
        t.pending = 0;
        t.pending_card = -1;
        t.wd4_player = -1;
        draw_n(v, total);
        if (t.phase < PH_ROUND_OVER) begin_turn(t.next_seat(v));
    }

    // CL-ACT-10 to CL-ACT-14, HOUSE-5 (resolve._challenge)
    void challenge(int v) {
        turn_action();
        bool guilty = t.wd4_illegal;
        int player = t.wd4_player;
        int total = t.pending;
        t.pending = 0;
        t.pending_card = -1;
        t.wd4_player = -1;
        if (guilty) {
            draw_n(player, total);
            if (t.phase < PH_ROUND_OVER) begin_turn(v);
        } else {
            draw_n(v, total + 2);
            if (t.phase < PH_ROUND_OVER) begin_turn(t.next_seat(v));
        }
    }

    // SET-11, SET-12, NM-11, NM-12, CL-END-7 (resolve._choose_color)
    void choose_color(int s, int color, int target) {
        turn_action();
        t.color = static_cast<int8_t>(color);
        if (t.color_reason == CR_FIRST_CARD) {
            if (target >= 0) swap_hands(s, target);
            begin_turn(s);
            return;
        }
        int last;
        bool knocked;
        take_cards(s, NO_END, U_COLOR, color, &last, &knocked);
        if (knocked) knock_out(s);
        if (t.phase >= PH_ROUND_OVER) return;
        if (t.color_reason == CR_ROULETTE_LAST) end_round(t.top_player);
        else begin_turn(t.next_seat(s));
    }

    // CL-UNO-2, CL-UNO-3 (resolve._call_uno)
    void call_uno(int s) {
        if (t.hsize(s) == 1 && !t.called[s]) {
            t.called[s] = true;
            t.exposed[s] = false;
            return;
        }
        draw_n(s, R.false_uno_penalty);
        after_penalty(s);
    }

    // CL-UNO-5, CL-UNO-6 (resolve._catch)
    void catch_(int s, int target) {
        if (t.exposed[target]) {
            draw_n(target, R.uno_penalty);
            t.exposed[target] = false;
            t.caught[target] = true;
            after_penalty(target);
            return;
        }
        draw_n(s, R.false_catch_penalty);
        after_penalty(s);
    }

    // ------------------------------------------------------------ the deal (unotable/deal.py)

    // SET-2 (deal._choose_dealer): each seat takes a card; the highest number deals; ties again
    void choose_dealer() {
        if (R.dealer_seat0) {
            t.dealer = 0;
            return;
        }
        uint8_t pile[MAXC];
        std::memcpy(pile, R.deck, static_cast<size_t>(R.deck_n));
        int i = R.deck_n - 1;
        int contenders[MAXS], values[MAXS];
        int nc = t.n;
        for (int s = 0; s < nc; s++) contenders[s] = s;
        while (nc > 1) {
            int best = -1;
            for (int k = 0; k < nc; k++) {
                if (i < 0) {
                    std::memcpy(pile, R.deck, static_cast<size_t>(R.deck_n));
                    i = R.deck_n - 1;
                }
                int j = static_cast<int>(t.rng.below(static_cast<uint32_t>(i + 1)));
                int c = pile[j];
                pile[j] = pile[i];
                i--;
                values[k] = id_number(c) ? id_rank(c) : 0;
                if (values[k] > best) best = values[k];
            }
            int m = 0;
            for (int k = 0; k < nc; k++) if (values[k] == best) contenders[m++] = contenders[k];
            nc = m;
        }
        t.dealer = static_cast<int8_t>(contenders[0]);
    }

    // SET-2, SET-4 (deal.start_match), then settle as Game.new does
    void start_match() {
        choose_dealer();
        start_round();
        settle();
    }

    // SET-3 (deal.next_round): the next dealer is to the left of the last, skipping eliminated seats
    void next_round() {
        int d = (t.dealer + 1) % t.n;
        while (t.eliminated[d]) d = (d + 1) % t.n;
        t.dealer = static_cast<int8_t>(d);
        start_round();
        settle();
    }

    // SET-4 to SET-11, SET-13, TWO-5 (deal._start_round)
    void start_round() {
        const int n = t.n;
        t.round_no++;
        clear_round(t);
        uint8_t* deck = t.draw;  // the deck is dealt from the draw pile's array, top at the end
        int top;
        if (t.ndeal >= 0) {
            for (int k = 0; k < t.ndeal; k++) deck[k] = t.deal_order[t.ndeal - 1 - k];
            top = t.ndeal;
            t.ndeal = -1;
        } else {
            std::memcpy(deck, R.deck, static_cast<size_t>(R.deck_n));
            top = R.deck_n;
            t.rng.shuffle(deck, top);
        }
        int order[MAXS];
        int m = 0;
        int s = t.dealer;
        for (int k = 0; k < n; k++) {
            s = (s + 1) % n;
            if (t.in_round[s]) order[m++] = s;
        }
        for (int k = 0; k < MAXS; k++) {
            t.slot[k] = static_cast<uint8_t>(k);
            t.hlen[k] = 0;
        }
        for (int r = 0; r < 7; r++)  // SET-4: seven rounds of one card each from the top
            for (int k = 0; k < m; k++) t.hand_push(order[k], deck[--top]);
        t.ndraw = static_cast<int16_t>(top);
        t.ndiscard = 0;
        std::memset(t.dcount, 0, sizeof(t.dcount));
        int first = t.next_seat(t.dealer);
        if (R.nm) {  // SET-13
            int c;
            while (true) {
                c = t.draw[--t.ndraw];
                t.discard_push(c);
                if (id_number(c)) break;
            }
            t.color = static_cast<int8_t>(id_color(c));
            begin_turn(first);
            return;
        }
        int c;
        while (true) {  // SET-10
            c = t.draw[--t.ndraw];
            if (c == C_WD4 || (R.first_card_redraw && id_wild(c))) {
                t.draw[t.ndraw++] = static_cast<uint8_t>(c);
                t.rng.shuffle(t.draw, t.ndraw);
                continue;
            }
            break;
        }
        t.discard_push(c);
        t.color = static_cast<int8_t>(id_color(c));
        int rank = id_rank(c);
        if (id_wild(c)) {  // SET-11
            t.active = static_cast<int8_t>(first);
            t.phase = PH_CHOOSE_COLOR;
            t.color_reason = CR_FIRST_CARD;
            t.drawn = -1;
        } else if (rank == R_SKIP) {  // SET-7, TWO-5
            begin_turn(t.next_seat(first));
        } else if (rank == R_REVERSE) {  // SET-8, TWO-5
            flip();
            begin_turn(t.dealer);
        } else if (rank == R_DRAW_TWO) {  // SET-9, TWO-5
            set_penalty(first, 2, c, false);
        } else {  // SET-6
            begin_turn(first);
        }
    }
};

}  // namespace uno
