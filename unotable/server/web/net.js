// The websocket to a table (docs/protocol.md): hello with the seat token, the host token and the
// last sequence number seen (all kept in localStorage per table), then messages both ways. When the
// connection drops it reconnects by itself, with a growing pause, and says so; when another tab or
// device takes the seat over it stops and offers to take it back.

const key = (table, what) => `ut:${what}:${table}`;

/** The protocol's close codes and reconnect reasons (docs/protocol.schema.json, "codes"). */
export const CLOSE = Object.freeze({ TAKEN_OVER: 4001, NO_TABLE: 4004 });
export const RECONNECT = Object.freeze({ TAKEN_OVER: "taken_over", RESTART: "restart" });

export const store = {
  get(table, what) {
    return localStorage.getItem(key(table, what));
  },
  set(table, what, value) {
    if (value === null || value === undefined) localStorage.removeItem(key(table, what));
    else localStorage.setItem(key(table, what), String(value));
  },
};

export class Connection {
  /**
   * @param {string} table the table id
   * @param {(msg: object) => void} onMessage every server message, in order
   * @param {(state: string) => void} onState "connecting" | "open" | "reconnecting" | "taken_over" | "gone"
   */
  constructor(table, onMessage, onState) {
    this.table = table;
    this.onMessage = onMessage;
    this.onState = onState;
    this.ws = null;
    this.retry = 0;
    this.timer = null;
    this.pinger = null;
    this.stopped = false;
    this.state = "connecting";
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}/ws/${encodeURIComponent(this.table)}`;
  }

  setState(state) {
    this.state = state;
    this.onState(state);
  }

  open() {
    this.stopped = false;
    clearTimeout(this.timer);
    this.setState(this.retry ? "reconnecting" : "connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      const hello = { type: "hello" };
      const token = store.get(this.table, "seat");
      const host = store.get(this.table, "host");
      const last = store.get(this.table, "seq");
      if (token) hello.token = token;
      if (host) hello.host_token = host;
      if (last !== null && /^\d+$/.test(last)) hello.last_seq = Number(last);
      ws.send(JSON.stringify(hello));
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: "ping" }), 20000);
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg.type === "welcome") {
        this.retry = 0;
        this.setState("open");
      }
      if (msg.type === "token") store.set(this.table, "seat", msg.token);
      if (msg.type === "reconnect" && msg.reason === RECONNECT.TAKEN_OVER) this.takenOver = true;
      this.onMessage(msg);
      if (typeof msg.seq === "number" && msg.type !== "error") store.set(this.table, "seq", msg.seq);
    };
    ws.onclose = (ev) => {
      clearInterval(this.pinger);
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped) return;
      if (ev.code === CLOSE.TAKEN_OVER || this.takenOver) {
        this.takenOver = false;
        this.setState("taken_over");
        return;
      }
      if (ev.code === CLOSE.NO_TABLE) {
        this.setState("gone");
        return;
      }
      this.retry += 1;
      this.setState("reconnecting");
      const pause = Math.min(8000, 300 * 2 ** Math.min(this.retry, 5)) * (0.75 + Math.random() / 2);
      this.timer = setTimeout(() => this.open(), pause);
    };
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  /** Drop the connection as a network failure would (the page reconnects by itself). */
  drop() {
    if (this.ws) this.ws.close(4000, "dropped");
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }
}
