// The judge face's one shared object: its state and the app's services (send, render, flash,
// the outbox, …). judge-app.js fills it in at start; the parts (actions, pickers) read it and
// never import the face's entry module.

export const desk = {
  state: {
    table: null, doc: null, shown: null, loading: true, problem: null,
    pending: [], answered: [], held: null, judge: null, catalogue: null, banner: null, clock: null,
    gameOver: null, lastGameEnd: null, judgeName: localStorage.getItem("tableside.judge.name") || "",
    knownVersion: 0, working: 0, armed: {},
  },
  outbox: null,
  send: null, render: null, flash: null, loadJudgeState: null, wasSent: null, confirmKey: null,
};
