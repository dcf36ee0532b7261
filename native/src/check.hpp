// Checking an action before it is applied, with the error codes of unotable.game.Game.play
// (Game._checked, Game._penalised, Game._explain): a rejected action changes nothing.
#pragma once
#include <string>

#include "core.hpp"

namespace uno {

static const char* const RANK_CODES[26] = {
    "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "D2", "D4", "SE", "DA",
    "W", "W4", "WS", "WX", "WC", "WB", "WR4", "W6", "W10", "WCR"};
static const char COLOR_LETTERS[5] = "RYGB";

inline std::string card_name(int c) {
    std::string s;
    if (id_color(c) >= 0) s += COLOR_LETTERS[id_color(c)];
    s += RANK_CODES[id_rank(c)];
    return s;
}

// The action's notation (unotable/actions.py __str__)
inline std::string act_name(const Act& a) {
    switch (a.kind) {
        case K_PLAY: {
            std::string s = card_name(a.card);
            if (a.color >= 0) { s += ':'; s += COLOR_LETTERS[a.color]; }
            if (a.target >= 0) { s += '>'; s += static_cast<char>('0' + a.target); }
            if (a.uno) s += '!';
            return s;
        }
        case K_DRAW: return "draw";
        case K_PASS: return "pass";
        case K_ACCEPT: return "accept";
        case K_CHALLENGE: return "challenge";
        case K_CHOOSE: {
            std::string s = "color:";
            s += COLOR_LETTERS[a.color];
            if (a.target >= 0) { s += '>'; s += static_cast<char>('0' + a.target); }
            return s;
        }
        case K_CALL: return "uno";
        case K_CATCH: return std::string("catch:") + static_cast<char>('0' + a.target);
        default: return "deal";
    }
}

enum ErrCode { E_OK, E_INVALID, E_ILLEGAL, E_NOT_YOUR_TURN };

struct Verdict {
    ErrCode code;
    std::string message;
};

static const char* const PHASE_WORDS[6] = {
    "awaiting a play or a draw", "awaiting the drawn card's play or a pass", "awaiting a color choice",
    "awaiting a response to the pending penalty", "the round is over", "the match is over"};

// Game._situation: the public situation as a message to `seat` (only what it may see)
inline std::string situation(const Table& t, int seat) {
    static const char* const names[4] = {"red", "yellow", "green", "blue"};
    std::string s = PHASE_WORDS[t.phase];
    if (t.ndiscard) s += ", top is " + card_name(t.top());
    if (t.color >= 0) s += std::string(", current color ") + names[t.color];
    if (t.pending) s += ", +" + std::to_string(t.pending) + " pending against seat " + std::to_string(t.active);
    if (t.phase == PH_PLAY_DRAWN) {
        if (seat == t.active) s += ", only the drawn " + card_name(t.drawn) + " may be played";
        else s += ", seat " + std::to_string(t.active) + " drew a card it may play";
    }
    return s;
}

// CL-UNO-3, CL-UNO-6 (Game._penalised): a false call or catch punished instead of rejected
inline bool penalised(const Rules& R, const Table& t, int seat, const Act& a) {
    if (!t.in_round[seat] || t.hsize(seat) == 0) return false;
    if (a.kind == K_CALL) return R.false_uno_penalty > 0 && t.hsize(seat) != 1 && !t.called[seat];
    if (a.kind == K_CATCH) {
        int x = a.target;
        return R.false_catch_penalty > 0 && x != seat && 0 <= x && x < t.n && t.in_round[x] && !t.exposed[x] &&
               !t.caught[x];
    }
    return false;
}

// GEN-2 (Game._checked and Game._explain): E_OK when `a` by `seat` may be applied now, else the
// most specific error. `seat` is already known to exist; K_DEAL is checked by the caller.
inline Verdict check_action(const Rules& R, const Table& t, int seat, const Act& a) {
    std::string head = act_name(a) + " by seat " + std::to_string(seat) + " is not legal";
    if (t.phase >= PH_ROUND_OVER) return {E_ILLEGAL, act_name(a) + " by seat " + std::to_string(seat) +
                                                         " is not legal: " + PHASE_WORDS[t.phase]};
    Engine e{R, const_cast<Table&>(t)};
    Act legal[MAXA];
    int k = e.legal(seat, legal);
    for (int i = 0; i < k; i++) if (legal[i] == a) return {E_OK, ""};
    if (penalised(R, t, seat, a)) return {E_OK, ""};
    std::string where = situation(t, seat);
    if (!t.in_round[seat]) return {E_NOT_YOUR_TURN, head + ": seat " + std::to_string(seat) + " is out of the round"};
    if (a.kind == K_CALL) {
        std::string why = t.called[seat] ? "it has already called"
                                         : "it holds " + std::to_string(t.hsize(seat)) + " cards";
        return {E_ILLEGAL, head + ": " + why};
    }
    if (a.kind == K_CATCH) {
        int x = a.target;
        if (x >= t.n) return {E_INVALID, head + ": there is no seat " + std::to_string(x)};
        if (x == seat) return {E_ILLEGAL, head + ": a seat cannot catch itself"};
        if (t.caught[x]) return {E_ILLEGAL, head + ": seat " + std::to_string(x) + " was already caught for this exposure"};
        if (R.uno_penalty == 0) return {E_ILLEGAL, head + ": catching is off (uno_penalty 0)"};
        return {E_ILLEGAL, head + ": seat " + std::to_string(x) + " cannot be caught (not exposed)"};
    }
    if (a.kind == K_PLAY) {  // Game._explain_play
        int cid = a.card;
        std::string card = card_name(cid);
        if (a.target >= 0 && (a.target >= t.n || !t.in_round[a.target]))
            return {E_INVALID, head + ": seat " + std::to_string(a.target) + " is not a seat in the round"};
        if (a.target == seat) return {E_INVALID, head + ": a seat cannot target itself"};
        if (!t.holds(seat, cid)) return {E_ILLEGAL, head + ": seat " + std::to_string(seat) + " holds no " + card};
        int same = 0;
        bool any_uncolored = false, all_targeted = true, all_untargeted = true;
        for (int i = 0; i < k; i++) {
            if (legal[i].kind != K_PLAY || legal[i].card != cid) continue;
            same++;
            any_uncolored |= legal[i].color < 0;
            all_targeted &= legal[i].target >= 0;
            all_untargeted &= legal[i].target < 0;
        }
        if (seat != t.active && !same) {
            if (R.jump_in)
                return {E_NOT_YOUR_TURN, head + ": it is seat " + std::to_string(t.active) + "'s turn and " + card +
                                             " cannot jump in (" + where + ")"};
            return {E_NOT_YOUR_TURN, head + ": it is seat " + std::to_string(t.active) + "'s turn (" + where + ")"};
        }
        if (!same) return {E_ILLEGAL, head + ": " + card + " cannot be played now (" + where + ")"};
        if (id_wild(cid) && cid != C_WCR && a.color < 0 && !any_uncolored)
            return {E_INVALID, head + ": " + card + " needs a named color, as in " + card + ":R"};
        if (cid == C_WCR && a.color >= 0)
            return {E_INVALID, head + ": a Wild Color Roulette names no color (NM-11)"};
        if (a.target < 0 && all_targeted)
            return {E_INVALID, head + ": " + card + " needs a target seat, as in " + card + ">N"};
        if (a.target >= 0 && all_untargeted) return {E_INVALID, head + ": " + card + " takes no target seat"};
        if (a.uno) return {E_ILLEGAL, head + ": the UNO flag needs a play that leaves exactly one card"};
        return {E_ILLEGAL, head + ": " + where};
    }
    if (seat != t.active)
        return {E_NOT_YOUR_TURN, head + ": it is seat " + std::to_string(t.active) + "'s turn (" + where + ")"};
    return {E_ILLEGAL, head + ": " + where};
}

}  // namespace uno
