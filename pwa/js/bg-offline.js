// What the recorder shows while its entries wait in the outbox (no network): the server's fold
// with the queued commands carried out as far as they are certain, and each queued command in
// words. No rules are decided here: the server still decides every entry when it arrives; a
// command whose outcome only the engine knows (a drop, a resignation, an undo, the last
// checker off) stops the prediction, and the pad then waits for the network.
//
//   import { predict, commandText } from "/js/bg-offline.js";
//   const shown = predict(doc, commands);   // shown.predicted, shown.phase ("wait": unknown)
//   commandText(command, names)             // "Bjarni doubles to 2" (the event's words)

import { t } from "/js/i18n.js";
import { PlayEntry, playText } from "/js/bg-entry.js";
import { bgEventText } from "/js/bg-words.js";

const OTHER = { A: "B", B: "A" };
const WAIT = (d) => ({ ...d, phase: "wait" });
const SAME = (d) => d;

function played(d, c) {
  const entry = new PlayEntry({ side: c.side, dice: d.dice });
  entry.moves = c.moves || [];
  const after = entry.preview(d);
  if (after.position[c.side][0] === 15) return WAIT(after); // the game ends: the engine scores it
  return { ...after, phase: "roll", turn: OTHER[c.side], dice: [] };
}

/** The certain effect of each command on the board document; anything else waits. */
const STEPS = {
  StartGame: (d) => ({ ...d, phase: "opening", game_no: (d.game_no || 0) + 1, turn: "", dice: [] }),
  RollOpening: (d, c) => (c.die_a === c.die_b ? d
    : { ...d, phase: "move", turn: c.die_a > c.die_b ? "A" : "B", dice: [c.die_a, c.die_b] }),
  Roll: (d, c) => ({ ...d, phase: "move", dice: [...c.dice] }),
  Play: played,
  Double: (d) => ({ ...d, phase: "doubled" }),
  Take: (d, c) => ({ ...d, phase: "roll_only", cube: { ...d.cube, value: d.cube.value * 2, owner: c.side } }),
  PressClock: SAME, StartClock: SAME, StopClock: SAME, ResumeClock: SAME, CallTD: SAME,
  GiveRuling: SAME, Appeal: SAME, DecideAppeal: SAME, AppointMonitor: SAME, TakePause: SAME,
  ClaimEarlyPickup: SAME, RecordLateness: SAME,
};

/** The fold with the queued commands carried out; `predicted` says it is not yet the record. */
export function predict(doc, commands) {
  if (!doc || !commands.length) return doc;
  let shown = { ...doc, predicted: true };
  for (const command of commands) {
    if (shown.phase === "wait") break;
    shown = (STEPS[command.type] || WAIT)(shown, command);
  }
  return shown;
}

// A queued command in the words of the event it will most likely store; a command whose
// event needs what only the engine computes (the cube's value, the score) has its own words.
const EVENT_OF = {
  RollOpening: "BgOpeningRolled", Roll: "BgDiceRolled", Drop: "BgDoubleDropped",
  Concede: "BgConcessionOffered", PressClock: "BgClockPressed", StopClock: "BgClockStopped",
  ResumeClock: "BgClockResumed", TakePause: "BgPauseTaken", CallTD: "BgTDCalled",
  GiveRuling: "BgRulingGiven", Appeal: "BgAppealLodged", DecideAppeal: "BgAppealDecided",
  AppointMonitor: "BgMonitorAppointed", Expel: "BgPlayerExpelled",
  ReportResult: "BgResultReported", ConfirmResult: "BgResultConfirmed",
};

export function commandText(command, names) {
  const side = command.side || command.offender || command.claimant || "";
  if (!EVENT_OF[command.type]) {
    const key = `bg.cmd.${command.type}`;
    const words = t(key, { ...command, name: names[side] || side, moves: playText(command.moves) });
    return words === key ? t("bg.ev.other", { type: command.type }) : words;
  }
  const starter = command.die_a === command.die_b ? "" : command.die_a > command.die_b ? "A" : "B";
  return bgEventText({ ...command, type: EVENT_OF[command.type], starter, side }, names);
}
