// Beside (or under) the table: what happened (the log), the chat, the private link that moves a
// seat to another device, the notification switch, the spectators, the match's seed commitment
// ("Fair deals"); and the sound setting, which sits in the top bar, where a phone shows it (at
// the bottom of the page nobody found it).

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { shareBox } from "./landing.js";
import { store } from "./net.js";
import { askNotifications, canAskNotifications, setSoundMode, SOUND_MODES, soundMode } from "./sound.js";
import { describe } from "./words.js";

export function renderSide(page) {
  const state = page.state;
  const you = state.you;
  const seated = you.seat !== null && you.seat !== undefined;
  const side = h("aside", { class: "side" });
  // each scrollable list is a stop of the tab order (a keyboard scrolls it), with its name
  const log = h("ol", { class: "log", id: "log", "aria-label": t("log.label"), tabindex: 0 });
  for (const line of state.log.slice(-60)) {
    const text = describe(state, line.e);
    if (text) log.append(h("li", { text }));
  }
  const chatList = h("ol", { class: "chat-list", id: "chat-list", "aria-label": t("chat.title"), tabindex: 0 });
  for (const c of state.chat.slice(-50)) chatList.append(h("li", {}, h("strong", { text: `${c.name}: ` }), h("bdi", { text: c.text })));
  const input = h("input", { type: "text", id: "chat-input", "data-key": "chat-input", maxlength: 200, "aria-label": t("chat.placeholder"), placeholder: t("chat.placeholder"), autocomplete: "off" });
  input.value = page.drafts.chat || "";
  input.addEventListener("input", () => { page.drafts.chat = input.value; });
  const canChat = seated || you.host;
  const form = h("form", { class: "chat-form", id: "chat-form" }, input, h("button", { type: "submit", text: t("chat.send") }));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    page.send({ type: "chat", text });
    input.value = "";
    page.drafts.chat = "";
    // a phone (the table above the chat, one column): the keyboard goes and the table comes back
    if (matchMedia("(max-width: 899px)").matches) {
      input.blur();
      page.root.querySelector(".play, .waiting")?.scrollIntoView({ block: "start" });
    }
  });
  const token = store.get(page.tableId, "seat");
  const hostToken = store.get(page.tableId, "host");
  let move = null;
  if ((token && seated) || (hostToken && you.host)) {
    const params = new URLSearchParams();
    if (token && seated) params.set("seat", token);
    if (hostToken && you.host) params.set("host", hostToken);
    const link = `${location.origin}/t/${page.tableId}#${params}`;
    move = h("details", { class: "move-box" },
      h("summary", { text: t("move.title") }),
      h("p", { class: "hint", text: t("move.hint") }),
      shareBox(link, { compact: true, id: "move" }));
  }
  const notify = seated && canAskNotifications()
    ? h("button", { type: "button", id: "notify", "data-key": "notify", text: t("sound.notify"), onclick: () => askNotifications().then(() => page.render()) })
    : null;
  const fair = fairDeals(page);
  // (a DOM append prints null as "null": only the parts there are)
  side.append(...[
    h("details", { class: "log-box", open: true }, h("summary", { text: t("log.title") }), log),
    h("details", { class: "chat-box", open: true }, h("summary", { text: t("chat.title") }), chatList, canChat ? form : h("p", { class: "hint", text: t("chat.spectator") })),
    notify ? h("div", { class: "signals row" }, notify) : null,
    h("p", { class: "hint", text: t("table.spectators", { n: state.table.spectators }) }),
    fair,
    move].filter(Boolean));
  queueMicrotask(() => {
    log.scrollTop = log.scrollHeight;
    chatList.scrollTop = chatList.scrollHeight;
  });
  return side;
}

/**
 * "Fair deals": the seed commitment the server published before the match's first deal, shown
 * while the match is played, so that a player can compare it with the one the verify page checks
 * once the match is over (and the seed revealed); then a link to that page.
 */
function fairDeals(page) {
  const deal = page.state.table?.deal;
  if (!deal?.commitment) return null;
  const revealed = deal.seed !== null && deal.seed !== undefined;
  return h("details", { class: "fair-box", id: "fair-deals" },
    h("summary", { text: t("fair.title") }),
    h("p", { class: "hint", text: t("fair.hint") }),
    h("code", { class: "verify-code", id: "fair-commitment", dir: "ltr", text: deal.commitment }),
    revealed
      ? h("p", {}, h("a", { href: `/t/${page.tableId}/verify`, id: "fair-verify", target: "_blank", rel: "noopener", text: t("sum.verify") }))
      : h("p", { class: "hint", text: t("fair.later") }));
}

/**
 * The sound setting, in the top bar: the sounds that matter to you (the default), all of them, or
 * none. A select: a phone opens its own picker, a screen reader reads its name and value.
 */
export function renderSoundSetting(slot) {
  if (!slot) return;
  const select = h("select", { id: "sound-mode", "data-key": "sound-mode", title: t("sound.hint") },
    SOUND_MODES.map((m) => h("option", { value: m, text: t(`sound.${m}`) })));
  select.value = soundMode();
  select.addEventListener("change", () => setSoundMode(select.value));
  slot.replaceChildren(h("label", { class: "sound-setting" }, h("span", { class: "sr-only", text: t("sound.label") }), select));
  slot.hidden = false;
}
