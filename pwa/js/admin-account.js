// The staff member's own account on the console: change the password; for the head judge,
// the logins locked after repeated wrong passwords, each with an Unlock button.

import { t } from "/js/i18n.js";
import { request } from "/js/api.js";
import { h, field, section } from "/js/admin-dom.js";

export function accountView(ctx) {
  const parts = [passwordForm(ctx)];
  if (ctx.role() === "head_judge") parts.unshift(lockoutList(ctx));
  return h("div", { className: "stack" }, ...parts);
}

function lockoutList(ctx) {
  const list = h("ul", { className: "stack plain", "data-lockouts": true });
  const load = () => request("GET", "/api/login-lockouts").then((items) => list.replaceChildren(
    ...(items.length ? items.map((lock) => lockoutItem(ctx, lock, load))
                     : [h("li", {}, t("admin.lockouts.none"))])))
    .catch(() => {}); // the list stays empty; the page can be reloaded
  load();
  return section("admin.lockouts", list);
}

function lockoutItem(ctx, lock, reload) {
  const until = new Date(lock.locked_until).toLocaleTimeString();
  return h("li", { className: "cluster", "data-lockout": lock.username },
    h("span", { className: "grow" }, t("admin.lockouts.item",
      { user: lock.username, failures: lock.failures, until })),
    h("button", { type: "button", "data-unlock": lock.username, onclick: () => ctx.attempt(async () => {
      await request("DELETE", `/api/login-lockouts/${encodeURIComponent(lock.username)}`);
      await reload();
    }) }, t("admin.lockouts.unlock")));
}

function passwordForm(ctx) {
  const current = h("input", { name: "current_password", id: "f-current-password", type: "password",
                               autocomplete: "current-password", required: true });
  const next = h("input", { name: "new_password", id: "f-new-password", type: "password",
                            autocomplete: "new-password", minLength: 8, required: true });
  const form = h("form", { className: "stack", "data-keep": true, "data-password": true,
    onsubmit: async (e) => {
      e.preventDefault();
      const done = await ctx.attempt(() => request("POST", "/api/account/password",
        { current_password: current.value, new_password: next.value }));
      if (done) { form.reset(); ctx.say(t("admin.password.changed"), "ok"); }
    } },
    field("admin.password.current", current), field("admin.password.new", next),
    h("button", { type: "submit" }, t("admin.password.submit")));
  return section("admin.password", form);
}
