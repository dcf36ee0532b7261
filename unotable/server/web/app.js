// The browser table's entry point: picks the language, then draws the landing page ("/"), the
// rules page ("/rules"), a match's verify page ("/t/ID/verify") or a table ("/t/ID") and connects
// it. Plain ES modules, no build step.

import { initialLang, onLangChange, setLang } from "./i18n.js";
import { renderLanding } from "./landing.js";
import { Connection, store } from "./net.js";
import { loadOptions } from "./options.js";
import { checkServer, registerWorker } from "./pwa.js";
import { renderRules } from "./rules.js";
import { played } from "./sound.js";
import { TablePage } from "./table.js";
import { loadVerify, renderVerifyPage } from "./view_verify.js";

async function main() {
  const main = document.getElementById("main");
  const select = document.getElementById("lang-select");
  await setLang(initialLang(), false);
  select.value = document.documentElement.lang;
  select.addEventListener("change", () => setLang(select.value));
  registerWorker();
  if (!(await checkServer())) return;
  await loadOptions(); // the presets, house options and bot levels, from the server

  if (location.pathname === "/rules") {
    document.getElementById("help-link").setAttribute("aria-current", "page");
    renderRules(main, { first: true });
    onLangChange(() => renderRules(main));
    return;
  }
  const checking = /^\/t\/([A-Za-z0-9_-]+)\/verify\/?$/.exec(location.pathname);
  if (checking) { // the verify page: the check of a finished match, in the page's language
    const found = await loadVerify(main, checking[1]);
    renderVerifyPage(main, found);
    onLangChange(() => renderVerifyPage(main, found));
    return;
  }
  const match = /^\/t\/([A-Za-z0-9_-]+)\/?$/.exec(location.pathname);
  if (!match) {
    renderLanding(main);
    onLangChange(() => renderLanding(main));
    return;
  }
  const tableId = match[1];
  // the rules open beside the table, which stays connected
  Object.assign(document.getElementById("help-link"), { target: "_blank", rel: "noopener" });
  // a private link from another device ("#seat=TOKEN&host=TOKEN") takes the seat over here; the
  // fragment never reaches the server, and it is removed from the address at once
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (fragment.get("seat") || fragment.get("host")) {
    if (fragment.get("seat")) store.set(tableId, "seat", fragment.get("seat"));
    if (fragment.get("host")) store.set(tableId, "host", fragment.get("host"));
    store.set(tableId, "seq", null);
    history.replaceState(null, "", location.pathname);
  }
  let page = null;
  const conn = new Connection(tableId, (msg) => page.handle(msg), (state) => page.setConn(state));
  page = new TablePage(main, tableId, conn);
  onLangChange(() => {
    page.setConn(conn.state);
    page.render();
  });
  window.unotable = { conn, page, sounds: played }; // for the browser tests and the curious
  conn.open();
}

main();
