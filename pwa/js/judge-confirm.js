// The head judge's confirmation on the judge's pad (EKML §22(4): an unsporting-conduct match
// loss stands only once the head judge confirms). The head judge signs in on the sheet with
// their own name and password; the report goes with that session, not the table's token, so
// the server records who confirmed (`confirmed_by`), and the session ends at once: nothing of
// it stays on the tablet (no outbox entry, no stored token). Needs the network: the head judge
// is at the table, and a confirmation is not queued.

import { t } from "/js/i18n.js";
import { ApiError, headers, parse, serverFetch } from "/js/api.js";
import { signIn } from "/js/judge-sheets.js";

async function post(path, body, token) {
  const init = { method: "POST", headers: { ...headers(), "Content-Type": "application/json" } };
  if (token) init.headers.Authorization = `Bearer ${token}`;
  else delete init.headers.Authorization; // the login carries no table token
  if (body !== undefined) init.body = JSON.stringify(body);
  try {
    return await parse(await serverFetch(path, init));
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError(0, { title: t("error.network") });
  }
}

/** Send `command` (a confirmed report) under the head judge's own sign-in; resolves false
 *  when the sheet was cancelled. A wrong password or a role other than head judge throws. */
export async function headJudgeConfirms(ctx, command, what) {
  const signed = await signIn(t("judge.head_judge_title"), t("judge.head_judge_text", { what }));
  if (!signed) return false;
  await ctx.outbox.settled(); // the table's own entries first: the version follows them
  const session = await post("/api/login", signed);
  try {
    if (session.role !== "head_judge") throw new ApiError(403, { code: "head_judge_confirms" });
    const judge = await ctx.loadJudgeState();
    const body = {
      command_id: crypto.randomUUID(), expected_version: judge?.version ?? ctx.state.knownVersion,
      command: { ...command, confirmed: true, at: new Date().toISOString() },
    };
    await post(`/api/matches/${ctx.state.doc.match_id}/commands`, body, session.token);
  } finally {
    await post("/api/logout", undefined, session.token).catch(() => {});
  }
  await ctx.loadJudgeState();
  return true;
}
