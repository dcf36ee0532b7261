// The rules page ("/rules"): the basics, every preset and every house rule, in the project's own
// words and in the page's language. Each preset and house rule has a stable anchor
// (#preset-NAME, #opt-NAME) that the landing page and the house-rule switches link to. The text
// follows docs/rules.md, whose rule IDs are shown beside each section.

import { clear, h } from "./dom.js";
import { t } from "./i18n.js";
import { PRESETS, TOGGLES } from "./options.js";

/** The basics: one paragraph each (key rules.NAME) with the rule IDs it summarises. */
const BASICS = [
  ["setup", "SET-4, SET-5"],
  ["b1", "CL-TURN-1, CL-TURN-2, CL-DRAW-1, CL-DRAW-2"],
  ["actions", "CL-ACT-1 – CL-ACT-5"],
  ["b2", "CL-UNO-2, CL-UNO-5"],
  ["b3", "CL-ACT-6, CL-ACT-10 – CL-ACT-13"],
  ["b4", "CL-END-1, SCORE-2, DECK-8"],
  ["b5", "CL-DRAW-5, SCORE-2"],
];

/** The rule IDs of each preset's section; its text is rules.preset.NAME (and any keys in MORE). */
const PRESET_IDS = {
  official: "PRESET-1, DECK-2",
  house: "PRESET-7",
  "no-mercy": "PRESET-8, DECK-7, NM-1 – NM-19",
  "two-player": "PRESET-5, TWO-1 – TWO-7",
  partners: "PRESET-6, SCORE-9, SCORE-10",
  "official-112-swap": "PRESET-3, DECK-4, CL-ACT-15, CL-END-5",
  "official-112-shuffle": "PRESET-2, DECK-5, CL-ACT-16, CL-END-6",
  "official-112-blank": "PRESET-4, DECK-3, CL-ACT-17",
};

/** Sections with more than one paragraph: the keys after the first. */
const MORE = { "preset-no-mercy": ["rules.preset.no-mercy.2"] };

const ids = (text) => (text ? h("span", { class: "rule-ids", dir: "ltr", text: text }) : null);

function section(id, title, keys, ruleIds) {
  return h("section", { class: "rules-section", id, "aria-labelledby": `${id}-title` },
    h("h3", { id: `${id}-title` }, title, " ", ids(ruleIds)),
    [...keys, ...(MORE[id] || [])].map((k) => h("p", { text: t(k) })));
}

function toc() {
  const item = (href, text, children) => h("li", {}, h("a", { href, text }), children || null);
  return h("nav", { class: "toc", "aria-labelledby": "toc-title" },
    h("h2", { id: "toc-title", text: t("rules.toc") }),
    h("ul", {},
      item("#basics", t("rules.basics")),
      item("#presets", t("rules.presets"),
        h("ul", {}, PRESETS.map((p) => item(`#preset-${p}`, t(`preset.${p}`))))),
      item("#house", t("rules.house"),
        h("ul", {}, TOGGLES.map((tg) => item(`#opt-${tg.opt}`, t(`opt.${tg.opt}`)))))));
}

/** Draw the rules page into root; on the first call, scroll to the section the address names. */
export function renderRules(root, { first = false } = {}) {
  const y = window.scrollY;
  clear(root);
  root.append(
    h("article", { class: "panel rules-page", id: "rules-page" },
      h("p", { class: "back" }, h("a", { href: "/", id: "rules-back", text: t("rules.back") })),
      h("h1", { id: "rules-title", text: t("rules.title") }),
      h("p", { class: "lead", text: t("rules.lead") }),
      toc(),
      h("section", { id: "basics", "aria-labelledby": "basics-title" },
        h("h2", { id: "basics-title", text: t("rules.basics") }),
        BASICS.map(([k, r]) => h("p", {}, t(`rules.${k}`), " ", ids(r)))),
      h("section", { id: "presets", "aria-labelledby": "presets-title" },
        h("h2", { id: "presets-title", text: t("rules.presets") }),
        PRESETS.map((p) => section(`preset-${p}`, t(`preset.${p}`), [`rules.preset.${p}`], PRESET_IDS[p]))),
      h("section", { id: "house", "aria-labelledby": "house-title" },
        h("h2", { id: "house-title", text: t("rules.house") }),
        h("p", { text: t("rules.house.lead") }),
        TOGGLES.map((tg) => section(`opt-${tg.opt}`, t(`opt.${tg.opt}`), [`rules.opt.${tg.opt}`], tg.ids))),
      h("p", { class: "back" }, h("a", { href: "/", text: t("rules.back") }))),
  );
  const target = first ? sectionOf(location.hash) : null;
  if (target) target.scrollIntoView();
  else if (!first) window.scrollTo(0, y); // a change of language keeps the reader's place
}

/** The element a fragment ("#opt-jump_in") names, if any: the page is drawn after the browser looked. */
function sectionOf(hash) {
  try {
    return hash.length > 1 ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
  } catch {
    return null; // a malformed fragment
  }
}
