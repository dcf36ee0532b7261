// The verify page (/t/ID/verify, ?match=N for an earlier match of the table): the server's check of
// the match's record against the seed commitment it showed at the table before the first deal
// (GET /api/tables/ID/verify, unotable/verify.py), in the player's language: what was checked and
// the result of each check, the commitment to compare with the one the table showed ("Fair deals"),
// each round's deal recomputed from the revealed seed, and the command that checks it anywhere.

import { cardName } from "./cards.js";
import { h } from "./dom.js";
import { num, t } from "./i18n.js";

const CHECKS = ["record", "commitment", "seed", "deals", "final"];

/** Ask the server for the check once; then draw it (and again when the language changes). */
export async function loadVerify(main, tableId) {
  const match = new URLSearchParams(location.search).get("match");
  const query = match ? `?match=${encodeURIComponent(match)}` : "";
  let answer;
  try {
    const resp = await fetch(`/api/tables/${tableId}/verify${query}`);
    answer = { http: resp.status, ...(await resp.json()) };
  } catch {
    answer = { http: 0 };
  }
  return { tableId, answer };
}

function status(ok) {
  const key = ok === true ? "pass" : ok === false ? "fail" : "skip";
  return h("span", { class: `verify-mark ${key}`, text: `${ok === true ? "✓" : ok === false ? "✗" : "–"} ${t(`verify.${key}`)}` });
}

/** A hash, a seed or a command: left to right, wrapped anywhere, selectable. */
function code(text, id) {
  return h("code", { class: "verify-code", dir: "ltr", id, text });
}

function roundsTable(answer) {
  const names = answer.names || [];
  const who = (seat) => names[seat] || `${t("seat.label", { n: seat + 1 })}`;
  return h("table", { class: "standings verify-rounds", id: "verify-rounds" },
    h("caption", { text: t("verify.rounds") }),
    h("thead", {}, h("tr", {}, ["round", "first_card", "moves", "winner", "points"].map((k) => h("th", { scope: "col", text: t(`verify.${k}`) })))),
    h("tbody", {}, answer.result.rounds.map((r) => h("tr", {},
      h("th", { scope: "row", text: num(r.round) }),
      h("td", { text: r.first_card ? cardName(r.first_card) : "–" }),
      h("td", { text: num(r.actions) }),
      h("td", {}, h("bdi", { text: r.points === null ? t("verify.unfinished") : r.winner === null ? t("verify.no_winner") : who(r.winner) })),
      h("td", { text: r.points === null ? "–" : num(r.points) })))));
}

/** The page: the verdict, each check and its result, the rounds, and the command. */
export function renderVerifyPage(main, { tableId, answer }) {
  const back = h("a", { href: `/t/${tableId}`, class: "button", id: "verify-back", text: t("verify.back") });
  const box = h("section", { class: "panel verify-page", id: "verify-page", "aria-labelledby": "verify-title" },
    h("h1", { id: "verify-title", text: t("verify.title") }));
  if (answer.http !== 200) {
    const why = answer.http === 409 ? "verify.not_over" : answer.http === 404 || answer.http === 400 ? "verify.no_table" : "verify.offline";
    box.append(h("p", { class: "lead", id: "verify-verdict", role: "status", "data-verified": "none", text: t(why) }), back);
    main.replaceChildren(box);
    return;
  }
  const failed = answer.failed;
  const at = failed ? CHECKS.indexOf(failed) : CHECKS.length;
  box.append(h("p", { class: `lead verify-verdict ${answer.verified ? "ok" : "bad"}`, id: "verify-verdict", role: "status", "data-verified": String(answer.verified) },
    `${answer.verified ? "✓" : "✗"} ${t(answer.verified ? "verify.ok" : "verify.bad")}`));
  const digest = answer.commitment?.digest;
  box.append(h("dl", { class: "verify-facts" },
    h("dt", { text: t("verify.commitment_label") }),
    h("dd", {}, digest ? code(digest, "verify-commitment") : "–", h("small", { class: "hint", text: t("verify.compare") })),
    h("dt", { text: t("verify.seed_label") }),
    h("dd", {}, answer.seed ? code(answer.seed, "verify-seed") : "–")));
  box.append(h("h2", { text: t("verify.checked") }));
  box.append(h("ol", { class: "verify-checks", id: "verify-checks" }, CHECKS.map((c, i) => h("li", { "data-check": c, "data-ok": i < at ? "true" : i === at ? "false" : "skip" },
    h("span", { class: "verify-check-text", text: t(`verify.check.${c}`) }), " ", status(i < at ? true : i === at ? false : null)))));
  if (!answer.verified) {
    if (answer.failed_round) box.append(h("p", { class: "error", text: t("verify.failed_round", { round: answer.failed_round }) }));
    box.append(h("p", { class: "hint", id: "verify-detail" }, h("bdi", { dir: "ltr", text: t("verify.detail", { text: answer.message }) })));
  }
  if (answer.result?.rounds?.length) box.append(roundsTable(answer));
  box.append(
    h("h2", { text: t("verify.yourself") }),
    h("p", { class: "hint", text: t("verify.yourself_hint") }),
    h("pre", { class: "verify-command", dir: "ltr" }, code(answer.command, "verify-command")),
    h("p", { class: "hint" }, t("verify.file_hint", { cmd: `python3 -m unotable verify ${answer.file}` })),
    h("p", { class: "row" },
      h("a", { href: answer.record, class: "button", download: "", id: "verify-record", text: t("sum.record") }),
      back));
  main.replaceChildren(box);
}
