// The tutorial's match: a training match on the 7-space board against a scripted coach
// with scripted dice, so every idea comes up when it first matters and the lesson always
// goes the same way.  Words for each step are in lang/<language>.js (TUTORIAL).
// tests/client/test_tutorial.py plays this script through the rules to keep it true.
export const SCRIPT = {
  config: { mode: "training", board: 7 },
  seat: 0,
  seed: 7,
  plan: {
    // Every die in order: the coin, the first shot, a tied skill test and its re-roll,
    // the late skill test and the tired challenger's injury check, then the shootout's
    // kicks (home's die, then the visitors').
    dice: ["fortune", "11", "3", "6", "7", "3", "9", "10", "4", "2", "12", "1", "12", "1", "11", "2", "12", "1"],
    // The coach's decisions, each played when it is next and legal (else the bot plays).
    opponent: ["skip", "card deflect", "skip", "action maneuver", "card dribble", "skip",
      "send v4", "card steal", "send v3", "card steal", "skip", "order v7 v6 v4 v3 v1 v0"],
  },
  // A step: the frame of the player's prompt it teaches, and what it asks them to do
  // (null: any legal choice).  `jump` moves the clock instead (the skip to the end).
  steps: [
    { id: "toss", frame: "toss", expect: ["toss home"] },
    { id: "setup", frame: "coach", expect: ["skip", "finish"] },
    { id: "maneuver", frame: "action", expect: ["action maneuver"] },
    { id: "cards", frame: "cards_secret", expect: ["card dribble"] },
    { id: "dribble", frame: "dribble_dist", expect: ["dribble 2"] },
    { id: "speed", frame: "speed", expect: ["speed 5"] },
    { id: "shoot", frame: "action", expect: ["action shoot"] },
    { id: "defend", frame: "cards_secret", expect: ["card steal"] },
    { id: "runback", frame: "run", expect: ["run h3 M2"] },
    { id: "speed2", frame: "speed", expect: null },
    { id: "timeout", frame: "action", expect: ["action timeout"] },
    { id: "sub", frame: "coach", expect: ["sub h4 h5"] },
    { id: "finish", frame: "coach", expect: ["finish"] },
    { id: "jump", jump: { period: 2, minute: 29, score: [1, 1] } },
    { id: "late", frame: "cards_secret", expect: ["card dribble"] },
    { id: "speed3", frame: "speed", expect: null },
    { id: "last", frame: "cards_secret", expect: ["card low-pass"] },
    { id: "shootoutsub", frame: "coach", expect: ["skip"] },
    { id: "order", frame: "so_order", expect: null },
  ],
};
