// The console's connection to one competition: its document (polled from the read model),
// the venue's tables, and commands posted at the version last seen.
//
//   const desk = new Desk(id); desk.addEventListener("change", render); desk.start();
//   await desk.command({ type: "MakeDraw", seed: 7 });   // 409 → refresh and try once more

import { request, ApiError } from "/js/api.js";

export class Desk extends EventTarget {
  constructor(id) {
    super();
    this.id = id;
    this.doc = null;
    this.tables = [];
    this.version = 0;
    this.timer = null;
  }

  start(interval = 700) {
    this.refresh();
    this.timer = setInterval(() => this.refresh(), interval);
    return this;
  }

  stop() { clearInterval(this.timer); }

  async refresh() {
    try {
      const [doc, tables] = await Promise.all([
        request("GET", `/api/competitions/${this.id}`),
        request("GET", `/api/tables?competition=${this.id}`),
      ]);
      const seen = JSON.stringify([doc.version, tables]);
      if (seen === this.seen) return; // re-render only when something changed
      this.seen = seen;
      this.doc = doc;
      this.tables = tables;
      this.version = Math.max(this.version, doc.version);
      this.dispatchEvent(new Event("change"));
    } catch (error) {
      this.dispatchEvent(new CustomEvent("error", { detail: error }));
    }
  }

  /** Post a command; on a stale version (results flow in all the time) retry at the new one. */
  async command(command, attempts = 3) {
    for (let i = 1; ; i++) {
      const body = { command_id: crypto.randomUUID(), expected_version: this.version,
                     command: { at: "", ...command } };
      try {
        const reply = await request("POST", `/api/competitions/${this.id}/commands`, body);
        this.version = reply.last_version;
        // Stored either way; if the read model is slow (503), the next poll shows it.
        await this.settle(reply.positions.at(-1)).catch(() => {});
        return reply;
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 409 || i >= attempts) throw error;
        this.version = error.problem.current_version;
      }
    }
  }

  /** Read our own write: wait for the read model to reach a position, then re-render. */
  async settle(position) {
    this.doc = await request("GET", `/api/competitions/${this.id}?min_position=${position}`);
    this.version = Math.max(this.version, this.doc.version);
    this.dispatchEvent(new Event("change"));
  }
}
