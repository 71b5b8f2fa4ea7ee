// Plain words for everything the engine names: roles, cards, decision kinds, events.
// Unknown kinds and events still read sensibly (their own names), so a rules addition
// shows up as text before it gets its own sentence.

export const ROLES = { FB: "Fullback", D: "Defender", MF: "Midfielder", PM: "Playmaker", W: "Winger", S: "Striker" };
export const SIDE = ["Home", "Visitors"];
export const sideName = (s) => (typeof s === "number" ? SIDE[s] : s === "home" ? "Home" : s === "visitors" ? "Visitors" : String(s));

export const CARDS = {
  "low-pass": ["Low Pass", "to a teammate in range; cheap and safe"],
  dribble: ["Dribble", "carry the ball forward, then set its speed"],
  "high-pass": ["High Pass", "throw it long; costs 2"],
  deflect: ["Deflect", "knock the ball away"],
  steal: ["Steal", "take the ball and run it back"],
  pressure: ["Pressure", "force the handler back"],
  // Advanced mode's gambits (Law 19): offered while your team is behind.
  "skilled-pass": ["Skilled Pass", "to any teammate within 3; speed +3"],
  "dribble-burst": ["Dribble Burst", "run up to 4; ball at 12; a token a space"],
  "setup-pass": ["Setup Pass", "set the speed, pick it out 0, 1 or 3 ahead; costs 2"],
  clear: ["Clear", "knock it 3 back; speed -3"],
  intercept: ["Intercept", "take the ball and carry it forward"],
  "double-team": ["Double Team", "push the handler 2 back, with help"],
};

export const KINDS = {
  toss: "Choose your side", handler: "Choose who handles the ball", action: "Choose the action",
  challenge: "Choose the challenger", send: "Send a player", card: "Choose your maneuver",
  pass: "Pass to", dribble: "Dribble distance", speed: "Set the ball's speed", throw: "Throw distance",
  receive: "Who receives", shot: "Take the shot?", pick: "Choose the player", run: "Run back",
  clear: "Clear a player", sub: "Substitute", formation: "Formation", move: "Move a player",
  swap: "Swap two players", finish: "Done", skip: "Skip coaching", order: "Shootout order",
  shooter: "Choose your shooter",
  scorch: "Force the skill test?", aim: "Setup Pass distance", drive: "Drive it further back",
  partner: "Choose the Double Team partner",
  declare: "Overdrive before the roll? (hidden until the dice)", join: "Glompex joins the ball?",
  pull: "Mind Pull the ball? (a token, 11+ on a die)", smooth: "Smooth: take the ball over?",
  fly: "Zenith flies before the run back?", quantor: "Quantor runs onto the pass",
};

export const ENUM_WORDS = {
  home: "Home", visitors: "Visitors", maneuver: "Maneuver", shoot: "Shoot", timeout: "Time out",
  take: "Take it", decline: "Decline", none: "No one", force: "Force the test",
  accept: "Accept the loss", overdrive: "Overdrive (+5, drain 3)", boost: "Boost (+3, drain 1)",
  both: "Overdrive and Boost (+8, drain 4)", yes: "Yes", no: "No",
};

export function playerLabel(view, id) {
  if (!id) return "nobody";
  const p = view && view.players ? view.players.find((q) => q.id === id) : null;
  if (!p) return id;
  const side = p.side === "home" ? "Home" : "Visitors";
  const name = p.name ? ` ${p.name}` : "";
  return `${side}' ${ROLES[p.role] || p.role}${name} (${id})`;
}

function total(part) {
  if (!part) return "";
  const bits = [`die ${part.die}`];
  if (part.skill) bits.push(`skill ${part.skill}`);
  if (part.midfielder) bits.push(`midfielder ${part.midfielder}`);
  if (part.speed) bits.push(`speed ${part.speed > 0 ? "+" : ""}${part.speed}`);
  if (part.striker) bits.push(`striker ${part.striker}`);
  // Part II (Laws 19-21): why a total is what it is.
  if (part.ignite) bits.push(`${part.ignite} ${part.ignite === "burn" ? "-" : "+"}${part.second}`);
  if (part.overdrive) bits.push(`overdrive ${part.overdrive}`);
  if (part.boost) bits.push(`boost ${part.boost}`);
  if (part.zorch) bits.push(`Zorch ${part.zorch}`);
  for (const m of part.merge || []) bits.push(`merge ${m.player} ${m.adds}`);
  if (part.partner) bits.push(`partner ${part.partner.player} ${part.partner.skill}`);
  return `${part.total} (${bits.join(" + ")})`;
}

// One event in words, or null for bookkeeping nobody needs to read.
export function narrate(e, view) {
  const P = (id) => playerLabel(view, id);
  switch (e.t) {
    case "toss": return `Coin toss: ${e.coin}. Seat ${e.winner_seat + 1} wins the toss.`;
    case "toss-choice": return `Seat ${e.seat + 1} chooses to play ${e.choice}.`;
    case "deal": return "The players take the field.";
    case "kickoff": return `Kick-off: ${sideName(e.side)} at ${e.space}.`;
    case "turn": return `${sideName(e.side)}' turn, ball at ${e.space}, speed ${e.speed}.`;
    case "decision": case "forced": return null;
    case "handler": return `${P(e.player)} handles the ball.`;
    case "action": return `${sideName(e.side)} choose: ${ENUM_WORDS[e.action] || e.action}.`;
    case "challenger": return `${P(e.player)} challenges.`;
    case "chosen": return `${sideName(e.side)} have chosen${e.decision ? ` (${e.decision})` : ""}.`;
    case "reveal": {
      const w = e.winner === "O" ? "the offense wins on the cards" : e.winner === "D" ? "the defense wins on the cards" : "a skill test decides";
      return `Cards revealed: ${CARDS[e.offense]?.[0] || e.offense} against ${CARDS[e.defense]?.[0] || e.defense}; ${w}.`;
    }
    case "roll": return `Die: ${e.die}${e.player ? ` for ${P(e.player)}` : ""}.`;
    case "skill-test": {
      const win = e.winner === "O" ? e.offense.player : e.defense.player;
      return `Skill test: ${P(e.offense.player)} ${total(e.offense)} against ${P(e.defense.player)} ${total(e.defense)}. ${P(win)} wins it.`;
    }
    case "contest": return `Contest: ${P(e.last.player)} ${total(e.last)} against ${P(e.other.player)} ${total(e.other)}; ${P(e.winner)} gets it.`;
    case "exhaust": return `${P(e.player)} tires (${e.tokens} token${e.tokens === 1 ? "" : "s"}).`;
    case "resolves": return `${CARDS[e.card]?.[0] || e.card} goes ahead.`;
    case "pass": return `${P(e.frm)} passes to ${P(e.to)} at ${e.space}; speed ${e.speed}.`;
    case "dribble": return `${P(e.player)} dribbles to ${e.to}.`;
    case "high-pass": return `${P(e.frm)} throws a high pass to ${e.to}${e.overshoot ? " (overshoot)" : ""}.`;
    case "deflect": return `${P(e.player)} deflects it to ${e.to}; speed ${e.speed}.`;
    case "steal": return `${P(e.player)} steals it at ${e.to}.`;
    case "pressure": return `${P(e.challenger)} pressures ${P(e.handler)} back to ${e.to}.`;
    case "takes-ball": return `${P(e.player)} takes the ball at ${e.space}.`;
    case "receiver": return `${P(e.player)} receives.`;
    case "loose": return `Loose ball at ${e.space}.`;
    case "send": return `${P(e.player)} goes from ${e.frm} to ${e.to}.`;
    case "send-nobody": return `${sideName(e.side)} send nobody.`;
    case "run-back": return `${P(e.player)} runs back from ${e.frm} to ${e.to}.`;
    case "speed": return `Ball speed is now ${e.speed}.`;
    case "score-attempt": {
      const wall = (e.defense.wall || []).map((w) => `${w.player} +${w.adds}`).join(", ");
      return `${P(e.player)} shoots: ${total(e.attack)} against the keeper's ${e.defense.total} (die ${e.defense.die}${wall ? `, wall ${wall}` : ""}). ${e.goal ? "GOAL!" : "Saved."}`;
    }
    case "goal": return `Goal for ${sideName(e.side)}! ${e.score[0]} : ${e.score[1]}.`;
    case "miss": return `${sideName(e.side)} miss.`;
    case "injury-check": {
      const dmg = e.word === "damage";  // 20.3.4: a Cyborg's damage test, Damaged
      return `${P(e.player)} ${dmg ? "damage test" : "injury check"}: die ${e.die} against ${e.tokens} ${dmg ? "drain" : "tokens"}: ${e.injured ? (dmg ? "damaged" : "injured") : "fine"}.`;
    }
    case "own-goal-roll": return `Own-goal risk for ${P(e.player)}: ${e.total} (${e.dice.join(" + ")} + skill ${e.skill}); ${e.avoided ? "avoided" : "own goal!"}.`;
    case "substitution": return `${sideName(e.side)}: ${P(e.on)} comes on for ${P(e.off)}.`;
    case "formation": return `${sideName(e.side)} line up ${e.formation}.`;
    case "positioning": return `${sideName(e.side)}: ${P(e.player)} moves to ${e.to}.`;
    case "zone-swap": return `${sideName(e.side)} swap ${e.players.join(" and ")}.`;
    case "coaching-finished": return `${sideName(e.side)} finish coaching.`;
    case "coaching-skipped": return `${sideName(e.side)} skip coaching.`;
    case "time-out": return `${sideName(e.side)} call a time out.`;
    case "clock": return `Clock: minute ${e.minute}.`;
    case "period-ends": return `End of period ${e.period}.`;
    case "halftime": return `Half time: ${e.score[0]} : ${e.score[1]}.`;
    case "full-time": return `Full time: ${e.score[0]} : ${e.score[1]}.`;
    case "shooters": return `Shootout: ${P(e.home)} against ${P(e.visitors)}.`;
    case "shootout-test": return `Shootout: ${P(e.home.player)} ${e.home.total} (die ${e.home.die}), ${P(e.visitors.player)} ${e.visitors.total} (die ${e.visitors.die}).`;
    case "shootout-won": return `${sideName(e.side)} win the shootout!`;
    case "sudden-death": return "Sudden death!";
    case "new-play": case "reset": return null;
    case "ignite": return `${P(e.player)}'s die ignites (${e.face}): ${e.kind === "burn" ? "a burn, -" : "a blaze, +"}${e.second}.`;
    case "overdrive": return `${P(e.player)} Overdrives: +${e.bonus}${e.drain ? `, drain ${e.drain}` : ""}.`;
    case "boost": return `${P(e.player)} Boosts: +${e.bonus}.`;
    case "clear": return `${P(e.player)} clears ${e.n} ${e.word === "drain" ? "drain" : "token"}${e.n === 1 ? "" : "s"} (${e.tokens} left).`;
    case "gambits": {
      const who = [e.home && "Home", e.visitors && "Visitors"].filter(Boolean);
      return who.length ? `${who.join(" and ")} may play gambits (behind).` : null;
    }
    case "glompex-joins": return `${P(e.player)} joins the ball at ${e.to}.`;
    case "acidel": return `${P(e.player)} turns the pressure into a shot at ${e.space}.`;
    case "slitheron": return `${P(e.player)} slithers in and takes the ball without a roll.`;
    case "dribble-burst": return `${P(e.player)} bursts ${e.spaces} to ${e.to}; speed 12.`;
    case "setup-pass": return `${P(e.frm)} sets it up ${e.spaces} ahead at ${e.to}; speed ${e.speed}.`;
    case "intercept": return `${P(e.player)} intercepts and carries it to ${e.to}.`;
    case "double-team": return `${P(e.challenger)}${e.partner ? ` and ${P(e.partner)}` : ""} double-team ${P(e.handler)} back to ${e.to}.`;
    case "double-team-beaten": return `The Double Team is beaten: ${Object.entries(e.moved).map(([k, v]) => `${k} to ${v}`).join(", ") || "nobody moves"}.`;
    case "beaten": return `${CARDS[e.card]?.[0] || e.card} is beaten and pays for it.`;
    case "drive": return `${P(e.player)} drives it ${e.spaces} further back.`;
    case "possession-lost": return `Possession lost; ${P(e.player)} has it at speed ${e.speed}.`;
    case "scorchit-forces": return `${P(e.player)} forces a skill test.`;
    case "scorchit-accepts": return "Scorchit accepts the loss.";
    case "mind-pull": return `${P(e.player)} tries a Mind Pull at ${e.space}: die ${e.die} (needs ${e.needs}); ${e.lands ? "it lands" : "it misses"}.`;
    case "pulled": return `${P(e.player)} pulls the ball in at ${e.space}.`;
    case "smooth": return `${P(e.player)} smoothly takes the ball over at ${e.space}.`;
    case "flies": return `${P(e.player)} flies from ${e.frm} to ${e.to}.`;
    case "lights-ball": return `${P(e.player)} lights the ball: speed ${e.speed}.`;
    case "vorix-pass": return `${P(e.player)} takes Vorix's long pass at speed ${e.speed}.`;
    case "runs-onto-pass": return `${P(e.player)} runs from ${e.frm} onto the pass at ${e.to}.`;
    case "unopposed-low-pass": return `${P(e.player)} plays an unopposed Low Pass from ${e.space}.`;
    default: {
      const rest = Object.entries(e).filter(([k]) => k !== "t" && k !== "law")
        .map(([k, v]) => `${k} ${typeof v === "object" ? JSON.stringify(v) : v}`).join(", ");
      return `${e.t.replace(/-/g, " ")}${rest ? `: ${rest}` : ""}.`;
    }
  }
}
