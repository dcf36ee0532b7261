// The rule sets and house rules a host chooses from (as the server offers them), and the switches
// that choose them: written once for the landing page's form and the waiting room's settings.

import { h } from "./dom.js";
import { t } from "./i18n.js";

/**
 * What the server offers (GET /api/options, read from the engine and the bot registry): the
 * presets with every option's value and their seat counts, the bot levels, the defaults. Filled
 * once by loadOptions() before the page draws anything; the bindings below are live.
 */
export let PRESETS = [];
export let BOT_LEVELS = [];
/** The levels the page translates (bot.<name>); the operator's other bots show their own names. */
let TRANSLATED = new Set(["random", "rule-v1", "heuristic", "ismcts"]);
export let DEFAULTS = { preset: "official", seats: 4, bot_level: "heuristic" };
/** The address friends open (the server's public URL setting), else the page's own origin. */
export let PUBLIC_URL = "";
let PRESET_VALUES = {};
let PRESET_SEATS = {};
/** The rule options an online table has unless its host sets them (the server's: uno_grace on). */
let ONLINE_OPTIONS = {};

export async function loadOptions() {
  const res = await fetch("/api/options");
  if (!res.ok) throw new Error(`/api/options: ${res.status}`);
  const doc = await res.json();
  PRESETS = doc.presets.map((p) => p.name);
  PRESET_VALUES = Object.fromEntries(doc.presets.map((p) => [p.name, p.values]));
  PRESET_SEATS = Object.fromEntries(doc.presets.map((p) => [p.name, p.seats]));
  ONLINE_OPTIONS = doc.online_options || {};
  BOT_LEVELS = doc.bot_levels;
  if (Array.isArray(doc.bots)) TRANSLATED = new Set(doc.bots.filter((b) => b.kind === "level").map((b) => b.name));
  DEFAULTS = { ...DEFAULTS, ...doc.defaults };
  PUBLIC_URL = String(doc.public_url || "").replace(/\/$/, "");
  return doc;
}

/** A bot's name as the page shows it: a level translated, an operator's bot or policy as named. */
export function botLabel(level) {
  return TRANSLATED.has(level) ? t(`bot.${level}`) : String(level);
}

/**
 * The house rules offered as switches: option, rule IDs (docs/rules.md), the value a switch
 * turned on gives when the preset has it off, and the off value. Which options are switches is
 * the page's choice; their values are the server's.
 */
export const TOGGLES = [
  { opt: "stacking", ids: "HOUSE-1, HOUSE-2, NM-6", on: "same_kind", off: "none" },
  { opt: "jump_in", ids: "HOUSE-6, HOUSE-7, NET-8", on: true, off: false },
  { opt: "seven_zero", ids: "HOUSE-9, HOUSE-10, NM-13", on: true, off: false },
  { opt: "draw_until_playable", ids: "CL-DRAW-4, NM-4", on: true, off: false },
  { opt: "force_play", ids: "CL-DRAW-3", on: true, off: false },
  { opt: "bounce_draw_two", ids: "HOUSE-13", on: true, off: false },
  { opt: "defend_wd4_with_draw_two", ids: "HOUSE-14", on: true, off: false },
  { opt: "uno_grace", ids: "UNO-GRACE-1, UNO-GRACE-2, UNO-GRACE-3", on: true, off: false },
];

/** Under No Mercy these are fixed (7-0 is always on; bounce and defend do not exist there). */
const NO_MERCY_FIXED = new Set(["seven_zero", "bounce_draw_two", "defend_wd4_with_draw_two"]);

/**
 * An option's value at an online table of a preset before its host changes it: the server's
 * online default (uno_grace), else the preset's, else the switch's off value when unknown.
 */
export function presetValue(preset, opt) {
  return ONLINE_OPTIONS[opt] ?? PRESET_VALUES[preset]?.[opt] ?? TOGGLES.find((x) => x.opt === opt).off;
}

export function defaultTarget(preset) {
  return PRESET_VALUES[preset]?.target_score ?? 500;
}

/** The seat counts a preset allows. */
export function seatCounts(preset) {
  return PRESET_SEATS[preset] || [2, 3, 4, 5, 6, 7, 8, 9, 10];
}

/**
 * The house-rule switches as a fieldset. `prefix` makes the ids unique on the page ("opt" on the
 * landing page, "set-opt" in the waiting room). set(preset, options) shows a preset with the given
 * option overrides; read(preset) gives the overrides the switches ask for (only those that differ
 * from the preset, so a table keeps the preset's own values, such as No Mercy's stacking by value).
 */
export function houseSwitches(prefix) {
  const element = h("fieldset", { class: "toggles", id: `${prefix}-switches` }, h("legend", { text: t("create.house") }));
  const boxes = {};
  for (const tg of TOGGLES) {
    const id = `${prefix}-${tg.opt}`;
    const box = h("input", { type: "checkbox", id, name: tg.opt, role: "switch", "data-key": id });
    boxes[tg.opt] = box;
    element.append(
      h(
        "label",
        { class: "toggle", for: id },
        box,
        h("span", { class: "toggle-text" },
          h("strong", {}, t(`opt.${tg.opt}`), " ",
            h("a", {
              href: `/rules#opt-${tg.opt}`, class: "rule-link", target: "_blank", rel: "noopener",
              "aria-label": t("rules.about", { name: t(`opt.${tg.opt}`) }), text: "?",
            })),
          // (the rule IDs are on the rules page, beside each rule's section: "?" opens it)
          h("span", { class: "hint", text: t(`opt.${tg.opt}.desc`) })),
      ),
    );
  }
  const set = (preset, options = {}) => {
    for (const tg of TOGGLES) {
      const v = options[tg.opt] ?? presetValue(preset, tg.opt);
      boxes[tg.opt].checked = v !== tg.off;
      boxes[tg.opt].disabled = preset === "no-mercy" && NO_MERCY_FIXED.has(tg.opt);
    }
  };
  const read = (preset) => {
    const options = {};
    for (const tg of TOGGLES) {
      if (boxes[tg.opt].disabled) continue;
      const base = presetValue(preset, tg.opt);
      const wanted = boxes[tg.opt].checked ? (base !== tg.off ? base : tg.on) : tg.off;
      if (wanted !== base) options[tg.opt] = wanted;
    }
    return options;
  };
  return { element, boxes, set, read };
}
