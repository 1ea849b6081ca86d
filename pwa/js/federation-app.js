// The federation's public face (/; decision 0174): every event of every venue, searchable by
// player, club, event and season; one event as its venue publishes it, with the receipt
// check; a player's page across events; the season's lists. Each view is an address
// (`?event=`, `?player=`, `?list=`, `?q=&season=`), read once from /api/public/…, drawn
// again in place when the reader changes language; `?live=<venue>[&match=<stream>]` follows a
// venue's matches live (federation-live.js, decision 0200).

import { i18n } from "/js/i18n.js";
import { eventView, homeView, listView, notFound, playerView } from "/js/federation-views.js";
import { matchLive, venueLive } from "/js/federation-live.js";

const main = document.getElementById("face");
const asked = new URLSearchParams(location.search);

async function read(path) {
  const reply = await fetch(path, { headers: { accept: "application/json" } });
  if (reply.status === 404) return null;
  if (!reply.ok) throw new Error(`${path}: ${reply.status}`);
  return reply.json();
}

/** The view the address names, and the data it draws from. */
async function load() {
  const event = asked.get("event");
  if (event) return [eventView, await read(`/api/public/events/${event}`)];
  const player = asked.get("player");
  if (player) return [playerView, await read(`/api/public/players/${encodeURIComponent(player)}`)];
  const list = asked.get("list");
  if (list) {
    const edition = asked.get("edition") ? `?edition=${encodeURIComponent(asked.get("edition"))}` : "";
    return [listView, await read(`/api/public/rankings/${list}${edition}`)];
  }
  const q = asked.get("q") || "";
  const season = asked.get("season") || "";
  const query = new URLSearchParams({ q, ...(season ? { season } : {}) });
  const [events, players, lists] = await Promise.all([
    read(`/api/public/events?${query}`), q ? read(`/api/public/players?${new URLSearchParams({ q })}`) : { players: [] },
    read("/api/public/rankings")]);
  return [homeView, { q, season, events, players, lists }];
}

/** `?live=<venue>[&match=<stream>]`: followed live (federation-live.js). */
function liveView(venue) {
  const root = document.createElement("section");
  root.className = "stack spectator";
  main.replaceChildren(root);
  if (asked.get("match")) matchLive(root, venue, asked.get("match"));
  else venueLive(root, venue);
}

/** Every other view: read once, drawn again in place when the language changes. */
async function readView() {
  const [view, data] = await load().catch(() => [notFound, null]);
  const draw = () => main.replaceChildren(...(data ? view(data) : notFound()).filter(Boolean));
  draw();
  i18n.addEventListener("change", draw);
}

await i18n.ready;
if (asked.get("live")) liveView(asked.get("live"));
else await readView();
delete main.dataset.loading;
document.documentElement.dataset.ready = "true";
