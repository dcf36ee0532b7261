"""Two small WebDriver clients for the browser tests beyond chromium: Firefox and WebKit.

Playwright's own Firefox and WebKit builds cannot be downloaded here, so the tests drive Debian's
browsers through the protocols they speak themselves:

- Firefox (``firefox-esr``) over WebDriver BiDi, which it serves natively
  (``--remote-debugging-port``): a websocket, JSON commands and events.
- WebKit over classic W3C WebDriver (HTTP and JSON): ``WebKitWebDriver`` (Debian's
  ``webkit2gtk-driver``) launches WebKitGTK's MiniBrowser, the same engine and JavaScriptCore as
  Safari. MiniBrowser has no headless mode, so it runs on a private ``Xvfb`` display.

Both offer the same few calls: ``open(url)`` (navigate and wait for the load), ``evaluate(js)`` (a
JavaScript expression; promises are awaited and the value comes back as JSON) and ``close()``, plus
helpers built on them (``wait_for``, ``click``, ``select``, ``fill``). Page errors (``error`` and
``unhandledrejection`` events) are collected in ``window.__pageErrors`` from each page's start
(BiDi: a preload script; classic: injected right after the load) and read by ``errors()``.

``launch(name)`` raises ``BrowserUnavailable`` with the reason when a browser is missing or does
not start, so that a test can be skipped saying why. Only the standard library and ``websockets``
(in the dev extra) are used.
"""

from __future__ import annotations

import base64
import contextlib
import glob
import json
import os
import select
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

NAMES = ("firefox", "webkit")
VIEWPORT = (1280, 800)

# window.__pageErrors: the page's uncaught errors and unhandled rejections, from its start
ERROR_HOOK = """() => {
  if (window.__pageErrors) return;
  window.__pageErrors = [];
  window.addEventListener("error", (e) => {
    window.__pageErrors.push(`${e.message || e.type} (${e.filename || "?"}:${e.lineno || 0})`);
  });
  window.addEventListener("unhandledrejection", (e) => {
    const r = e.reason;
    window.__pageErrors.push(`unhandled rejection: ${r}${r && r.stack ? `\n${r.stack}` : ""}`);
  });
}"""

# what a person's input into a field fires
EVENTS = (
    "el.dispatchEvent(new Event('input', { bubbles: true }));"
    " el.dispatchEvent(new Event('change', { bubbles: true }));"
)

FIREFOX_PREFS = {
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "browser.aboutwelcome.enabled": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "app.update.disabledForTesting": True,
    "remote.active-protocols": 1,  # WebDriver BiDi only
}


class BrowserUnavailable(Exception):
    """The browser is not installed or did not start; the message says why."""


class JavascriptError(Exception):
    """An expression given to evaluate threw (or its promise rejected)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def tail(path: Path, chars: int = 600) -> str:
    try:
        return path.read_text(errors="replace")[-chars:].strip()
    except OSError:
        return ""


def stop(proc: subprocess.Popen[bytes] | None, seconds: float = 10.0) -> None:
    if proc is None or proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(seconds)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(seconds)


class Browser(ABC):
    """One browser, one page (a top-level browsing context)."""

    name: str
    version: str = "?"

    @abstractmethod
    def open(self, url: str) -> None:
        """Navigate the page to url and wait until it has loaded."""

    @abstractmethod
    def evaluate(self, expression: str) -> Any:
        """The JSON value of a JavaScript expression in the page (a promise is awaited)."""

    @abstractmethod
    def close(self) -> None:
        """End the session and stop every process this browser started."""

    @abstractmethod
    def screenshot_png(self) -> bytes:
        """The page's viewport as a PNG image."""

    def screenshot(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(self.screenshot_png())

    # -- helpers built on evaluate -------------------------------------------------------------------

    @staticmethod
    def wrap(expression: str) -> str:
        """An expression whose value is the JSON text of [true, expression's awaited value], or of
        [false, the error] when it throws (both protocols then answer alike: a string)."""
        return (
            f"(async () => {{ try {{ return JSON.stringify([true, await ({expression})]); }}"
            " catch (e) {"
            " return JSON.stringify([false, String(e && e.stack ? `${e}\\n${e.stack}` : e)]); } })()"
        )

    def unwrap(self, text: Any, expression: str) -> Any:
        """The value from wrap's JSON text; JavascriptError for an error."""
        if not isinstance(text, str):
            raise JavascriptError(f"{self.name}: no result from {expression[:200]}")
        ok, value = json.loads(text)
        if not ok:
            raise JavascriptError(f"{self.name}: {value} in {expression[:200]}")
        return value

    def wait_for(self, expression: str, timeout: float = 10.0, what: str = "") -> Any:
        """Poll expression until its value is truthy, and return that value."""
        deadline = time.monotonic() + timeout
        delay = 0.02
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.name}: waited {timeout}s for {what or expression}")
            time.sleep(delay)  # a polling interval, not a fixed wait for something to happen
            delay = min(delay * 1.5, 0.2)

    def wait_selector(self, selector: str, timeout: float = 10.0) -> None:
        self.wait_for(f"!!document.querySelector({json.dumps(selector)})", timeout, selector)

    def on_element(self, selector: str, body: str, failure: str) -> None:
        """Run body (statements, the element bound to el; false stops it) on the first match."""
        ok = self.evaluate(
            f"(() => {{ const el = document.querySelector({json.dumps(selector)});"
            f" if (!el) return false; {body} return true; }})()"
        )
        if not ok:
            raise AssertionError(f"{self.name}: {failure} at {selector}")

    def click(self, selector: str) -> None:
        """element.click() on the first match (it must exist)."""
        self.on_element(selector, "el.click();", "nothing to click")

    def select(self, selector: str, value: str) -> None:
        """Choose an option of a select and dispatch "change" as a person's choice would."""
        v = json.dumps(value)
        self.on_element(
            selector,
            f"if (![...el.options].some((o) => o.value === {v})) return false; el.value = {v}; {EVENTS}",
            f"no option {value!r}",
        )

    def fill(self, selector: str, value: str) -> None:
        """Set an input's value and dispatch "input" and "change"."""
        self.on_element(selector, f"el.focus(); el.value = {json.dumps(value)}; {EVENTS}", "no field")

    def errors(self) -> list[str]:
        """The page's uncaught errors and unhandled rejections since it loaded."""
        found = self.evaluate("window.__pageErrors || ['the error hook is missing']")
        return [str(e) for e in found]


class FirefoxBiDi(Browser):
    """firefox-esr, headless, driven over WebDriver BiDi."""

    name = "firefox"

    def __init__(self, binary: str) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="ut-firefox-"))
        self.proc: subprocess.Popen[bytes] | None = None
        self.ws: ClientConnection | None = None
        self.stack = contextlib.ExitStack()  # the websocket, entered as its context manager
        self.next_id = 0
        self.log_errors: list[str] = []
        try:
            self.start(binary)
        except BaseException:
            self.close()
            raise

    def start(self, binary: str) -> None:
        profile = self.dir / "profile"
        profile.mkdir()
        (profile / "user.js").write_text(
            "".join(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n" for k, v in FIREFOX_PREFS.items())
        )
        log = self.dir / "stderr.log"
        with log.open("wb") as err:
            self.proc = subprocess.Popen(
                [binary, "--headless", "--no-remote", "--profile", str(profile),
                 "--remote-debugging-port", "0"],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err,
                env={**os.environ, "MOZ_CRASHREPORTER_DISABLE": "1"},
            )
        # "WebDriver BiDi listening on ws://127.0.0.1:PORT" (port 0: Firefox picks a free one)
        deadline = time.monotonic() + 60
        address = None
        while address is None:
            for line in log.read_text(errors="replace").splitlines():
                if "WebDriver BiDi listening on " in line:
                    address = line.split("listening on ", 1)[1].strip()
            if address is None:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise BrowserUnavailable(
                        f"firefox-esr did not start its WebDriver BiDi server: {tail(log)}")
                time.sleep(0.05)  # polling its log
        self.ws = self.stack.enter_context(connect(address + "/session", max_size=None, open_timeout=30))
        caps = self.command("session.new", {"capabilities": {}})["capabilities"]
        self.version = f"Firefox {caps.get('browserVersion', '?')}"
        self.command("session.subscribe", {"events": ["log.entryAdded"]})
        self.command("script.addPreloadScript", {"functionDeclaration": ERROR_HOOK})
        tree = self.command("browsingContext.getTree", {})
        self.context: str = tree["contexts"][0]["context"]
        self.command("browsingContext.setViewport", {
            "context": self.context, "viewport": {"width": VIEWPORT[0], "height": VIEWPORT[1]},
        })

    def command(self, method: str, params: dict[str, Any], timeout: float = 60.0) -> Any:
        assert self.ws is not None
        self.next_id += 1
        mine = self.next_id
        self.ws.send(json.dumps({"id": mine, "method": method, "params": params}))
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"firefox: no answer to {method} in {timeout}s")
            msg = json.loads(self.ws.recv(timeout=left))
            if msg.get("id") == mine:
                if msg.get("type") == "error":
                    raise RuntimeError(f"firefox: {method}: {msg.get('error')}: {msg.get('message')}")
                return msg["result"]
            if msg.get("method") == "log.entryAdded":
                entry = msg["params"]
                if entry.get("level") == "error":
                    self.log_errors.append(f"{entry.get('type')}: {entry.get('text')}")

    def open(self, url: str) -> None:
        self.command("browsingContext.navigate", {"context": self.context, "url": url, "wait": "complete"})

    def evaluate(self, expression: str) -> Any:
        result = self.command("script.evaluate", {
            "expression": self.wrap(expression),
            "target": {"context": self.context},
            "awaitPromise": True,
            "resultOwnership": "none",
        })
        if result["type"] == "exception":
            details = result["exceptionDetails"]
            raise JavascriptError(f"firefox: {details.get('text')} in {expression[:200]}")
        return self.unwrap(result["result"].get("value"), expression)

    def errors(self) -> list[str]:
        return super().errors() + self.log_errors

    def screenshot_png(self) -> bytes:
        data = self.command("browsingContext.captureScreenshot", {"context": self.context})["data"]
        return base64.b64decode(data)

    def close(self) -> None:
        if self.ws is not None:
            # the browser may close the socket before it answers
            with contextlib.suppress(Exception):
                self.command("browser.close", {}, timeout=10)
            self.ws = None
        self.stack.close()
        stop(self.proc)
        shutil.rmtree(self.dir, ignore_errors=True)


class WebKitClassic(Browser):
    """WebKitGTK's MiniBrowser on a private Xvfb display, driven by WebKitWebDriver (HTTP)."""

    name = "webkit"

    def __init__(self, driver: str, minibrowser: str, xvfb: str) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="ut-webkit-"))
        self.xvfb: subprocess.Popen[bytes] | None = None
        self.driver: subprocess.Popen[bytes] | None = None
        self.session: str | None = None
        try:
            self.start(driver, minibrowser, xvfb)
        except BaseException:
            self.close()
            raise

    def start(self, driver: str, minibrowser: str, xvfb: str) -> None:
        # Xvfb writes the display number it took to -displayfd once it is ready
        read, write = os.pipe()
        try:
            with (self.dir / "xvfb.log").open("wb") as err:
                self.xvfb = subprocess.Popen(
                    [xvfb, "-displayfd", str(write), "-screen", "0", "1400x1000x24", "-nolisten", "tcp"],
                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err, pass_fds=(write,),
                )
            os.close(write)
            write = -1
            # read the whole line: Xvfb stops when it cannot write its newline (a closed pipe)
            got = b""
            deadline = time.monotonic() + 30
            while not got.endswith(b"\n") and time.monotonic() < deadline:
                ready, _, _ = select.select([read], [], [], max(0.0, deadline - time.monotonic()))
                chunk = os.read(read, 64) if ready else b""
                if not chunk:
                    break
                got += chunk
            display = got.decode().strip()
        finally:
            os.close(read)
            if write >= 0:
                os.close(write)
        if not display.isdigit():
            raise BrowserUnavailable(f"Xvfb did not start: {tail(self.dir / 'xvfb.log')}")
        env = {**os.environ, "DISPLAY": f":{display}"}
        env.pop("WAYLAND_DISPLAY", None)
        log = self.dir / "driver.log"
        for _ in range(5):  # a free port may be taken between the check and the driver's bind
            port = free_port()
            with log.open("wb") as err:
                self.driver = subprocess.Popen(
                    [driver, f"--port={port}"],
                    stdin=subprocess.DEVNULL, stdout=err, stderr=subprocess.STDOUT, env=env,
                )
            self.base = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 30
            while self.driver.poll() is None and time.monotonic() < deadline:
                try:
                    self.request("GET", "/status", timeout=2)
                    break
                except OSError:
                    time.sleep(0.05)  # polling the driver's port
            else:
                stop(self.driver)
                continue
            break
        else:
            raise BrowserUnavailable(f"WebKitWebDriver did not start: {tail(log)}")
        try:
            value = self.request("POST", "/session", {"capabilities": {"alwaysMatch": {
                "webkitgtk:browserOptions": {"binary": minibrowser, "args": ["--automation"]},
            }}}, timeout=60)
        except (RuntimeError, OSError) as exc:
            raise BrowserUnavailable(
                f"WebKitWebDriver could not start MiniBrowser: {exc!r}: {tail(log)}") from exc
        self.session = value["sessionId"]
        caps = value["capabilities"]
        self.version = f"WebKitGTK {caps.get('browserVersion', '?')} ({caps.get('browserName', '?')})"
        self.command("POST", "window/rect", {"width": VIEWPORT[0], "height": VIEWPORT[1]})

    def request(self, method: str, path: str, body: dict[str, Any] | None = None,
                timeout: float = 60.0) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"content-type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as res:
                return json.load(res)["value"]
        except urllib.error.HTTPError as exc:
            value = json.load(exc).get("value", {})
            if value.get("error") == "javascript error":
                raise JavascriptError(f"webkit: {value.get('message')}") from None
            error = f"{value.get('error')}: {value.get('message')}"
            raise RuntimeError(f"webkit: {method} {path}: {error}") from None

    def command(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        return self.request(method, f"/session/{self.session}/{path}", body)

    def open(self, url: str) -> None:
        self.command("POST", "url", {"url": url})  # returns once the page has loaded
        self.command("POST", "execute/sync", {"script": f"({ERROR_HOOK})();", "args": []})

    def evaluate(self, expression: str) -> Any:
        try:
            script = f"return {self.wrap(expression)};"
            text = self.command("POST", "execute/sync", {"script": script, "args": []})
        except JavascriptError as exc:  # a syntax error: the wrapper itself did not run
            raise JavascriptError(f"{exc} in {expression[:200]}") from None
        return self.unwrap(text, expression)

    def screenshot_png(self) -> bytes:
        return base64.b64decode(self.command("GET", "screenshot"))

    def close(self) -> None:
        if self.session is not None:
            with contextlib.suppress(OSError, RuntimeError):
                self.command("DELETE", "")
            self.session = None
        stop(self.driver)
        stop(self.xvfb)
        shutil.rmtree(self.dir, ignore_errors=True)


def minibrowser() -> str | None:
    for pattern in ("/usr/lib/*/webkit2gtk-4.1/MiniBrowser", "/usr/lib/*/webkit2gtk-4.0/MiniBrowser",
                    "/usr/libexec/webkit2gtk-4.*/MiniBrowser"):
        found = sorted(glob.glob(pattern))
        if found:
            return found[0]
    return None


def launch(name: str) -> Browser:
    """Start the named browser ("firefox" or "webkit"), or raise BrowserUnavailable saying why."""
    if name == "firefox":
        binary = shutil.which("firefox-esr") or shutil.which("firefox")
        if binary is None:
            raise BrowserUnavailable("firefox-esr is not installed (make test installs it)")
        return FirefoxBiDi(binary)
    if name == "webkit":
        driver = shutil.which("WebKitWebDriver")
        browser = minibrowser()
        xvfb = shutil.which("Xvfb")
        if driver is None or browser is None:
            raise BrowserUnavailable("WebKitWebDriver or MiniBrowser is not installed "
                                     "(webkit2gtk-driver; make test installs it)")
        if xvfb is None:
            raise BrowserUnavailable("Xvfb is not installed (xvfb; make test installs it)")
        return WebKitClassic(driver, browser, xvfb)
    raise ValueError(f"no browser named {name!r}")
