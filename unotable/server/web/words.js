// What happened, in words of the page's language (events.py): who did what, seen from one seat.

import { cardList, cardName } from "./cards.js";
import { currentLang, t } from "./i18n.js";

/**
 * The names of the seats: the match's, else the table's, else "Seat N". A bot's name that the
 * server gave it ("Bot N", N its seat's number from 0, as in the record) is said in the page's
 * language with the seat's number as people count it, from 1 ("Bot 4" sits in seat 4); a name
 * someone chose is kept as it is.
 */
export function seatNames(state) {
  const seats = state.table?.seats || [];
  const names = state.static?.names || seats.map((s) => s.name);
  return names.map((name, i) => {
    // the server counts from 0 (as the record does); people count seats from 1
    if (seats[i]?.kind === "bot" && (!name || name === `Bot ${i}`)) return t("seat.bot_name", { n: i + 1 });
    return name || t("seat.label", { n: i + 1 });
  });
}

export function nameOf(state, seat) {
  if (seat === null || seat === undefined) return t("seat.host");
  return seatNames(state)[seat] ?? t("seat.label", { n: seat + 1 });
}

/** An event in words; "" for an event the log does not show. */
export function describe(state, e) {
  const n = (s) => nameOf(state, s);
  const cards = (list) => cardList(list, currentLang());
  switch (e.type) {
    case "timed_out": // not an engine event: the server's word that it moved for the seat
      return t("ev.timed_out", { name: n(e.seat) });
    case "dealer_chosen":
      return ""; // the round's start says who deals: once is enough
    case "round_started":
      return t("ev.round_started", { n: e.round_no, name: n(e.dealer) });
    case "hand_dealt":
      return t("ev.hand_dealt", { n: e.cards.length });
    case "first_card":
      return t(e.returned ? "ev.first_card_returned" : "ev.first_card", { card: cardName(e.card) });
    case "card_played": {
      let text = t(e.jump_in ? "ev.jumped_in" : "ev.played", { name: n(e.seat), card: cardName(e.card) });
      if (e.color) text += ` ${t("ev.named_color", { color: t(`color.${e.color}`) })}`;
      if (e.target !== null && e.target !== undefined) text += ` ${t("ev.target", { name: n(e.target) })}`;
      if (e.uno) text += ` ${t("ev.with_uno")}`;
      return text;
    }
    case "color_chosen":
      return t("ev.color_chosen", { name: n(e.seat), color: t(`color.${e.color}`) });
    case "drew":
      return t(`ev.drew.${e.reason}`, { name: n(e.seat), n: e.count });
    case "drew_cards":
      return t("ev.you_drew", { cards: cards(e.cards) });
    case "passed":
      return t("ev.passed", { name: n(e.seat) });
    case "skipped":
      return t("ev.skipped", { name: n(e.seat) });
    case "direction_changed":
      return t(e.direction > 0 ? "ev.direction.cw" : "ev.direction.ccw");
    case "penalty_pending":
      return t("ev.penalty", { name: n(e.victim), n: e.total });
    case "challenged":
      return t(e.guilty ? "ev.challenge.guilty" : "ev.challenge.innocent", { name: n(e.challenger), player: n(e.player) });
    case "challenge_reveal":
      return t("ev.reveal", { player: n(e.player), cards: cards(e.cards) });
    case "hands_swapped":
      return t("ev.swapped", { name: n(e.seat), target: n(e.target) });
    case "hands_passed":
      return t("ev.passed_hands");
    case "hands_shuffled":
      return t("ev.shuffled", { name: n(e.seat) });
    case "new_hand":
      return t("ev.new_hand", { n: e.cards.length });
    case "exposed":
      return t("ev.exposed", { name: n(e.seat) });
    case "uno_called":
      return t("ev.uno", { name: n(e.seat) });
    case "caught":
      return t("ev.caught", { name: n(e.catcher), target: n(e.target), n: e.penalty });
    case "false_catch":
      return t("ev.false_catch", { name: n(e.catcher), target: n(e.target), n: e.penalty });
    case "false_uno":
      return t("ev.false_uno", { name: n(e.seat), n: e.penalty });
    case "slipped":
      return t("ev.slipped", { name: n(e.seat), n: e.cards.length });
    case "reshuffled":
      return t("ev.reshuffled", { n: e.count });
    case "revealed":
      return t("ev.revealed", { name: n(e.seat), card: cardName(e.card) });
    case "knocked_out":
      return t("ev.knocked_out", { name: n(e.seat), n: e.cards });
    case "round_ended":
      return e.winner === null || e.winner === undefined
        ? t("ev.round_blocked")
        : t("ev.round_won", { name: n(e.winner), n: e.points });
    case "match_ended":
      return t("ev.match_won", { names: namesList(state, e.winners) });
    default:
      return "";
  }
}

/** Several seats' names as a list in the page's language. */
export function namesList(state, seats) {
  const names = seats.map((s) => `\u2068${nameOf(state, s)}\u2069`);
  try {
    return new Intl.ListFormat(currentLang(), { style: "long", type: "conjunction" }).format(names);
  } catch {
    return names.join(", ");
  }
}
