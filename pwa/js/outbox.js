// The judge's outbox: commands kept in IndexedDB and sent in order until the server has them.
//
//   import { Outbox } from "/js/outbox.js";
//   const outbox = new Outbox().start();       // drains now, on "online", and every 15 s
//   const entry = await outbox.enqueue(`/api/matches/${id}/commands`, { type: "…", … });
//   outbox.addEventListener("change", (e) => e.detail.queued);   // badge count, all tabs
//   outbox.addEventListener("sent", (e) => e.detail.reply);      // the server's answer
//   outbox.addEventListener("conflict", (e) => e.detail.problem); // 409: queue waits for you
//   outbox.addEventListener("rejected", (e) => e.detail.problem); // other 4xx: dropped, shown
//   outbox.addEventListener("error", (e) => e.detail.error);     // IndexedDB itself failed
//   await outbox.resolve(seq, { body })  // after a conflict: send a rebased body (new id)
//   await outbox.discard(seq)            // …or drop the held command
//
// Each entry: { seq, command_id, method, url, body, created, attempts, held }. The body is
// sent with `command_id` added (and `device_id`, and `device_time` = when it was queued,
// unless the body has them); a retry reuses the id, so the server answers a repeat with its
// first answer instead of applying it twice.
//
// Offline, a judge cannot know the version each queued command will meet (a command may
// store several events). Queue later commands with `expected_version: null` and pass
// `beforeSend: chainVersions`: each is then sent at the version the previous one ended on.
//
// Why the queue stops at a 409 instead of going on: later commands were decided on the same
// stale view of the match, so sending them would only pile up refusals. The app shows the
// server's state (the problem's members) and decides. Nothing is ever dropped silently, and
// unlike Workbox's queue there is no retention limit: a judge's record does not expire.

import { headers, parse, ApiError, deviceId, serverFetch } from "/js/api.js";
import * as idb from "/js/idb.js";

const FIRST_DELAY = 1000;

export class Outbox extends EventTarget {
  /**
   * name: IndexedDB database (one per app); interval: ms between periodic drains;
   * maxDelay: cap of the retry backoff; beforeSend(entry, lastReply) → body to send, e.g. to
   * fill `expected_version` from the previous acknowledgement.
   */
  constructor({ name = "tableside-outbox", interval = 15000, maxDelay = 30000, beforeSend } = {}) {
    super();
    this.name = name;
    this.interval = interval;
    this.maxDelay = maxDelay;
    this.beforeSend = beforeSend;
    this.queued = 0;
    this.held = null; // the entry a 409 is holding, if any
    this.lastReply = recall(name); // kept across reloads, so chainVersions survives one
    this.failures = 0;
    this.retryTimer = null;
    this.db = idb.open(name);
    this.channel = "BroadcastChannel" in self ? new BroadcastChannel(name) : null;
    if (this.channel) this.channel.onmessage = () => this.refresh();
  }

  /** Begin draining: now, whenever the browser comes online, and every `interval` ms. */
  start() {
    this.onOnline = () => this.drain({ now: true });
    addEventListener("online", this.onOnline);
    this.ticker = setInterval(() => this.drain(), this.interval);
    this.refresh().then(() => this.drain({ now: true }));
    return this;
  }

  stop() {
    removeEventListener("online", this.onOnline);
    clearInterval(this.ticker);
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  /** Store a command (durably) and start sending; resolves with the stored entry. */
  async enqueue(url, body, { method = "POST" } = {}) {
    const entry = {
      command_id: crypto.randomUUID(), method, url, body,
      created: new Date().toISOString(), attempts: 0, held: null,
    };
    entry.seq = await idb.run(await this.db, "readwrite", (s) => s.add(entry));
    await this.changed();
    this.drain({ now: true });
    return entry;
  }

  /** Every waiting entry, oldest first. */
  async entries() {
    return idb.run(await this.db, "readonly", (s) => s.getAll());
  }

  /** After a conflict: send again, with a new body (and so a new command_id) if given. */
  async resolve(seq, { body } = {}) {
    await this.settled();
    await this.update(seq, (entry) => {
      entry.held = null;
      if (body !== undefined) Object.assign(entry, { body, command_id: crypto.randomUUID() });
    });
    this.held = null;
    await this.changed();
    return this.drain({ now: true });
  }

  /** Drop one entry for good (the app decided it is no longer wanted). */
  async discard(seq) {
    await this.settled();
    await idb.run(await this.db, "readwrite", (s) => s.delete(seq));
    if (this.held?.seq === seq) this.held = null;
    await this.changed();
    return this.drain({ now: true });
  }

  /** Wait out a running drain (quick while an entry is held: it stops at that entry). */
  async settled() {
    while (this.draining) await this.draining;
  }

  /**
   * Send waiting entries one at a time until the queue is empty, held, or the network fails.
   * Only one drain runs per browser (a Web Lock), so two tabs never race the same entry.
   */
  drain({ now = false } = {}) {
    if (now) this.cancelRetry();
    if (this.draining) {
      // The running drain may already have seen an empty queue: make it look once more.
      this.again = true;
      return this.draining;
    }
    if (this.retryTimer) return Promise.resolve();
    const work = () => this.sendAll();
    const locked = navigator.locks
      ? navigator.locks.request(`${this.name}:drain`, { ifAvailable: true }, (lock) => lock && work())
      : work();
    this.again = false;
    // A storage failure must reach the app (it cannot record safely), not vanish unhandled.
    this.draining = locked.catch((error) => this.emit("error", { error })).finally(() => {
      this.draining = null;
      if (this.again) this.drain();
    });
    return this.draining;
  }

  async sendAll() {
    for (;;) {
      const [entry] = await idb.run(await this.db, "readonly", (s) => s.getAll(null, 1));
      if (!entry) return;
      if (entry.held) return this.hold(entry, entry.held);
      // What is stored wins over memory: a drain that raced resolve() may have re-held it.
      if (this.held) this.held = null;
      const outcome = await this.send(entry);
      if (outcome !== "done") return;
    }
  }

  /** One attempt: "done" when the entry left the queue, "wait" when it stays. */
  async send(entry) {
    let reply;
    try {
      reply = await serverFetch(entry.url, {
        method: entry.method,
        headers: headers({ "Content-Type": "application/json" }),
        body: JSON.stringify(this.bodyOf(entry)),
      });
    } catch (error) {
      return this.retryLater(entry, new ApiError(0, { detail: String(error) }));
    }
    try {
      this.lastReply = await parse(reply);
    } catch (error) {
      if (error.retryable) return this.retryLater(entry, error, reply.headers.get("retry-after"));
      if (error.status === 409) {
        const held = { status: error.status, problem: error.problem };
        await this.update(entry.seq, (e) => { e.held = held; });
        return this.hold({ ...entry, held }, held);
      }
      await this.remove(entry);
      this.emit("rejected", { entry, status: error.status, problem: error.problem, error });
      return "done";
    }
    this.failures = 0;
    remember(this.name, this.lastReply);
    await this.remove(entry);
    this.emit("sent", { entry, reply: this.lastReply });
    return "done";
  }

  /** What goes on the wire: the body (via beforeSend), its command_id, device and tap time. */
  bodyOf(entry) {
    const body = { ...(this.beforeSend ? this.beforeSend(entry, this.lastReply) : entry.body) };
    body.command_id = entry.command_id;
    body.device_id ??= deviceId();
    // The auditor needs when the judge tapped, not when the wifi came back.
    body.device_time ??= entry.created;
    return body;
  }

  hold(entry, held) {
    const fresh = this.held?.seq !== entry.seq;
    this.held = entry;
    if (fresh) {
      this.emit("conflict", { entry, status: held.status, problem: held.problem });
      this.changed();
    }
    return "wait";
  }

  async retryLater(entry, error, retryAfter) {
    this.failures += 1;
    await this.update(entry.seq, (e) => { e.attempts += 1; });
    const backoff = Math.min(this.maxDelay, FIRST_DELAY * 2 ** (this.failures - 1));
    // Jitter keeps forty tablets that lost the same wifi from all retrying in step.
    let delay = backoff * (0.5 + Math.random() / 2);
    const asked = Number(retryAfter) * 1000;
    if (asked > delay) delay = Math.min(asked, this.maxDelay * 4);
    this.emit("retry", { entry, delay, error, status: error.status });
    this.retryTimer = setTimeout(() => { this.retryTimer = null; this.drain(); }, delay);
    return "wait";
  }

  cancelRetry() {
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.failures = 0;
  }

  async remove(entry) {
    await idb.run(await this.db, "readwrite", (s) => s.delete(entry.seq));
    await this.changed();
  }

  async update(seq, change) {
    const db = await this.db;
    const entry = await idb.run(db, "readonly", (s) => s.get(seq));
    if (!entry) return;
    change(entry);
    await idb.run(db, "readwrite", (s) => s.put(entry));
  }

  /** Recount, tell this tab's listeners, and let the other tabs recount too. */
  async changed() {
    await this.refresh();
    this.channel?.postMessage("change");
  }

  async refresh() {
    this.queued = await idb.run(await this.db, "readonly", (s) => s.count());
    this.emit("change", { queued: this.queued, held: this.held });
  }

  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }
}

/** beforeSend for match commands: a null expected_version follows the previous reply's. */
export function chainVersions(entry, lastReply) {
  if (entry.body?.expected_version != null || lastReply?.last_version == null) return entry.body;
  return { ...entry.body, expected_version: lastReply.last_version };
}

function remember(name, reply) {
  try { localStorage.setItem(`${name}.lastReply`, JSON.stringify(reply)); } catch { /* in memory only */ }
}

function recall(name) {
  try { return JSON.parse(localStorage.getItem(`${name}.lastReply`)); } catch { return null; }
}
