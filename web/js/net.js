// HTTP API and the WebSocket connection (doc/protocol.md, "Server API").

/** An API error with the server's machine code and English message. */
export class ApiError extends Error {
  /** `details`: the error's data besides its code and message (doc/protocol.md). */
  constructor(status, code, message, details = {}) {
    super(message || code);
    this.status = status;
    this.code = code;
    /** Of a refused move: why, as data. */
    this.why = details.why || null;
    /** Of a refused position (`bad_position`): what is wrong with it, as data. */
    this.problems = details.problems || null;
    /** Of a text that is not JFEN (`bad_jfen`): what is wrong with it, as data. */
    this.syntax = details.syntax || null;
  }
}

/** Calls the HTTP API; JSON in and out. Throws ApiError on a non-2xx answer. */
export async function api(method, path, body) {
  const opts = { method, credentials: 'same-origin', headers: {} };
  if (body !== undefined) {
    opts.headers['content-type'] = 'application/json';
    opts.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, opts);
  } catch (e) {
    throw new ApiError(0, 'network', String(e));
  }
  const type = res.headers.get('content-type') || '';
  const data = type.includes('json') ? await res.json().catch(() => null) : await res.text();
  if (!res.ok) {
    const err = data && data.error ? data.error : {};
    throw new ApiError(res.status, err.code || `http_${res.status}`, err.message, err);
  }
  return data;
}

/**
 * One WebSocket per tab that reconnects by itself after a drop (with backoff) and tells
 * listeners about every message and about its own state ('connecting', 'open', 'closed').
 */
export class Socket {
  constructor() {
    this.ws = null;
    this.handlers = new Set();
    this.stateHandlers = new Set();
    this.state = 'closed';
    this.queue = [];
    this.retry = 0;
    this.timer = null;
    this.wanted = false;
    this.pingTimer = null;
  }

  /** Adds a message listener; returns a function that removes it. */
  on(fn) {
    this.handlers.add(fn);
    return () => this.handlers.delete(fn);
  }

  /** Adds a connection state listener. */
  onState(fn) {
    this.stateHandlers.add(fn);
    return () => this.stateHandlers.delete(fn);
  }

  setState(s) {
    this.state = s;
    for (const fn of this.stateHandlers) fn(s);
  }

  /** Opens the socket (and keeps it open until close()). */
  connect() {
    this.wanted = true;
    if (this.ws && (this.ws.readyState === 0 || this.ws.readyState === 1)) return;
    clearTimeout(this.timer);
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
    this.setState('connecting');
    let ws;
    try {
      ws = new WebSocket(url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      this.setState('open');
      const q = this.queue;
      this.queue = [];
      for (const m of q) ws.send(JSON.stringify(m));
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ t: 'ping' }), 25000);
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      for (const fn of [...this.handlers]) fn(msg);
    };
    ws.onclose = () => {
      clearInterval(this.pingTimer);
      if (this.ws === ws) this.ws = null;
      this.setState('closed');
      if (this.wanted) this.scheduleReconnect();
    };
    ws.onerror = () => {};
  }

  scheduleReconnect() {
    clearTimeout(this.timer);
    const delay = Math.min(8000, 300 * 2 ** this.retry);
    this.retry = Math.min(this.retry + 1, 6);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  /** Closes the socket for good (e.g. on logout). */
  close() {
    this.wanted = false;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }

  /** Drops the connection and lets it reconnect (used after login to pick up the new session). */
  reconnect() {
    if (this.ws) {
      this.ws.close();
    } else {
      this.connect();
    }
  }

  /** Sends a message now, or when the connection is back. */
  send(msg) {
    if (this.ws && this.ws.readyState === 1) {
      this.ws.send(JSON.stringify(msg));
    } else if (msg.t !== 'ping') {
      this.queue.push(msg);
      if (this.wanted) this.connect();
    }
  }
}
