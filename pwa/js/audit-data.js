// What the auditor's face reads: the session (its own token, kept apart from a judge's), the
// match record, the board at any version, the chain check, and the JSON Lines download.
//
//   import { audit } from "/js/audit-data.js";
//   await audit.login(user, password);   audit.loggedIn
//   const record = await audit.record(id);          // [{version, type, event, rule, recorder, …}]
//   const doc = await audit.at(id, version);        // the live document after that version
//   const { intact, broken_version } = await audit.verify(id);
//   await audit.download(id);                       // saves match-<id>.jsonl

import { ApiError, download, request } from "/js/api.js";

const KEY = "tableside.audit-token";

function stored() {
  try { return localStorage.getItem(KEY); } catch { return null; }
}

function remember(token) {
  try {
    if (token) localStorage.setItem(KEY, token);
    else localStorage.removeItem(KEY);
  } catch { /* storage disabled: the session lasts as long as the page */ }
}

class AuditData {
  constructor() {
    this.token = stored();
    this.states = new Map(); // "id@version" -> live document (an old version never changes)
  }

  get loggedIn() { return Boolean(this.token); }

  auth() {
    return { headers: this.token ? { Authorization: `Bearer ${this.token}` } : {} };
  }

  async login(username, password) {
    const reply = await request("POST", "/api/login", { username, password });
    if (!["auditor", "head_judge"].includes(reply.role)) {
      throw new ApiError(403, { title: "Forbidden", detail: reply.role });
    }
    this.token = reply.token;
    remember(this.token);
    return reply;
  }

  logout() {
    this.token = null;
    remember(null);
  }

  /** Run a request; a 401 forgets the token so the face can ask for a login again. */
  async call(method, url) {
    try {
      return await request(method, url, undefined, this.auth());
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) this.logout();
      throw error;
    }
  }

  record(id) { return this.call("GET", `/api/matches/${id}/record`); }

  /** One page of the finder (GET /api/audit/matches with these URLSearchParams). */
  find(params) { return this.call("GET", `/api/audit/matches?${params}`); }

  verify(id) { return this.call("GET", `/api/matches/${id}/verify`); }

  async at(id, version) {
    const key = `${id}@${version}`;
    if (!this.states.has(key)) {
      this.states.set(key, request("GET", `/api/matches/${id}/at/${version}`).catch((error) => {
        this.states.delete(key);
        throw error;
      }));
    }
    return this.states.get(key);
  }

  /** Fetch the export with the session and hand it to the browser as a file. */
  async download(id) {
    await download(`/api/matches/${id}/record.jsonl`, `match-${id}.jsonl`, this.auth());
  }
}

export const audit = new AuditData();
