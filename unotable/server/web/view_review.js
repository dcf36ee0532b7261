// "Review this match" in the match summary: the viewer's own seat's decisions, judged by the
// server in the background (POST /t/ID/review with the seat token, docs/howto/review-a-match.md).
// The page asks, shows the progress the server answers (with its estimate of the time left), asks
// again until the review is done, then lists the costliest decisions (round and turn, the loss in
// points of win chance) with the better action. Once asked, a reload asks at once (the server
// keeps the review with the table, so it answers straight away). Each match of the table (after a
// rematch) has its own review, told apart by its seed commitment. A quicker, rougher review:
// localStorage "ut:review_worlds" (20 worlds a decision up to the server's default: 1000 in the
// native core, 400 in Python).

import { cardList, cardName, parseAction } from "./cards.js";
import { h } from "./dom.js";
import { currentLang, t } from "./i18n.js";
import { store } from "./net.js";

const POLL_MS = 600;

/** An action of the review in words: a card (and the color it names), or draw, pass, ... */
export function actionWords(text) {
  const a = parseAction(text);
  if (a.kind === "play") {
    let words = cardName(a.card);
    if (a.color) words += ` · ${t(`color.${a.color}`)}`;
    return words;
  }
  if (["draw", "pass", "accept", "challenge"].includes(a.kind)) return t(`act.${a.kind}`);
  return text;
}

function percent(p) {
  return new Intl.NumberFormat(currentLang(), { style: "percent", maximumFractionDigits: 0 }).format(p);
}

/** "about 40 seconds left" (or minutes), from the server's estimate; "" while it has none. */
function timeLeft(seconds) {
  if (typeof seconds !== "number" || !Number.isFinite(seconds)) return "";
  if (seconds < 90) return t("sum.review_eta_s", { n: Math.max(1, Math.round(seconds)) });
  return t("sum.review_eta_min", { n: Math.round(seconds / 60) });
}

/** The match the summary shows: its seed commitment (a table's matches each have their own). */
function matchKey(page) {
  return page.state.table?.deal?.commitment || "match";
}

/** Ask the server (once now, then every POLL_MS while it is computed); redraw on each answer. */
export function requestReview(page) {
  const token = store.get(page.tableId, "seat");
  if (!token || page.review?.polling) return;
  const key = matchKey(page);
  store.set(page.tableId, "review", key);
  page.review = { key, status: "starting", done: 0, total: 0, polling: true };
  const worlds = Number(localStorage.getItem("ut:review_worlds")) || undefined;
  const ask = async () => {
    let answer;
    try {
      const resp = await fetch(`/t/${page.tableId}/review`, {
        method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token, worlds }),
      });
      answer = { http: resp.status, ...(await resp.json()) };
    } catch {
      answer = { http: 0, code: "offline" };
    }
    if (page.review?.key !== key) return; // another match's summary by now
    if (answer.http === 202 || answer.http === 200) {
      page.review = { ...answer, key, polling: answer.http === 202 };
    } else {
      page.review = { key, status: "failed", code: answer.code, polling: false };
    }
    page.render();
    if (page.review.polling) setTimeout(ask, POLL_MS);
  };
  page.render();
  ask();
}

/** The review's part of the summary: the button, the progress, or the costliest decisions. */
export function renderReview(page) {
  const me = page.state.you.seat;
  if (me === null || me === undefined || !store.get(page.tableId, "seat")) return null;
  if (page.review && page.review.key !== matchKey(page)) page.review = null;
  if (!page.review && store.get(page.tableId, "review") === matchKey(page)) queueMicrotask(() => requestReview(page));
  const r = page.review;
  const box = h("section", { class: "review", id: "review", "aria-labelledby": "review-title", "aria-busy": r?.polling ? "true" : "false" });
  if (!r) {
    box.append(
      h("button", { type: "button", class: "button", id: "review-btn", "data-key": "review", text: t("sum.review"), onclick: () => requestReview(page) }),
      h("p", { class: "hint", id: "review-title", text: t("sum.review_hint") }));
    return box;
  }
  if (r.status === "failed") {
    box.append(h("p", { class: "error", id: "review-title", role: "alert", text: t("sum.review_failed") }));
    return box;
  }
  if (r.status !== "done") {
    let text = r.status === "queued" ? t("sum.review_queued")
      : r.total ? t("sum.review_running", { done: r.done, total: r.total }) : t("sum.review_starting");
    const left = timeLeft(r.eta_s);
    if (r.status === "running" && left) text += ` · ${left}`;
    box.append(
      h("p", { id: "review-title", role: "status", text }),
      h("progress", { id: "review-progress", max: r.total || 1, value: r.total ? r.done : null, "aria-labelledby": "review-title" }));
    return box;
  }
  box.append(h("h3", { id: "review-title", text: t("sum.review_title") }));
  if (!r.worst.length) {
    box.append(h("p", { class: "hint", id: "review-none", text: t("sum.review_none") }));
    return box;
  }
  box.append(h("p", { class: "hint review-unit", id: "review-unit", text: t("sum.review_unit") }));
  box.append(h("ol", { class: "review-list", id: "review-list" }, r.worst.map((d) => {
    const noisy = d.cost < 2 * d.stderr;
    const played = d.chances.find(([a]) => a === d.played);
    return h("li", { class: `review-item${noisy ? " noisy" : ""}`, "data-index": d.index, "data-turn": d.turn ?? "" },
      h("span", { class: "review-cost", text: t("sum.review_cost", { n: Math.round(100 * d.cost) }) }),
      h("span", { class: "review-text", text: t("sum.review_line", {
        round: d.round, turn: d.turn ?? "–", played: actionWords(d.played), p: percent(played ? played[1] : 0),
        best: actionWords(d.best), b: percent(d.chances[0][1]),
      }) }),
      h("small", { class: "review-hand", text: t("sum.review_hand", { cards: cardList(d.hand, currentLang()) }) + (noisy ? ` · ${t("sum.review_noise")}` : "") }));
  })));
  return box;
}
