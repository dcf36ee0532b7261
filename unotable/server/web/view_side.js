// Beside (or under) the table: what happened (the log), the chat, the private link that moves a
// seat to another device, the sound and notification switches, the spectators.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { shareBox } from "./landing.js";
import { store } from "./net.js";
import { askNotifications, canAskNotifications, muted, setMuted } from "./sound.js";
import { describe } from "./words.js";

export function renderSide(page) {
  const state = page.state;
  const you = state.you;
  const seated = you.seat !== null && you.seat !== undefined;
  const side = h("aside", { class: "side" });
  const log = h("ol", { class: "log", id: "log", "aria-label": t("log.label") });
  for (const line of state.log.slice(-60)) {
    const text = describe(state, line.e);
    if (text) log.append(h("li", { text }));
  }
  const chatList = h("ol", { class: "chat-list", id: "chat-list" });
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
  const quiet = muted();
  const sound = h("button", {
    type: "button", id: "sound-toggle", class: "sound-toggle", "data-key": "sound-toggle", "aria-pressed": quiet ? "false" : "true",
    text: t(quiet ? "sound.off" : "sound.on"),
    onclick: () => { setMuted(!muted()); page.render(); },
  });
  const notify = seated && canAskNotifications()
    ? h("button", { type: "button", id: "notify", "data-key": "notify", text: t("sound.notify"), onclick: () => askNotifications().then(() => page.render()) })
    : null;
  // (a DOM append prints null as "null": only the parts there are)
  side.append(...[
    h("details", { class: "log-box", open: true }, h("summary", { text: t("log.title") }), log),
    h("details", { class: "chat-box", open: true }, h("summary", { text: t("chat.title") }), chatList, canChat ? form : h("p", { class: "hint", text: t("chat.spectator") })),
    h("div", { class: "signals row" }, sound, notify),
    h("p", { class: "hint", text: t("table.spectators", { n: state.table.spectators }) }),
    move].filter(Boolean));
  queueMicrotask(() => {
    log.scrollTop = log.scrollHeight;
    chatList.scrollTop = chatList.scrollHeight;
  });
  return side;
}
