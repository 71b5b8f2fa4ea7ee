// Every word the player reads, in English.  A translation is a copy of this one file
// with the same keys (see docs/CLIENT.md, "Words and translations"); nothing else in the
// client holds player-facing text.  Engine ids (h3, low-pass, M2) never reach the screen
// raw: each has its words here.

// ---- names of things --------------------------------------------------------------

const ROLES = { FB: "Fullback", D: "Defender", MF: "Midfielder", PM: "Playmaker", W: "Winger", S: "Striker" };

const CARDS = {
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

const KINDS = {
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

const ENUMS = {
  home: "Home", visitors: "Visitors", maneuver: "Maneuver", shoot: "Shoot", timeout: "Time out",
  take: "Take it", decline: "Decline", none: "No one", force: "Force the test",
  accept: "Accept the loss", overdrive: "Overdrive (+5, drain 3)", boost: "Boost (+3, drain 1)",
  both: "Overdrive and Boost (+8, drain 4)", yes: "Yes", no: "No",
};

const STEPS = {
  sub: ["Who comes off?", "Who comes on?"],
  move: ["Which player moves?", "To which space?"],
  swap: ["First player of the swap", "Second player of the swap"],
  run: ["Who runs back?", "To which space?"],
};

const ERRORS = {
  illegal_decision: "That move is not allowed in this position. The board shows where the match really stands.",
  malformed_decision: "That move could not be read. The board shows where the match really stands.",
  stale_version: "The match moved on before your move arrived, so it was not played. Here is the current position.",
  not_your_turn: "It is not your turn, so your move was not played.",
  rate_limited: "Too many messages too quickly. Wait a moment, then try again.",
  busy: "The server is busy. Try again in a moment.",
  match_over: "This match is already over.",
  not_found: "No match found with that code or link.",
  match_full: "That match already has two players. You can watch it instead.",
  not_your_seat: "You do not hold a seat in this match.",
  not_started: "The match has not started yet.",
  bad_token: "Your saved identity is not known to this server; starting fresh.",
  bad_name: "That name cannot be used. A name has 2 to 20 letters or digits (spaces and . - _ ' are fine) and starts with a letter or digit.",
  shutting_down: "The server is restarting. You will be reconnected.",
  already_queued: "You are already waiting for a quick match.",
  idle_timeout: "You were idle for a long time and got disconnected; reconnecting.",
  handshake_timeout: "The connection was too slow to start; reconnecting.",
  hello_required: "The connection was not set up properly; reconnecting.",
  unsupported_version: "This page is out of date for the server. Reload the page.",
  bad_config: "The server refused those match settings.",
  unknown_bot: "That bot is not available on this server.",
  internal: "Something went wrong on the server. The match is safe; try again.",
  // Who you are (identity.js, the name screen)
  name_taken: "Someone already plays under that name (or one that looks the same). Please choose another. If it is yours, sign in with your password, or open a \"use on another device\" link from a device where you are signed in.",
  reserved_name: "That name is kept for the game itself. Please choose another.",
  no_identity: "Please choose a name.",
  signed_out: "This device was signed out (someone chose \"sign out everywhere\"). Sign in with your password or a link from another device, or choose a new name.",
  wrong_password: "That password is not right.",
  no_password: "That player has no password. Open a \"use on another device\" link from a device where you are signed in.",
  no_such_player: "Nobody plays under that name here.",
  too_many_attempts: "Too many wrong passwords. Wait a while, then try again.",
  too_many_identities: "Too many new players came from your network lately.",
  transfer_used: "That link was already used. Make a new one on the device where you are signed in.",
  transfer_expired: "That link is more than 10 minutes old. Make a new one on the device where you are signed in.",
  transfer_unknown: "That link is not from this server.",
};

const MODES = { training: "Training", standard: "Standard", advanced: "Advanced" };
const MODE_HINTS = {
  training: "Part I only: species is just a name.",
  standard: "Adds the species abilities.",
  advanced: "Adds gambits, personal abilities and advanced skills.",
};
// The bot levels a player picks, weakest first (kickline.bots.LEVELS).
const BOT_LEVELS = { beginner: "Beginner", casual: "Casual", strong: "Strong", strongest: "Strongest" };
const BOT_LEVEL_HINTS = {
  beginner: "Knows the rules and makes plenty of mistakes.",
  casual: "Plays sensible rules of thumb, move by move.",
  strong: "Looks ahead through the dice, and mixes its cards so you cannot read them.",
  strongest: "Looks further ahead; thinks for up to two seconds over each move.",
};
const TEAMS = {
  training: "Training XI", "fire-demons": "Fire Demons", cyborgs: "Cyborgs", telekinetics: "Telekinetics", oozes: "Oozes",
};

// ---- explanations: roles, species, abilities, decisions --------------------------

const ROLE_INFO = {
  FB: "Last line of defence: attack 1, defence 6. Deflects the ball 2 spaces and may throw a High Pass 4.",
  D: "A stopper: attack 2, defence 5. A won Pressure also steals the ball.",
  MF: "The engine room: attack 3, defence 4. Adds 3 to a skill test over their own Low Pass or Steal.",
  PM: "The playmaker: attack 4, defence 3. May dribble 2 spaces instead of 1.",
  W: "The winger: attack 5, defence 2. A Low Pass they complete in range can set up a shot.",
  S: "The finisher: attack 6, defence 1. Adds 3 to a shot taken off a set-up.",
};

const SPECIES_INFO = {
  "Fire Demon": ["Volatile", "When the die shows a natural 6 or 7 in a skill test, contest, shot or shootout kick, a second die is rolled: 5 to 12 is added (a blaze), 1 to 4 is taken off (a burn)."],
  Cyborg: ["Lithium Powered", "Tokens are called drain; a Cyborg only counts as tired (Drained) at 7. Before a roll it may secretly Overdrive: drain 3 for +5. Standing still while others run back clears 1 drain."],
  Telekinetic: ["Mind Pull", "When the other side's ball moves onto or across their space, they may spend a token and roll: 11 or 12 pulls the ball in. When their own side's ball stops on their space they may take it over for free (Smooth)."],
  Ooze: ["Slimey", "An Ooze standing on the ball adds its skill to its side's test (Merge), and never counts when its zone's spaces are covered."],
  Trainee: ["", "Training players follow the basic rules only."],
};

const ABILITIES = {
  blazebulk: "Always blazes: when the die ignites, the second die is always added.",
  sizzifizik: "Ignites on a natural 5, 6, 7 or 8 instead of only 6 or 7.",
  brightburn: "A burn never upgrades the opponent's maneuver, and every burn clears a token from Brightburn.",
  emberdash: "Dribbles up to 3 spaces, and a Dribble Burst costs no tokens.",
  flickerwing: "Shoots past the wall: only defenders on the ball's own space count against the shot.",
  inferno: "Lights the ball: whenever Inferno receives it, its speed goes to 12.",
  kindlefinger: "The injury check can ignite; a blaze clears a token, a burn adds one, before the check.",
  scorchit: "When Scorchit's card loses, their coach may force a skill test anyway (Scorchit tires 2).",
  bulwark: "Only Drained at 10 drain instead of 7.",
  voltus: "Overdrives for 2 drain instead of 3.",
  gearclaw: "May also Boost: drain 1 for +3, on its own or with Overdrive.",
  strider: "Clears 2 drain when charging up, and a run back drains at most 1.",
  quantor: "When a teammate's won High Pass or Setup Pass is about to land, may drain 3 to run onto it and receive it.",
  pulsar: "Clears 1 drain whenever receiving the ball.",
  synapse: "Winning a skill test on an Overdriven roll upgrades the maneuver to its gambit.",
  noxar: "May Mind Pull a ball on a space next to theirs too, and brings it to their own space.",
  quillon: "Mind Pulls for free (no token).",
  spectra: "Mind Pull succeeds on 9 or more.",
  dravox: "A defensive gambit Dravox wins on the dice resolves as the gambit.",
  hexis: "An offensive gambit Hexis wins on the dice resolves as the gambit.",
  umbrik: "Uses their defence skill for an own-goal roll and for a skill test over their own High Pass.",
  vorix: "A won 3-space High Pass reaching a teammate is caught outright at speed 12 and can set up a shot.",
  zenith: "Before players run back after a steal, Zenith may fly to any space (a token per space).",
  zytheris: "May shoot off any pass a teammate gives them, when in range.",
  goopkeeper: "Blocks in full: anywhere between the ball and the goal, adds full defence to stop a shot.",
  viscor: "Merges harder: adds 3 more when merging.",
  glompex: "Before the cards, may spend a token to join the ball's space from next door and merge.",
  zorch: "Adds the ball's speed bonus to every roll Zorch makes.",
  acidel: "A won Pressure or Double Team that would risk an own goal instead wins the ball and a shot for Acidel's side.",
  slitheron: "Wins every contest for a loose or landing ball without a roll.",
  shpritz: "May Smooth: take over their own side's ball when it stops on their space.",
};

// One line per decision kind: what it does, and what it costs.
const KIND_HELP = {
  coach: "A free pause: substitute, re-form or move players, then tap Done. Nothing here costs time or tokens.",
  toss: "You won the toss: home kicks off the first half, the visitors the second.",
  handler: "Pick which of your players on the ball's space plays it this turn.",
  action: "Shoot if you are in range, play a maneuver card, or call your time out (once a half, costs a minute, gives both coaches a Coaching Choice).",
  challenge: "Pick which of your players on the ball's space challenges the handler.",
  send: "Walk a player to the ball's space to challenge or to chase it; they tire 1 per space. Sending nobody is free.",
  card: "Pick your maneuver in secret. Ranks beat each other in a circle; the same rank goes to a dice roll (both players tire 1).",
  pass: "Choose who receives the pass.",
  dribble: "Choose how far to dribble.",
  speed: "Set the ball's speed (1 to 12). Half of it, rounded down, helps shots and Steals and a High Pass contest.",
  throw: "Choose how far to throw the High Pass.",
  receive: "Choose which of your players on that space takes the ball.",
  shot: "A set-up: shoot now, out of turn, or decline and play on. A set-up shot tires the shooter 1.",
  pick: "Choose which of your players on that space plays for the ball.",
  run: "After a steal, players outside their zone run back; choose the space. They tire 1 per space.",
  clear: "Half time: choose a player to clear one more token.",
  sub: "Swap a fielded player for one on the bench. Each half gives two substitutions.",
  formation: "Re-deal your six on the field into a formation, read from your own goal forward.",
  move: "Move one player to another space of their zone.",
  swap: "Swap two of your players' places.",
  finish: "Done coaching: the positions become your new arrangement.",
  skip: "Change nothing and keep your arrangement.",
  order: "Set your six shooters' order in secret; the first of each side kick against each other.",
  shooter: "Sudden death: pick one player who has not shot this round.",
  declare: "Secretly power up the coming roll: Overdrive drains 3 for +5 (Gearclaw may also Boost: drain 1 for +3).",
  join: "Glompex may spend a token to step onto the ball's space and merge.",
  scorch: "Your card lost: accept, or force a skill test anyway (Scorchit tires 2).",
  aim: "Choose where the Setup Pass lands: 0, 1 or 3 spaces ahead.",
  drive: "You beat a Setup Pass: drive the ball 1, 2 or 3 spaces further back.",
  partner: "Choose the teammate who joins the Double Team.",
  pull: "Mind Pull: spend a token and roll; 11 or more pulls the ball to you.",
  smooth: "Take your side's ball over on this space for free, or leave it.",
  fly: "Zenith may fly to any space before the run back, at a token per space.",
  quantor: "Quantor may drain 3 to run onto the pass and receive it.",
};

// How each decision step is asked, beyond the kind's title.
const CARD_LONG = {
  "low-pass": "Pass to the nearest teammate up to 2 spaces ahead or behind. Speed +1. Beats Pressure, loses to Steal, ties Deflect.",
  dribble: "Carry the ball 1 space forward (a Playmaker 2), then change its speed by up to your attack. Beats Deflect, loses to Pressure, ties Steal.",
  "high-pass": "Throw it 2 or 3 spaces forward (a Fullback 4); 3 or more must be won in a contest. Costs 2 minutes. Beats Steal, loses to Deflect, ties Pressure.",
  deflect: "Knock the ball 1 space back (a Fullback 2); speed -1; whoever is there gets it. Beats High Pass, loses to Dribble, ties Low Pass.",
  steal: "Take the ball and carry it 1 space back; you then set its speed. Beats Low Pass, loses to High Pass, ties Dribble.",
  pressure: "Push the handler and ball 1 space back; you move onto them. A Defender also steals it. Beats Dribble, loses to Low Pass, ties High Pass.",
  "skilled-pass": "Gambit: pass to any teammate within 3 spaces; speed +3. If beaten, the defender plays a free Low Pass.",
  "dribble-burst": "Gambit: run up to 4 spaces (tiring 1 a space); the ball ends at speed 12. If beaten, the ball keeps its speed.",
  "setup-pass": "Gambit: set the speed, then drop it 0, 1 or 3 spaces ahead for a shot. Costs 2 minutes. If beaten, the ball is driven further back.",
  clear: "Gambit: knock the ball 3 spaces back; speed -3. If beaten, the clearer tires 2.",
  intercept: "Gambit: take the ball and carry it 1 space forward. If beaten, the pass is simply kept.",
  "double-team": "Gambit: push the handler 2 back and bring a helper; both challenge next time. If beaten, both step forward.",
};

// ---- the rules, in our own words ---------------------------------------------------
// One short entry per section the engine cites on its events ("6.4" for 6.4.3), grouped
// by law.  Written for a player; the rulebook itself is not shipped.

const LAWS = [
  ["2", "The field", [
    ["2.1", "The board", "A row of 7 or 9 spaces: your goal zone, midfield, the other goal zone. Spaces are named from the home end: H1, H2, M1… V2."],
    ["2.3", "Shooting range", "You may only shoot from the far part of the field: the goal zone you attack and the midfield spaces next to it. The middle space is nobody's range."],
    ["2.6", "Players and roles", "Nine players a side, six on the field. Attack and defence always add up to 7: a Fullback is 1 and 6, a Striker 6 and 1."],
  ]],
  ["3", "Starting the game", [
    ["3.1", "The toss", "A coin decides who chooses to be home or the visitors. Home kicks off the first half, the visitors the second."],
    ["3.2", "The deal", "Each side starts two players in each zone and three on the bench."],
    ["3.3", "Setup coaching", "Before kick-off both coaches may change their line-up freely (home first)."],
    ["3.4", "Kick-off", "The ball starts on the middle space at speed 1, with home."],
  ]],
  ["4", "A turn", [
    ["4.1", "The order of a turn", "The side with the ball picks a handler, picks an action, resolves it, then the clock moves on by what it cost."],
    ["4.2", "The handler", "Any of your players on the ball's space may handle it; if the last play left it with one player, that player plays it."],
    ["4.3", "The action", "In range you may shoot; anywhere you may play a maneuver; out of range you may call your time out."],
    ["4.4", "Finishing a turn", "A ball nobody holds is settled first, then a change of possession, then the clock."],
  ]],
  ["5", "Shooting", [
    ["5.2", "The shot", "Both roll a die. The shooter adds attack, the speed bonus, and +3 for a Striker off a set-up. The keeper's die adds defenders in the way. Equal or higher scores."],
    ["5.4", "What a shot costs", "One minute. A shot off a set-up tires the shooter 1."],
    ["5.5", "After the shot", "Goal or miss, play restarts at speed 1: after a goal the side that conceded kicks off; after a miss the defenders take it near their goal."],
  ]],
  ["6", "Maneuvers and challenges", [
    ["6.1", "Who is involved", "The handler plays for the offense. A defender already on the ball's space challenges; otherwise the defense may send one, or nobody (then the maneuver just works)."],
    ["6.2", "Choosing in secret", "Both coaches pick a card in secret and reveal together. Offense: Low Pass, Dribble, High Pass. Defense: Deflect, Steal, Pressure."],
    ["6.3", "Who wins", "Ranks 1, 2, 3 on each side beat each other in a circle: each rank beats the one below it and loses to the one above (3 loses to 1). The same rank is a tie."],
    ["6.4", "The skill test", "A tie goes to dice: both tire 1 and roll. Offense adds attack, defense adds defence; a Midfielder adds 3 on their own Low Pass or Steal; a Steal adds the speed bonus. Higher wins; equal rolls again."],
    ["6.5", "Low Pass", "Rank 1, one minute. To the nearest teammate up to 2 spaces ahead or behind, or on the same space. Speed +1."],
    ["6.6", "Dribble", "Rank 2, one minute. The handler carries the ball 1 space forward (a Playmaker 2), then changes its speed by up to their attack."],
    ["6.7", "High Pass", "Rank 3, two minutes. Thrown 2 or 3 spaces forward (a Fullback 4). A 2-space pass is caught; 3 or more must be won in a contest."],
    ["6.8", "Deflect", "Rank 1, one minute. The ball goes 1 space back (a Fullback 2) and speed drops 1; whoever stands there gets it."],
    ["6.9", "Steal", "Rank 2, one minute. The defender takes the ball, carries it 1 space back, and then sets its speed."],
    ["6.10", "Pressure", "Rank 3, one minute. The handler and ball are pushed 1 space back and the challenger follows. Against the goal line it risks an own goal. A Defender's Pressure also steals."],
  ]],
  ["7", "Ball speed", [
    ["7.2", "What changes it", "Only maneuvers: a Low Pass adds 1, a Deflect takes 1 off, Dribble and Steal let the player change it. Every turnover resets it to 1. Half of it, rounded down, is the speed bonus."],
  ]],
  ["8", "Set-ups", [
    ["8.1", "A set-up", "Some maneuvers give the receiver a shot out of turn, if they are in range."],
    ["8.4", "Declining", "Declining a set-up costs nothing and play goes on."],
  ]],
  ["9", "Sending a player", [
    ["9.1", "Sending", "To challenge, to chase a loose ball or to pick the ball up, a coach walks one of the two nearest players to the ball."],
    ["9.4", "What it costs", "A sent player tires 1 for every space walked."],
  ]],
  ["10", "A ball nobody holds", [
    ["10.1", "Where it stops", "Nobody there: it is loose. One side there: theirs. Both sides there: a contest on the spot."],
    ["10.2", "The contest", "Both roll: the side that last had the ball adds attack, the other defence. Higher wins; a tie rolls again and both tire 1."],
    ["10.3", "A loose ball", "Both sides may send someone. Only one does: they take it. Nobody: it goes out."],
    ["10.4", "The High Pass contest", "A High Pass of 3 or more must be won in a contest, and the thrower's side adds the speed bonus."],
    ["10.5", "Out of bounds", "The other side gets the ball at speed 1, after a reset."],
    ["10.6", "Picking it up", "A side whose ball lies where none of theirs stands must send one of the two nearest to pick it up."],
  ]],
  ["11", "Own goals", [
    ["11.2", "The own-goal roll", "Pushed against their own goal, the handler rolls two dice, keeps the higher and adds attack: 7 or more avoids it."],
    ["11.4", "Conceded", "Otherwise the other side scores, and the conceding side kicks off."],
  ]],
  ["12", "Turnovers", [
    ["12.4", "Running back", "After a steal, players outside their zone (and doubled-up teammates) run back to their zone, tiring 1 a space."],
    ["12.5", "A new play", "After a goal, a miss, an out-of-bounds ball or a time out, everyone returns to their arrangement and the restarting coach gets a Coaching Choice."],
  ]],
  ["13", "Time out", [
    ["13.1", "A time out", "Once a half, outside shooting range, a side may stop play: one minute, the ball stays theirs, both coaches coach, everyone resets."],
  ]],
  ["14", "Coaching", [
    ["14.2", "A Coaching Choice", "A free pause: substitute, change formation, move or swap players, then finish."],
    ["14.5", "Substitutions", "Two per half, two more at half time, one before a shootout."],
    ["14.7", "Formations", "A formation re-deals your six from your own goal forward, best defenders first."],
    ["14.8", "Finishing", "You must leave a player on your own kick-off space; where everyone stands becomes your arrangement."],
  ]],
  ["15", "Tiredness and injury", [
    ["15.3", "The injury check", "After a skill test, a tired (Exhausted) player rolls: more than their tokens is fine, anything else injures them."],
    ["15.5", "Recovery", "At half time everyone clears a token and each coach clears one more from a player."],
  ]],
  ["16", "The clock", [
    ["16.3", "Last possession", "At minute 15 (and 30) the side with the ball plays on until it loses the ball; that ends the half."],
    ["16.4", "Half time", "Tokens clear, both coaches coach, the visitors kick off the second half at minute 15."],
    ["16.5", "Full time", "The higher score wins; a draw goes to a shootout."],
  ]],
  ["17", "The shootout", [
    ["17.3", "The order", "Each coach secretly orders their six shooters."],
    ["17.4", "Each kick", "Two shooters roll and add attack; higher scores, a tie scores for nobody."],
    ["17.5", "Shootout goals", "They count on the scoreboard."],
    ["17.6", "Winning it", "A round stops once one side cannot be caught; a level round goes to sudden death."],
  ]],
  ["19", "Gambits (advanced)", [
    ["19.1", "What a gambit is", "A stronger version of a card of the same rank, with a price when it is beaten."],
    ["19.3", "Who may play one", "Only a side that is behind: fewer goals, or more tired or injured players on the field."],
    ["19.4", "When it fires", "The cards decide: a gambit's extra effect lands only if it won on the cards."],
    ["19.5", "Skilled Pass", "To any teammate within 3 spaces; speed +3. Beaten: the defender gets a free Low Pass."],
    ["19.6", "Dribble Burst", "Run up to 4 spaces, tiring 1 a space; the ball ends at speed 12. Beaten: the ball keeps its speed."],
    ["19.7", "Setup Pass", "Set the speed, then drop it 0, 1 or 3 ahead for a shot. Beaten: the ball is driven further back."],
    ["19.8", "Clear", "Knock the ball 3 spaces back; speed -3. Beaten: the clearer tires 2."],
    ["19.9", "Intercept", "Take the ball and carry it 1 space forward. Beaten: the pass is simply kept."],
    ["19.10", "Double Team", "Push the handler 2 back and bring a helper; both challenge next time. Beaten: both step forward."],
  ]],
  ["20", "Species abilities", [
    ["20.2", "Volatile (Fire Demons)", SPECIES_INFO["Fire Demon"][1]],
    ["20.3", "Lithium Powered (Cyborgs)", SPECIES_INFO.Cyborg[1]],
    ["20.4", "Mind Pull (Telekinetics)", SPECIES_INFO.Telekinetic[1]],
    ["20.5", "Slimey (Oozes)", SPECIES_INFO.Ooze[1]],
  ]],
  ["21", "Personal abilities", [
    ["21.3", "Fire Demons", "Blazebulk, Sizzifizik, Brightburn, Emberdash, Flickerwing, Inferno, Kindlefinger and Scorchit each bend Volatile their own way (tap a player to read theirs)."],
    ["21.4", "Cyborgs", "Bulwark, Voltus, Gearclaw, Strider, Quantor, Pulsar and Synapse each change how they drain, Overdrive or receive."],
    ["21.5", "Telekinetics", "Noxar, Quillon, Spectra, Dravox, Hexis, Umbrik, Vorix, Zenith and Zytheris each change a pull, a pass or a shot."],
    ["21.6", "Oozes", "Goopkeeper, Viscor, Glompex, Zorch, Acidel, Slitheron and Shpritz each change merging, contests or shots."],
  ]],
];

// ---- the tutorial ----------------------------------------------------------------
// One short lesson per step of tutorial-script.js, said when that moment comes.

const TUTORIAL = {
  toss: "Welcome to Kickline! You won the coin toss. Home kicks off the first half: choose to play at home.",
  setup: "Before kick-off each coach may change the line-up. Six of your players are on the field (round meeples) and three on the bench. This shape is fine: tap Skip coaching.",
  maneuver: "Your Playmaker has the ball on M2, the middle space. The only player of yours on the ball's space plays it. You are too far out to shoot, so play a maneuver to move forward.",
  cards: "Their Playmaker stands on the ball, so they challenge. Both coaches pick a card in secret. Cards beat each other in a circle: Dribble beats Deflect, the card they will play. Pick Dribble.",
  dribble: "Dribble won! A Playmaker may carry the ball 2 spaces instead of 1. Go 2 spaces, into shooting range.",
  speed: "After a dribble you set the ball's speed (changing it by up to your attack skill). Half the speed, rounded down, is added to a shot. Set it to 5.",
  shoot: "You are in range. The odds beside Shoot come from the dice: your die plus attack and speed against the keeper's die plus the defenders in the way. Shoot!",
  defend: "Now the other coach has the ball and you defend. Your Playmaker is on the ball, so they challenge. The coach will Dribble; Steal has the same rank, so the dice decide. Pick Steal.",
  runback: "You won the dice and stole the ball! Both players tired (see the dots: tokens). After a steal, players out of place run back to their zone, tiring 1 a space. Send your Midfielder to M2.",
  speed2: "The player who stole it sets the speed now. Any value is fine.",
  timeout: "Your Playmaker carries 2 tokens from that tie. More tokens than a player's defence skill makes them Exhausted, and an exhausted player can be injured after a dice roll. Call your time out (once a half) to bring a fresh player on.",
  sub: "A time out gives both coaches a Coaching Choice. Tap Substitute, then your tired Playmaker A, then Playmaker B from the bench.",
  finish: "Fresh legs on. Tap Done to finish coaching.",
  jump: "That is the game in a nutshell. Let's skip to the end of the match: minute 29 of 30, and they have equalised, 1 : 1.",
  late: "Minute 29. Their Playmaker walks over to challenge, more tired with every step. They will Steal; Dribble has the same rank, so it goes to the dice. Pick Dribble, and watch their tired Playmaker's injury check.",
  speed3: "Their Playmaker is injured now: an injured player cannot win a tie on the cards. Set the speed. The clock has reached the last minute: from now on, the half ends the moment you lose the ball.",
  last: "Last possession. Try a Low Pass. (They will Steal, which beats Low Pass: losing the ball now ends the match.)",
  shootoutsub: "Full time at 1 : 1, so it goes to a shootout. You may make one substitution first: skip it.",
  order: "Put your six in shooting order, one by one. Each kick is both shooters rolling a die plus their attack skill; higher scores.",
  free: "Your choice.",
  title: "Tutorial", step: (i, n) => `Step ${i} of ${n}`, jumpButton: "Skip to the end of the match",
  loading: "Loading the rules… (the tutorial runs on your phone, no server needed once loaded)",
  failed: "The tutorial needs the rules engine, which could not start in this browser.",
  done: "Well played! You won the shootout.", ready: "You know enough for a real match now. The bot plays the same rules; the odds and the move list will keep explaining.",
  again: "Start the tutorial again", playBot: "Play the bot", lessons: "Short lessons",
  resume: "Continue the tutorial", start: "Play the tutorial",
  standardTitle: "Lesson: species (standard mode)",
  standardIntro: "In standard mode every team is a species with its own ability, on top of the basic rules.",
  advancedTitle: "Lesson: gambits and personal abilities (advanced mode)",
  advancedIntro: "In advanced mode a side that is behind (fewer goals, or more tired or injured players on the field) may play gambits: stronger cards of the same rank that pay a price when beaten. Named players also bring abilities of their own.",
  tryMode: (m) => `Play the bot in ${m} mode`,
};

// ---- screens ---------------------------------------------------------------------

const UI = {
  appName: "Kickline",
  player: "Player",
  loading: "Loading…",
  conn: { online: "Online", connecting: "Connecting…", reconnecting: "Reconnecting…", offline: "Offline: waiting for the network", signedout: "Not signed in" },
  nav: { backToMatch: "Back to your match", home: "Home", rules: "How to play", settings: "Settings", menu: "Menu" },
  name: {
    title: "Choose a name", why: "Other players see it in the match. Nobody else can have the same one.", placeholder: "Your name", go: "Continue",
    rules: "2 to 20 letters or digits; spaces and . - _ ' are fine.",
    signInTitle: "Sign in", signInWhy: "Your name and the password you set on your profile.", password: "Password", signIn: "Sign in",
    haveAccount: "I already play here: sign in with my password", newPlayer: "I am new: choose a name",
    otherDevice: "Playing on another phone already? Open your profile there and use \"Use on another device\".",
    retryIn: (min) => `Try again in about ${min} minute${min === 1 ? "" : "s"}.`,
    moved: (name) => `You are now ${name} on this device.`,
    signedIn: (name) => `Signed in as ${name}.`,
  },
  transfer: {
    title: "Use on this device", working: "Signing you in…",
    switchAsk: (name) => `You play as ${name} on this device. Open the link to become the player who made it here instead?`,
    use: "Sign in with this link", keep: "Keep playing as I am",
    makeNew: "Make a new link on the device where you are signed in (Profile, \"Use on another device\").",
    instead: "Choose a name instead",
  },
  home: {
    playingAs: "Playing as", change: "change", yourMatches: "Your matches",
    resume: (status) => `Back to your match (${status})`,
    board: "Board", boardSize: "Board size", spaces: (n) => `${n} spaces`, mode: "Mode",
    yourTeam: "Your team", opponentTeam: "Opponent (bot or private match)",
    vsBot: "Play against the bot", quick: "Quick match", create: "Create a private match",
    botLevel: "Bot level",
    looking: "Looking for an opponent…", cancel: "Cancel",
    haveCode: "Have a code?", code: "Match code", join: "Join", watch: "Watch",
    openTables: "Open tables", liveMatches: "Live matches",
    noTables: "Nobody is waiting for an opponent right now.", noLive: "No public match is being played right now.",
    table: (names, mode, board) => `${names || "…"} · ${mode}, ${board} spaces`,
    notConnected: "Not connected yet; try again in a moment.",
  },
  local: {
    title: "Play on this device",
    hint: "No server needed once the app has loaded: a match against the bot, or two players passing one phone. It is kept on this device.",
    vsBot: (level) => `Play the ${level.toLowerCase()} bot here`, passAndPlay: "Two players, one phone",
    resume: (names) => `Back to ${names}`,
    player: (n) => `Player ${n}`, you: "You", bot: (level) => `${level} bot`,
    passTo: (name) => `Pass the phone to ${name}`,
    secretAhead: "A secret choice is next: the other player looks away until it is made.",
    yourTurnAhead: "It is their move.",
    imReady: (name) => `I am ${name}: show my move`,
    yourMoveName: (name) => `${name}, your move`,
    thinking: "The bot is thinking…", rulesLoading: "Loading the rules on this device…",
    noRules: "The rules could not start on this device, so it cannot play here.",
    refused: "That move is not possible now.",
    over: (winner, score) => `${winner ? `${winner} won` : "A draw"}, ${score[0]} : ${score[1]}.`,
    badge: "On this device", gone: "This match is no longer kept on this device.",
    lobby: "Back to the lobby", failed: (why) => `The match stopped: ${why}`,
  },
  queue: {
    rated: "Rated quick match",
    ratedHint: "Rated: you meet someone near your rating, and the result moves both ratings.",
    status: (rated, n, gap) => `${rated ? "Rated" : "Casual"} queue: ${n === null || n === undefined ? "…" : n === 1 ? "only you so far" : `${n} players waiting, you included`}${rated && gap ? `; you will meet anyone within ${gap} rating points` : ""}.`,
    counts: (casual, rated) => `Waiting now with these settings: ${casual} casual, ${rated} rated.`,
  },
  players: {
    menuProfile: "Profile", menuLeaders: "Leaderboard",
    challenges: (n) => `Challenges (${n})`,
    rating: (r, provisional) => `${Math.round(r)}${provisional ? "?" : ""}`,
    provisionalNote: "A ? marks a rating that is still settling (few rated matches, or none for a long time).",
    result: { win: "Won", draw: "Draw", loss: "Lost" },
    reason: {
      played: "played to the end", resigned: "resigned", timeouts: "out of time", claimed: "claimed after a long absence",
      no_show: "did not come", gone: "left", abandoned: "abandoned",
    },
    score: (mine, theirs) => `${mine} : ${theirs}`,
    change: (d) => (d > 0 ? `+${Math.round(d)}` : d < 0 ? `−${Math.round(-d)}` : "±0"),
    date: (at) => new Date(at * 1000).toLocaleDateString(undefined, { day: "numeric", month: "short", year: "numeric" }),
    bot: (name) => `${name} (bot)`,
  },
  profile: {
    title: "Profile", mine: "Your profile", loading: "Loading the profile…",
    since: (at) => `Playing since ${new Date(at * 1000).toLocaleDateString(undefined, { month: "long", year: "numeric" })}`,
    totals: (w, d, l) => `${w} won · ${d} drawn · ${l} lost`,
    ratings: "Ratings", noRating: "No rated matches yet.",
    ratingLine: (mode, r, rated, w, d, l) => `${mode}: ${r} after ${rated} rated match${rated === 1 ? "" : "es"} (${w} won, ${d} drawn, ${l} lost)`,
    historyLabel: (mode) => `${mode} rating over time`,
    historyText: (first, last, n) => `From ${first} to ${last} over ${n} rated match${n === 1 ? "" : "es"}.`,
    recent: "Recent matches", none: "No finished matches yet.",
    against: "against",
    replay: "Replay", record: "Record (download)",
    rated: "rated", casual: "casual",
    opponents: "Recent opponents", challenge: "Challenge",
    challengeThem: (name) => `Challenge ${name}`,
    share: "Your profile link (friends can challenge you from it)", copy: "Copy", copied: "Link copied.",
    device: "Use on another device",
    deviceWhy: "Open this link or scan the code on your other phone within 10 minutes to play there as you. It works once.",
    deviceMake: "Make a link", deviceQr: "QR code of the link",
    deviceUntil: (at) => `Valid until ${new Date(at * 1000).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" })}.`,
    password: "Password", passwordWhy: "With a password you can sign in on any device with your name.",
    passwordNone: "You have no password.", passwordSet: "You have a password.",
    passwordNew: "New password (8 or more characters)", passwordOld: "Current password",
    passwordSave: "Save password", passwordRemove: "Remove password",
    passwordSaved: "Password saved.", passwordRemoved: "Password removed.",
    signout: "Sign out everywhere",
    signoutWhy: "Every other device where you play stops being you; this one stays signed in.",
    signoutAsk: "Sign out on every other device?", signedOut: "Signed out on every other device.",
    signoutHere: "Sign out on this device",
    signoutHereWhy: "For a shared phone: the next person chooses their own name. You can sign in again with your name and password.",
    signoutHereWarn: "For a shared phone. You have no password: to play as yourself again, make a \"use on another device\" link first, or set a password.",
    signoutHereAsk: "Sign out on this device?",
    notFound: "Nobody plays under that name here.",
  },
  leaderboard: {
    title: "Leaderboard", mode: "Mode", loading: "Loading…",
    empty: "Nobody is on this board yet: it lists players with a settled rating who played a rated match in the last 90 days.",
    rank: "Rank", name: "Player", rating: "Rating", record: "Won · drawn · lost",
    caption: (mode) => `${mode} leaderboard`,
    why: "Players with a settled rating who played a rated match in the last 90 days.",
  },
  challenge: {
    title: "Challenge", titleTo: (name) => `Challenge ${name}`,
    board: "Board", mode: "Mode", yourTeam: "Your team", theirTeam: "Their team", rated: "Rated (the result moves both ratings)",
    send: "Send the challenge", sending: "Sending…",
    waiting: (name) => `Waiting for ${name} to answer…`, withdraw: "Withdraw",
    incoming: "Challenges to you", outgoing: "Your challenges",
    from: (name) => `${name} challenges you`, to: (name) => `You challenged ${name}`,
    settings: (mode, board, mine, theirs, rated) => `${mode}, ${board} spaces, ${mine} against ${theirs}${rated ? ", rated" : ""}`,
    accept: "Accept", decline: "Decline", none: "No open challenges.",
    closed: {
      declined: (name) => `${name} declined your challenge.`, withdrawn: (name) => `${name} withdrew the challenge.`,
      expired: () => "A challenge expired without an answer.", left: (name) => `${name} left, so the challenge is off.`,
    },
    pick: "Choose someone from the leaderboard, your recent opponents or a profile link to challenge them.",
  },
  rematch: {
    ask: "Rematch", waiting: (name) => `Waiting for ${name} to accept the rematch…`, takeBack: "Never mind",
    offered: (name) => `${name} wants a rematch (sides swapped).`, accept: "Play again", decline: "No thanks",
    closed: { declined: "No rematch this time.", expired: "The rematch offer expired.", left: "Your opponent left." },
  },
  presence: {
    opponent: "Your opponent", player: (n) => `Player ${n}`,
    reconnecting: (name) => `${name} lost the connection. Waiting for them to come back…`,
    away: (name, t) => `${name} is away (${t}).`,
    claimIn: (t) => `If they do not come back, you can claim the win in ${t}.`,
    claimNow: "They have been away a long time. Claim the win, or keep waiting?",
    claim: "Claim the win", wait: "Keep waiting", waiting: "You chose to keep waiting.",
  },
  joining: (code) => `Joining match ${code}…`,
  finding: (code) => `Finding match ${code}…`,
  waiting: {
    title: "Waiting for your opponent", share: "Share this link or the code ", link: "Invite link",
    shareBtn: "Share link", back: "Back", copied: "Link copied.", invite: "Play Kickline with me",
  },
  match: {
    loading: "Loading the match…", home: "Home", visitors: "Visitors", you: " (you)",
    watchShare: "Invite a spectator", watchInvite: "Watch my Kickline match",
    watchCopied: "Watch link copied: whoever has it can watch this match.",
    score: (a, b) => `Score ${a} to ${b}`,
    shootout: "Shootout", periodMinute: (p, m) => `Period ${p} · minute ${m}`,
    ball: (space, speed) => `Ball ${space}, speed ${speed}`,
    subsLeft: (h, v) => `Subs left H ${h} · V ${v}`,
    timeoutsUsed: (h, v) => `Time outs used H ${h ? "yes" : "no"} · V ${v ? "yes" : "no"}`,
    sending: (what) => `Sending: ${what}…`,
    yourMove: "Your move",
    oppChosenYourMove: "Your opponent has chosen (hidden until both are in). Your move",
    youChose: (what) => `You chose ${what}. Waiting for your opponent…`,
    waitingFor: (names) => `Waiting for ${names}`,
    waitingOpp: "Waiting for your opponent…",
    watching: "You are watching.",
    decision: "Your decision", report: "Match report", whatHappened: "What happened",
    resign: "Resign", resignAsk: "Resign this match?",
    timedOut: (what) => `Your time ran out, so the server played ${what ? `"${what}"` : "the default"} for you.`,
    offline: "You are offline; the move was not sent. It can be sent once reconnected.",
    dropped: "The connection dropped before the server answered; your move will be re-sent once reconnected.",
    clockYou: "You", clockOpp: "Opponent",
    watchCode: "Someone may watch with this code:",
    moves: "Moves", playing: "Playing back what happened… (tap the board to skip)",
  },
  chooser: {
    choose: "Your move", whatNext: "What next?", coaching: "Coaching Choice", confirm: "Confirm", back: "Back",
    soFar: (words) => `So far: ${words}`,
    tapMeeple: "Tap a highlighted player, or a name below.",
    tapSpace: "Tap a highlighted space, or a button below.",
    number: "Choose a number", less: "less", more: "more", numberNow: (n) => `${n} (as it is now)`,
    pickNumber: (n) => `Choose ${n}`,
    shootoutStep: (i, n) => `Shooting order: shooter ${i} of ${n}`,
    speedBecomes: (n) => `The ball's speed becomes ${n}.`,
    preview: (lines) => `What happens: ${lines}`,
    playerAt: (label, space, status) => (space ? `${label} at ${space}` : status === "back-bench" ? `${label} (back bench)` : status === "bench" ? `${label} (bench)` : label),
    never: "Don't ask again this match",
    odds: (o) => {
      const pct = `${o.undecided > 0.001 ? "about " : ""}${Math.round(o.p * 100)}%`;
      return { "score-attempt": `${pct} to score`, "skill-test": `${pct} to win the dice`, contest: `${pct} to win the ball`,
        "mind-pull": `${pct} to pull it in`, "own-goal-roll": `${pct} to avoid it`, "shootout-test": `${pct} to score` }[o.what] || `${pct} to succeed`;
    },
    against: (r) => (r.result === "win" ? `beats ${CARDS[r.card] ? CARDS[r.card][0] : r.card}`
      : r.result === "lose" ? `loses to ${CARDS[r.card] ? CARDS[r.card][0] : r.card}`
        : `vs ${CARDS[r.card] ? CARDS[r.card][0] : r.card}: dice${r.odds ? `, ${Math.round(r.odds.p * 100)}%` : ""}`),
  },
  preview: {
    failed: "Rules preview unavailable (server list used)", loading: "Rules preview loading…",
    checked: "Rules preview: checked ✓", ready: "Rules preview: ready",
    disagreements: (n) => ` · disagreements: ${n}`,
  },
  over: {
    draw: "A draw", noResult: (why) => `No result (${why})`, wins: (n) => `${n} wins`, player: (n) => `Player ${n}`,
    youWin: "You win!", youLose: "You lose",
    finalLabel: (hn, h, vn, v) => `Final score: ${hn} ${h}, ${vn} ${v}`,
    reasons: { played: "Played to the end", resigned: "By resignation", gone: "The opponent left", timeouts: "Too many timeouts", expired: "Expired", abandoned: "Abandoned", cancelled: "Called off", claimed: "Won by claim: the opponent was away too long", no_show: "The opponent did not come", no_show_both: "Neither player came" },
    // The same for a spectator, naming the player the forfeit went against.
    reasonsOf: { resigned: (n) => `${n} resigned`, gone: (n) => `${n} left`, timeouts: (n) => `${n} ran out of time too often`, claimed: (n) => `Won by claim: ${n} was away too long`, no_show: (n) => `${n} did not come` },
    afterShootout: " · after a shootout", atFullTime: (a, b) => ` (${a} : ${b} at full time)`,
    shootout: "The shootout, kick by kick", noGoal: "no goal", kickGoal: (t) => `${t} scores`,
    download: "Download the match record",
    fairTitle: "Fair dice: the details",
    fairText: (commit, seed) => `Before the match the server committed to its dice seed (sha256 = ${commit}); now it shows the seed: ${seed}.`,
    commitSame: "✓ This is the commitment you were shown during the match.",
    commitDiffers: "✗ This is NOT the commitment you were shown during the match!",
    verifyCmd: "Anyone can check the downloaded record: kickline verify FILE.",
    check: "Check the dice and replay", checking: "Checking…",
    noHash: "The seed's hash could not be computed here (needs a secure page).",
    hashOk: "✓ The revealed seed matches the commitment.",
    hashBad: "✗ The revealed seed does NOT match the commitment.",
    noPreview: "The rules engine is not loaded yet, so the dice could not be replayed. Try again in a moment.",
    diceOk: (n) => `✓ Every die in the match follows from the seed (${n} log entries replayed).`,
    mixText: "The dice did not come from the server's seed alone: it was mixed with a random number from each player's device, each sealed before anyone's was shown. So neither the server nor your opponent could choose the dice.",
    mineUsed: "✓ Your device's random number is the one mixed into the dice.",
    mineMissing: "✗ The random number the server mixed in for you is NOT the one your device drew!",
    mineNone: "This device sent no random number for this match (another device, or an older page), so the dice came from the server's seed and your opponent's number.",
    sealsOk: "✓ Each player's random number matches the seal they sent before the match.",
    sealsBad: "✗ A player's random number does NOT match the seal they sent before the match.",
    diceBad: (why) => `✗ ${why}`,
    newMatch: "New match", replay: "Replay", replayPos: "Replay position", prev: "◀ Back", next: "Next ▶",
    moveBy: (who, what) => `${who}: ${what}`, finalPosition: "The final position",
    move: (i, n, what, a, b) => `${i} of ${n}: ${what} · ${a} : ${b}`,
  },
  score: {
    label: "Scoreboard", home: "Home", visitors: "Visitors", you: " (you)", opponent: "your opponent",
    scoreLabel: (hn, h, vn, v) => `Score: ${hn} ${h}, ${vn} ${v}`,
    period: (p, minute, end, last) => `${p === 1 ? "1st half" : "2nd half"} · minute ${minute} of ${end}${last ? " · last possession" : ""}`,
    beforeKickoff: "Before kick-off",
    shootout: (so) => `Shootout · kick ${(so && so.test ? so.test : 0) + 1}${so && so.sudden_death ? " · sudden death" : ""}`,
    yourTurn: "Your turn", theirTurn: (n) => `${n}'s turn`, bothSecret: "Both choose in secret", dice: "Rolling…",
    clockLabel: (who, t, low) => `${who}: ${t} left${low ? ", running low" : ""}`, low: "low",
  },
  overlay: {
    skip: "Skip ▸▸", wins: "wins", vs: "vs", attack: "Attack", defence: "Defence",
    reveal: "Cards revealed",
    why: (e) => {
      const o = CARDS[e.offense] ? CARDS[e.offense][0] : e.offense;
      const d = CARDS[e.defense] ? CARDS[e.defense][0] : e.defense;
      if (e.winner === "T") return `${o} and ${d} are the same rank: the dice decide.`;
      const [w, l] = e.winner === "O" ? [o, d] : [d, o];
      return `${w} beats ${l}: each card beats the one a rank below it, round the circle.`;
    },
    test: "Skill test", contest: "Fight for the ball", kick: "Shootout kick",
    tie: "Level: they roll again.", higher: "The higher total wins.",
    kickLevel: "Level: no goal.", kickScores: (t) => `${t[0].toUpperCase() + t.slice(1)} scores.`,
    shot: (who) => `${who[0].toUpperCase() + who.slice(1)} shoots`, shooter: "Shooter", keeper: "Keeper",
    wall: (d, w) => `die ${d} + ${w} from defenders`,
    shotNeeds: (n) => `The shot needed ${n} or more.`, chanceWas: (o) => `Its chance was ${Math.round(o.p * 100)}%.`,
    goal: "GOAL!", saved: "Saved", ownGoal: "OWN GOAL!",
    pull: (who) => `${who[0].toUpperCase() + who.slice(1)} tries a Mind Pull`, needs: (n) => `Needed ${n} or more.`,
    pulled: "Pulled in!", failed: "It fails.",
    ownGoalRoll: (who) => `Own-goal roll for ${who}`, ownGoalSum: (e) => `Best die + skill = ${e.total}; 7 or more saves it.`,
    injuryCheck: (who) => `Injury check for ${who}`, injuryNeeds: (t) => `Safe on more than ${t} (the tokens carried).`,
    injured: "Injured!", fine: "Fine",
    dieLabel: (n) => `a die showing ${n}`,
  },
  settings: {
    title: "Settings",
    confirm: { label: "Confirm moves", irreversible: "Only big ones", always: "Every move", never: "Never",
      hint: "“Only big ones” asks before a time out, a substitution, an Overdrive, a Mind Pull, a flight or a forced test; every other choice goes with one tap." },
    speed: { label: "Playback speed", slow: "Slow", normal: "Normal", fast: "Fast", instant: "Instant",
      hint: "How fast the other side's moves, the cards and the dice are shown. Tap the board to skip." },
    reduced: "Your device asks for reduced motion, so moves are shown at once.",
    away: "When it is your turn and the page is hidden",
    vibrate: "Vibrate", sound: "Play a sound", notify: "Show a notification",
    awayHint: "The tab's title always changes to “Your turn”.",
  },
  info: {
    role: (r) => r, skills: "Skills", skillLine: (o, d) => `Attack ${o} · Defence ${d} (added to dice rolls)`,
    advanced: "Advanced skill", advancedLine: (d, base) => `Defence ${d} instead of the role's ${base}.`,
    species: (sp, name) => `${sp}: ${name}`, ability: (n) => `${n}'s own ability`,
    condition: "Condition",
    conditionLine: (p, mine) => `${p.status === "field" ? `On ${p.space}` : p.status === "bench" ? "On the bench" : "On the back bench"}; ${p.tokens ? `${p.tokens} token${p.tokens === 1 ? "" : "s"}` : "no tokens"}${p.injured ? "; injured: cannot win a tie, and must win a dice roll even after winning on the cards" : p.exhausted ? "; exhausted: after a skill test, an injury check" : ""}.`,
    cardsTitle: "The maneuver cards", cardsSub: "Each card beats the one a rank below it on the other side, round the circle; the same rank goes to the dice.",
    about: "About the cards", close: "Close", abilitiesTitle: "Personal abilities",
  },
  attention: { title: "▶ Your turn · Kickline", body: "It's your turn." },
  rules: {
    title: "How to play",
    intro: [
      "Kickline is football on a row of spaces. Each side fields six players and keeps three on the bench. You score by shooting at the other goal from the far part of the field.",
      "With the ball, pick which of your players on its space plays it, then what to do: shoot when you are in range, or play a maneuver card to work the ball up the field. If a defender is there, their coach answers with a card of their own, picked in secret at the same time.",
      "Cards beat each other in a circle (the table below). The same rank is settled by dice: each side rolls a twelve-sided die and adds a skill; the higher total wins.",
      "Challenges, long walks and hard work tire players (tokens on their card). A tired player can be injured after a dice test, so swap them at a Coaching Choice.",
      "A match is two halves of 15 minutes of game time; each action costs a minute or two. A draw at full time goes to a shootout.",
    ],
    tryTutorial: "Play the tutorial",
    cycleTitle: "Which card wins",
    cycleCaption: "Maneuver cards by rank",
    rank: "Rank", offense: "With the ball", defense: "Defending",
    cycleText: "A card beats the other side's card one rank lower and loses to the one a rank higher; the circle closes, so rank 1 beats rank 3. The same rank goes to the dice.",
    lawsTitle: "The rules, law by law",
    law: (n, title) => `Law ${n}: ${title}`,
    lawShort: (law) => `§${law}`,
    lawLink: (law) => `Rule ${law}: why did that happen?`,
  },
  board: {
    group: (n) => `The board, ${n} spaces`,
    space: (s, zone, speed, count) => `Space ${s}, ${zone}${speed !== null && speed !== undefined ? `, the ball is here at speed ${speed}` : ""}, ${count === 1 ? "1 player" : `${count} players`}`,
    summary: (space, speed, holder) => (space ? `The ball is on ${space} at speed ${speed}${holder ? `, held by ${holder}` : ", loose"}.` : "The ball is not in play."),
    yours: "your team", theirs: (n) => `${n}'s team`, onSpace: (s) => `, on ${s}`,
    zones: { H: "home goal zone", M: "midfield", V: "visitors goal zone" },
    zoneShort: { H: "H goal", M: "mid", V: "V goal" },
    ballHere: (speed) => `Ball here, speed ${speed}`,
    bench: (side) => `${side} bench`, empty: "empty",
    tokens: (n) => `, ${n} exhaustion tokens`, injured: ", injured", exhausted: ", exhausted", hasBall: ", has the ball",
    injShort: "INJ", exhShort: "EXH",
  },
  events: {
    menu: "Events", title: "Events", none: "No events on this server yet.",
    newEvent: "New event", loading: "Loading the event…", notFound: "There is no such event.",
    formats: { swiss: "Swiss", round_robin: "Round robin", double_round_robin: "Double round robin", knockout: "Knockout" },
    status: { registration: "Taking entries", running: "Running", finished: "Finished" },
    summary: (e) => `${e.players} players · ${e.rounds ? `round ${e.rounds} of ${e.total_rounds}` : `${e.total_rounds} rounds`}`,
    tabs: { info: "Info", players: "Players", rounds: "Rounds", standings: "Standings", run: "Run" },
    roundOf: (n, total) => `Round ${n} of ${total}`,
    // joining
    join: "Join this event", joined: "You are in this event.", joinedAs: (n) => `You play as number ${n}.`,
    claimGo: "Take your place", claimTitle: "Your entry link",
    claimWhy: "This link holds one place in the event. Taking it makes it yours on this device's player.",
    joinTitle: "Join the event", signInFirst: "Choose a name first, then open the link again.",
    shareLink: "Join link", copyLink: "Copy link", copied: "Link copied.", qrAlt: "QR code of the join link",
    withdraw: "Withdraw from the event", withdrawAsk: "Withdraw? You will not be paired again, and a game of yours this round that has not finished counts as lost.",
    pause: "Sit out the next rounds", resume: "Play again", askBye: (r) => `Ask for a half-point bye in round ${r}`,
    cancelBye: (r) => `Cancel my bye in round ${r}`, checkIn: "Check in", checkedIn: "Checked in",
    // your match
    ready: "Your match is ready", readyLine: (m) => `Round ${m.tournament.round}, board ${m.tournament.board}: against ${m.opponent}`,
    play: "Play it now", yourBoard: "Your board",
    notifyOn: "Tell me when my match is ready", notifyBody: (m) => `Round ${m.tournament.round} against ${m.opponent}`,
    // players
    number: "No.", name: "Player", rating: "Rating", unrated: "unrated", points: "Pts",
    statuses: { active: "playing", paused: "sitting out", withdrawn: "withdrawn" }, annulled: "games not counted",
    late: "late entry", unclaimed: "not claimed yet", entryLink: "Entry link",
    addLine: "Add a player to the roster", addName: "Player's name", addRating: "Rating (optional)", add: "Add",
    sheet: "Print the entry-link sheet", players: (n) => `${n} players`,
    forbid: "Keep apart", forbidWith: "Never pair with…", forbidden: "kept apart from",
    // rounds
    noRounds: "No round has been paired yet.", bye: { pab: "bye (full point)", half: "half-point bye", zero: "zero-point bye", absent: "not playing", free: "rests this round" },
    vs: "vs", home: "home", away: "away", draft: "Draft: not published yet",
    live: { waiting: (h, a) => `waiting for ${[h ? null : "home", a ? null : "away"].filter(Boolean).join(" and ")}`, playing: (sc) => sc ? `playing, ${sc[0]}–${sc[1]}` : "playing", over: "finished" },
    result: { "1-0": "home won", "0-1": "away won", "1/2-1/2": "drawn", "+/-": "away did not come", "-/+": "home did not come", "-/-": "neither came" },
    shootout: "after the shootout", adjudicated: "decided by the organiser",
    // organiser
    pair: (n) => `Pair round ${n}`, pairing: "Pairing… (a large event takes a while)", start: (n) => `Start round ${n}`,
    swapHint: "Tap two players to swap their places; ⇄ swaps a board's home and away.",
    flip: "⇄", picked: (name) => `${name} picked: tap another player`, homeWins: "Home wins", awayWins: "Away wins", draw: "Draw",
    homeAbsent: "Home didn't come", awayAbsent: "Away didn't come", bothAbsent: "Neither came",
    decide: "Decide", repair: "Re-pair unplayed boards", repairHint: "Tick the boards, then tap players two by two (home first).",
    repairGo: "Re-pair these players", close: "Close the event", closeAsk: "Close the event now? No more rounds will be paired.",
    boardsLive: (open, total) => `${open} of ${total} boards still playing`, overdue: "past the round's deadline", thirdPlace: "for third place",
    exports: "Export", trf: "TRF-16 (pairing programs)", csvStandings: "Standings (CSV)", jsonStandings: "Standings (JSON)",
    csvPairings: "Pairings (CSV)", jsonPairings: "Pairings and match records (JSON)", big: "Big standings (projector)",
    withdrawPlayer: "Withdraw", pausePlayer: "Sit out", resumePlayer: "Back in", checkInPlayer: "Check in",
    // create / edit
    createTitle: "New event", editTitle: "Event settings", entriesTitle: "Entries",
    onlyOrganisers: "Only an organiser can create events. The server's operator names them.",
    fixedAfterStart: "Round 1 is paired: how the matches are played and scored no longer changes.",
    decision: "Seconds per decision", bank: "Time bank (minutes)", editSettings: "Edit the event's settings",
    allow: "Allow again", forbiddenPairs: "Kept apart", eventName: "Event name", format: "Format",
    rounds: "Rounds", match: "Matches", teams: "Teams", ownTeams: "each player's own team",
    scoring: "Points", scoringPresets: { chess: "Win 1 · draw ½ · loss 0", football: "Win 3 · draw 1 · loss 0" },
    shootoutWin: "A shootout win scores", shootoutLoss: "A shootout loss scores", byePoints: "A bye scores", forfeitLoss: "A forfeit loss scores",
    tiebreaks: "Tiebreaks, in order", up: "Move up",
    tiebreakNames: { buchholz: "Buchholz", buchholz_cut1: "Buchholz cut 1", sonneborn_berger: "Sonneborn-Berger", direct_encounter: "Direct encounter", wins: "Wins", goal_difference: "Goal difference", goals_for: "Goals for", performance: "Rating performance" },
    tiebreakShort: { buchholz: "BH", buchholz_cut1: "BH-1", sonneborn_berger: "SB", direct_encounter: "DE", wins: "W", goal_difference: "GD", goals_for: "GF", performance: "TPR" },
    rated: "Rated (results move ratings)", startAt: "Starts at", entryCap: "Most players (empty: no limit)",
    openEntry: "Anyone may join by the link", checkInNeeded: "Players check in before round 1",
    lateUntil: "Late entries until round", lateByes: "A late entry scores for each missed round", half: "half a point", zero: "nothing",
    selfWithdraw: "Players may withdraw themselves", thirdPlaceMatch: "The semi-finals' losers play for third place",
    leftRepaired: (name, r) => `Round ${r} was paired again without ${name}.`,
    leftForfeited: (name, r, b) => `${name} lost round ${r}, board ${b} by forfeit.`,
    noShowPauses: "A player who does not come sits out the next rounds until they say they are back",
    annulWithdrawn: "A player who withdraws before playing half their games: none of their games count", noShow: "Forfeit a player who has not come after (minutes; empty with a round deadline: at the deadline)",
    roundMinutes: "Round deadline (minutes, empty: none): nobody is waited for after it", create: "Create the event", save: "Save",
    // score card
    card: "Score card", total: "Total", rank: (r) => `Rank ${r}`, against: (n) => `against ${n}`, pending: "being played",
    outcome: { win: "won", loss: "lost", draw: "drew" }, forfeitWin: "won (opponent did not come)", forfeitLoss: "lost (did not come)",
  },
};

// ---- players and decisions in words ----------------------------------------------
//
// `ctx` (built by match-model.js) says who is who: {view, seatNames: [n0, n1],
// sideNames: [home, visitors] (coach names), mySide: 0 | 1 | null}.  Players are named
// by their coach ("your Emberdash", "Ann's Playmaker A"), teams likewise ("your team",
// "Ann's team"), so a spectator reads names and a player reads "your".

const cap = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);
const plural = (n, one, many) => `${n} ${n === 1 ? one : many || one + "s"}`;
const isPlayer = (a) => typeof a === "string" && /^[hv][0-8]$/.test(a);
const sideOf = (s) => (s === 0 || s === "home" ? 0 : s === 1 || s === "visitors" ? 1 : null);
const cardName = (c) => (CARDS[c] ? CARDS[c][0] : c);

function card(view, id) {
  return view && view.players ? view.players.find((q) => q.id === id) : null;
}

// "Emberdash", "Playmaker A" (a training card's "Trainee " is dropped), or the role.
function shortName(p) {
  if (!p) return "a player";
  if (p.name) return p.name.replace(/^Trainee /, "");
  return ROLES[p.role] || "a player";
}

function owner(ctx, side) {
  if (side === null || side === undefined) return "";
  if (ctx && ctx.mySide === side) return "your";
  const n = ctx && ctx.sideNames ? ctx.sideNames[side] : null;
  return n ? `${n}'s` : side === 0 ? "the home" : "the visitors'";
}

// A player in running text: "your Striker A", "Ann's Emberdash".
function who(ctx, id) {
  if (!id) return "nobody";
  const view = ctx && ctx.view ? ctx.view : ctx;
  const p = card(view, id);
  const side = id[0] === "h" ? 0 : 1;
  return `${owner(ctx, side)} ${shortName(p)}`.trim();
}

// A team in running text: "your team", "Ann's team" (third person singular).
function team(ctx, side) {
  const s = sideOf(side);
  if (s === null) return "a team";
  if (ctx && ctx.mySide === s) return "your team";
  const n = ctx && ctx.sideNames ? ctx.sideNames[s] : null;
  return n ? `${n}'s team` : s === 0 ? "the home team" : "the visitors";
}

const seatName = (ctx, seat) => (ctx && ctx.seatNames && ctx.seatNames[seat]) || (seat === 0 ? "the first player" : "the second player");

// A player's label on a button or for a screen reader: "Striker A (your team, V1)".
function playerLabel(ctxOrView, id) {
  const ctx = ctxOrView && ctxOrView.view ? ctxOrView : { view: ctxOrView };
  const p = card(ctx.view, id);
  if (!p) return "a player";
  const role = ROLES[p.role] || "";
  const name = shortName(p);
  return name === role || !p.name ? role : `${name}, ${role}`;
}

const sideName = (s) => (sideOf(s) === 0 ? "Home" : sideOf(s) === 1 ? "Visitors" : "");

function describe(text, ctxOrView) {
  const ctx = ctxOrView && ctxOrView.view ? ctxOrView : { view: ctxOrView };
  const [kind, ...args] = text.split(" ");
  const P = (id) => playerLabel(ctx, id);
  switch (kind) {
    case "toss": return args[0] === "home" ? "Play at home (kick off first)" : "Play as the visitors";
    case "handler": return `${P(args[0])} plays the ball`;
    case "action": return { maneuver: "Play a maneuver", shoot: "Shoot", timeout: "Call a time out" }[args[0]] || cap(args[0]);
    case "challenge": return `${P(args[0])} challenges`;
    case "card": return `Play ${cardName(args[0])}`;
    case "pass": return `Pass to ${P(args[0])}`;
    case "speed": return `Set the ball's speed to ${args[0]}`;
    case "dribble": return `Dribble ${plural(Number(args[0]), "space")}`;
    case "throw": return `Throw ${plural(Number(args[0]), "space")}`;
    case "receive": case "pick": return `${P(args[0])} takes it`;
    case "shot": return args[0] === "take" ? "Take the shot" : "Let the shot go";
    case "sub": return `${P(args[1])} comes on for ${P(args[0])}`;
    case "move": return `Move ${P(args[0])} to ${args[1]}`;
    case "swap": return `Swap ${P(args[0])} and ${P(args[1])}`;
    case "run": return `${P(args[0])} runs back to ${args[1]}`;
    case "clear": return `${P(args[0])} clears a token`;
    case "send": return args[0] === "none" ? "Send nobody" : `Send ${P(args[0])}`;
    case "order": return `Shooting order: ${args.map(P).join(", ")}`;
    case "shooter": return `${P(args[0])} shoots`;
    case "finish": return "Finish coaching";
    case "skip": return "Change nothing";
    case "formation": return `Line up ${args[0]}`;
    case "declare": return args[0] === "none" ? "No power-up on this roll" : `${ENUMS[args[0]] || cap(args[0])} on this roll`;
    case "pull": return args[0] === "none" ? "No Mind Pull" : `${P(args[0])} tries a Mind Pull`;
    case "smooth": return args[0] === "none" ? "Leave it" : `${P(args[0])} takes the ball over`;
    case "fly": return args[0] === "none" ? "Zenith stays" : `Zenith flies to ${args[0]}`;
    case "quantor": return args[1] === "yes" || args.length === 1 ? `Throw ${args[0]} with Quantor running onto it` : `Throw ${args[0]}`;
    case "aim": return `Drop the Setup Pass ${plural(Number(args[0]), "space")} ahead`;
    case "drive": return `Drive it ${plural(Number(args[0]), "space")} further back`;
    case "partner": return `${P(args[0])} joins the Double Team`;
    case "join": return args[0] === "yes" ? "Glompex joins the ball" : "Glompex stays";
    case "scorch": return args[0] === "force" ? "Force the skill test (Scorchit tires 2)" : "Accept the loss";
    default: return `${KINDS[kind] || cap(kind)}${args.length ? ": " + args.map((a) => (isPlayer(a) ? P(a) : ENUMS[a] || a)).join(", ") : ""}`;
  }
}

// ---- what happened ---------------------------------------------------------------

// The parts of a roll's total: "14 (die 7 + skill 4 + Midfielder 3)".
function parts(part) {
  if (!part) return "";
  const bits = [`die ${part.die}`];
  const add = (label, n) => { if (n) bits.push(`${n < 0 ? "− " + -n : "+ " + n} ${label}`); };
  const items = [];
  if (part.skill) items.push(["skill", part.skill]);
  if (part.midfielder) items.push(["Midfielder", part.midfielder]);
  if (part.speed) items.push(["speed", part.speed]);
  if (part.striker) items.push(["Striker", part.striker]);
  if (part.ignite) items.push([part.ignite, part.ignite === "burn" ? -part.second : part.second]);
  if (part.overdrive) items.push(["Overdrive", part.overdrive]);
  if (part.boost) items.push(["Boost", part.boost]);
  if (part.zorch) items.push(["Zorch", part.zorch]);
  for (const m of part.merge || []) items.push(["merge", m.adds]);
  if (part.partner) items.push(["partner", part.partner.skill]);
  for (const [label, n] of items) add(label, n);
  return `${part.total} (${bits.join(" ")})`;
}

const HALF = (p) => (p === 1 ? "first half" : p === 2 ? "second half" : "extra time");

// One entry per event kind the engine emits.  `null` is a deliberate silence: the
// event only records something another line already says (the decision itself, a die
// whose face the test it decides shows).
const EVENTS = {
  "action": (e, c) => `${cap(team(c, e.side))} ${{ maneuver: "plays a maneuver", shoot: "shoots", timeout: "calls a time out" }[e.action] || "acts"}.`,
  "ball-moves": (e) => `The ball moves from ${e.frm} to ${e.to}.`,
  "ball-rolls": (e) => `No teammate in reach: the ball rolls on to ${e.to} (speed ${e.speed}).`,
  "beaten": (e) => `${cardName(e.card)} was beaten and pays its price.`,
  "boost": (e, c) => `${cap(who(c, e.player))} Boosts: +${e.bonus}${e.drain ? ` (drain ${e.drain})` : ""}.`,
  "challenger": (e, c) => `${cap(who(c, e.player))} challenges.`,
  "chosen": (e, c) => (e.decision ? `${cap(team(c, e.side))} chose: ${describe(e.decision, c)}.` : `${cap(team(c, e.side))} has chosen, in secret.`),
  "clear": (e, c) => `${cap(who(c, e.player))} recovers ${plural(e.n, e.word === "drain" ? "drain" : "token", e.word === "drain" ? "drain" : "tokens")} (${e.tokens} left).`,
  "clock": (e) => `${plural(e.cost, "minute")} pass: minute ${e.minute}.`,
  "coaching-finished": (e, c) => `${cap(team(c, e.side))} finishes coaching.`,
  "coaching-skipped": (e, c) => `${cap(team(c, e.side))} changes nothing.`,
  "contest": (e, c) => `Fight for the ball: ${who(c, e.last.player)} ${parts(e.last)} against ${who(c, e.other.player)} ${parts(e.other)}: ${e.winner === "tie" ? "a tie, they go again" : `${who(c, e.winner)} wins it`}.`,
  "deal": () => "The teams line up.",
  "decision": () => null,
  "deflect": (e, c) => `${cap(who(c, e.player))} deflects the ball to ${e.to} (speed ${e.speed})${e.out_of_field ? "; it runs out of the field" : ""}.`,
  "double-team": (e, c) => `${cap(who(c, e.challenger))}${e.partner ? ` and ${who(c, e.partner)}` : ""} double-team ${who(c, e.handler)} back to ${e.to}.`,
  "double-team-beaten": (e, c) => { const ids = Object.keys(e.moved || {}); return ids.length ? `The Double Team is beaten: ${ids.map((id) => `${who(c, id)} steps up to ${e.moved[id]}`).join(", ")}.` : "The Double Team is beaten."; },
  "dribble": (e, c) => `${cap(who(c, e.player))} dribbles ${plural(e.spaces || 1, "space")} to ${e.to}.`,
  "dribble-burst": (e, c) => `${cap(who(c, e.player))} bursts ${plural(e.spaces, "space")} to ${e.to}; the ball is at speed ${e.speed || 12}.`,
  "drive": (e, c) => `${cap(who(c, e.player))} drives the ball ${plural(e.spaces, "more space", "more spaces")} back.`,
  "exhaust": (e, c) => `${cap(who(c, e.player))} tires: ${e.word === "drain" ? "drain" : "tokens"} now ${e.tokens}.`,
  "extra-clear": (e, c) => `${cap(who(c, e.player))} clears one more token (${e.tokens} left).`,
  "flies": (e, c) => `${cap(who(c, e.player))} flies from ${e.frm} to ${e.to}.`,
  "forced": () => null,
  "formation": (e, c) => `${cap(team(c, e.side))} lines up ${e.formation}.`,
  "full-time": (e) => `Full time: ${e.score[0]} : ${e.score[1]}.`,
  "gambits": (e, c) => { const w = [0, 1].filter((s) => e[s === 0 ? "home" : "visitors"]); return w.length ? `${cap(w.map((s) => team(c, s)).join(" and "))} may play gambits (behind).` : null; },
  "glompex-joins": (e, c) => `${cap(who(c, e.player))} joins the ball at ${e.to}.`,
  "goal": (e, c) => (e.kind === "own-goal" ? `Own goal by ${who(c, e.player)}! ${e.score[0]} : ${e.score[1]}.` : e.kind === "shootout" ? `${cap(who(c, e.player))} scores in the shootout: ${e.score[0]} : ${e.score[1]}.` : `GOAL! ${cap(who(c, e.player))} scores: ${e.score[0]} : ${e.score[1]}.`),
  "halftime": (e) => `Half time: ${e.score[0]} : ${e.score[1]}.`,
  "handler": (e, c) => `${cap(who(c, e.player))} has the ball.`,
  "high-pass": (e, c) => `${cap(who(c, e.frm))} plays a High Pass ${plural(e.spaces, "space")} to ${e.to}${e.overshoot ? "; it overshoots" : ""}.`,
  "ignite": (e, c) => `${cap(who(c, e.player))}'s die shows ${e.face} and ignites: a ${e.kind === "burn" ? `burn, −${e.second}` : `blaze, +${e.second}`}.`,
  "injured-forced-test": (e, c) => `${cap(who(c, e.player))} is injured, so winning on the cards is not enough: a skill test.`,
  "injured-tie": (e) => `Same rank against an injured player: the ${e.loser === "O" ? "attack" : "defence"} loses without a roll.`,
  "injury-check": (e, c) => `${cap(who(c, e.player))}'s ${e.word === "damage" ? "damage test" : "injury check"}: rolled ${e.die}${e.total !== undefined && e.total !== e.die ? ` (${e.total} in all)` : ""}, needed more than ${e.tokens}: ${e.injured ? (e.word === "damage" ? "damaged!" : "injured!") : "fine"}.`,
  "intercept": (e, c) => `${cap(who(c, e.player))} intercepts and carries the ball to ${e.to}.`,
  "kickoff": (e, c) => `Kick-off: ${team(c, e.side)} starts at ${e.space}.`,
  "last-possession": (e, c) => `Minute ${e.minute}: last possession for ${team(c, e.side)}. The half ends when they lose the ball.`,
  "lights-ball": (e, c) => `${cap(who(c, e.player))} lights the ball: speed ${e.speed}.`,
  "loose": (e) => `The ball is loose at ${e.space}.`,
  "loose-sends": (e, c) => { const s = [["home", 0], ["visitors", 1]].filter(([k]) => e[k] && e[k] !== "none").map(([k]) => who(c, e[k])); return s.length ? `Chasing the loose ball: ${s.join(" and ")}.` : "Nobody chases the loose ball."; },
  "mind-pull": (e, c) => `${cap(who(c, e.player))} tries a Mind Pull at ${e.space}: rolled ${e.die}, needed ${e.needs} or more: ${e.lands ? "the ball is pulled in" : "it fails"}.`,
  "miss": () => "The shot misses.",
  "new-play": (e, c) => `New play: ${team(c, e.side)} restarts at ${e.space}.`,
  "out-of-bounds": (e, c) => `Nobody went for it: the ball goes out at ${e.space}, and ${team(c, e.side)} takes over.`,
  "out-of-play": (e) => `Nobody to throw to: the ball goes out of play at ${e.space}.`,
  "overdrive": (e, c) => `${cap(who(c, e.player))} Overdrives: +${e.bonus}${e.drain ? ` (drain ${e.drain})` : ""}.`,
  "overshoot": (e) => `The High Pass from ${e.frm} overshoots the field.`,
  "own-goal-risk": (e, c) => `${cap(who(c, e.player))} is pushed against their own goal: an own-goal roll.`,
  "own-goal-roll": (e, c) => `${cap(who(c, e.player))}'s own-goal roll: dice ${e.dice.join(" and ")}, best + skill = ${e.total}, needed 7: ${e.avoided ? "saved" : "own goal!"}`,
  "pass": (e, c) => `${cap(who(c, e.frm))} passes to ${who(c, e.to)} at ${e.space} (speed ${e.speed}).`,
  "passer-steps": (e, c) => `${cap(who(c, e.player))} steps forward to ${e.to}.`,
  "period-ends": (e) => `The ${HALF(e.period)} ends at minute ${e.minute}.`,
  "positioning": (e, c) => `${cap(who(c, e.player))} moves to ${e.to}.`,
  "possession-lost": (e, c) => `The burst is beaten: ${who(c, e.player)} takes the ball at speed ${e.speed}.`,
  "pressure": (e, c) => `${cap(who(c, e.challenger))} pressures ${who(c, e.handler)} back to ${e.to}.`,
  "pulled": (e, c) => `${cap(who(c, e.player))} pulls the ball in to ${e.space}.`,
  "receiver": (e, c) => `${cap(who(c, e.player))} is the receiver.`,
  "reset": () => "Everyone goes back to their positions.",
  "resolves": (e) => `${cardName(e.card)} goes ahead.`,
  "reveal": (e) => { const o = cardName(e.offense); const d = cardName(e.defense); return `Cards: ${o} against ${d}. ${e.winner === "O" ? `${o} beats ${d}.` : e.winner === "D" ? `${d} beats ${o}.` : "Same rank: the dice decide."}`; },
  "roll": () => null,
  "run-back": (e, c) => `${cap(who(c, e.player))} runs back from ${e.frm} to ${e.to}.`,
  "runs-onto-pass": (e, c) => `${cap(who(c, e.player))} runs from ${e.frm} onto the pass at ${e.to}.`,
  "scorchit-accepts": () => "Scorchit accepts the loss.",
  "scorchit-forces": (e, c) => `${cap(who(c, e.player))} forces a skill test anyway.`,
  "score-attempt": (e, c) => { const wall = (e.defense.wall || []).reduce((a, w) => a + w.adds, 0); return `${cap(who(c, e.player))} shoots${e.setup ? " off a set-up" : ""}: ${parts(e.attack)} against ${e.defense.total} (keeper's die ${e.defense.die}${wall ? ` + ${wall} from defenders in the way` : ""}): ${e.goal ? "GOAL!" : "saved."}`; },
  "send": (e, c) => `${cap(who(c, e.player))} walks from ${e.frm} to ${e.to}.`,
  "send-nobody": (e, c) => `${cap(team(c, e.side))} sends nobody.`,
  "set-up-declined": (e, c) => `${cap(who(c, e.player))} lets the chance to shoot go.`,
  "set-up-taken": (e, c) => `${cap(who(c, e.player))} takes the chance to shoot.`,
  "setup-pass": (e, c) => `${cap(who(c, e.frm))} drops a Setup Pass ${plural(e.spaces, "space")} ahead at ${e.to} (speed ${e.speed}).`,
  "shooters": (e, c) => `Shootout kick ${e.test}: ${who(c, e.home)} against ${who(c, e.visitors)}.`,
  "shootout": () => "It goes to a shootout!",
  "shootout-test": (e, c) => `${cap(who(c, e.home.player))} ${parts(e.home)} against ${who(c, e.visitors.player)} ${parts(e.visitors)}: ${e.scorer < 0 ? "level, no goal" : `${team(c, e.scorer)} scores`}.`,
  "shootout-won": (e, c) => `${cap(team(c, e.side))} wins the shootout!`,
  "skill-test": (e, c) => `Skill test: ${who(c, e.offense.player)} ${parts(e.offense)} against ${who(c, e.defense.player)} ${parts(e.defense)}: ${e.winner === "tie" ? "a tie, they roll again" : `${who(c, e.winner === "O" ? e.offense.player : e.defense.player)} wins`}.`,
  "slitheron": (e, c) => `${cap(who(c, e.player))} slithers in and takes the ball without a roll.`,
  "smooth": (e, c) => `${cap(who(c, e.player))} takes the ball over at ${e.space}.`,
  "speed": (e) => `The ball's speed is now ${e.speed}.`,
  "steal": (e, c) => `${cap(who(c, e.player))} steals the ball and carries it to ${e.to}.`,
  "steal-turnover": (e, c) => `Turnover: ${team(c, e.side)} has the ball.`,
  "substitution": (e, c) => `${cap(who(c, e.on))} comes on for ${who(c, e.off)}.`,
  "sudden-death": () => "Sudden death: the next difference wins.",
  "takes-ball": (e, c) => `${cap(who(c, e.player))} takes the ball at ${e.space}.`,
  "time-out": (e, c) => `${cap(team(c, e.side))} calls a time out.`,
  "toss": (e, c) => `The coin shows ${e.coin}: ${seatName(c, e.winner_seat)} wins the toss.`,
  "home-by-pairing": (e, c) => `The pairing makes ${seatName(c, e.home_seat)} the home side: nobody chooses after the toss.`,
  "toss-choice": (e, c) => `${cap(seatName(c, e.seat))} chooses to play ${e.choice === "home" ? "at home" : "as the visitors"}.`,
  "turn": (e, c) => `${cap(team(c, e.side))} has the ball at ${e.space} (speed ${e.speed}).`,
  "unchallenged": (e) => `Nobody challenges: ${cardName(e.card)} goes ahead.`,
  "unopposed-low-pass": (e, c) => `${cap(who(c, e.player))} plays a free Low Pass from ${e.space}.`,
  "vorix-pass": (e, c) => `${cap(who(c, e.player))} takes the long pass at speed ${e.speed}.`,
  "zone-swap": (e, c) => `${cap(team(c, e.side))} swaps ${who(c, e.players[0])} and ${who(c, e.players[1])}.`,
  "acidel": (e, c) => `${cap(who(c, e.player))} turns the pressure into a shot at ${e.space}.`,
};

// One event in words (a string), null for a deliberate silence, or undefined for a
// kind this file has no words for yet (the caller shows a neutral line; a test fails).
function narrate(e, ctx) {
  const f = EVENTS[e.t];
  if (!f) return undefined;
  try { return f(e, ctx); } catch (err) { return undefined; }
}

export default {
  lang: "en",
  ROLES, CARDS, KINDS, ENUMS, STEPS, ERRORS, MODES, MODE_HINTS, TEAMS, UI, BOT_LEVELS,
  BOT_LEVEL_HINTS,
  ROLE_INFO, SPECIES_INFO, ABILITIES, KIND_HELP, CARD_LONG, LAWS, TUTORIAL,
  EVENTS, playerLabel, sideName, cardName, describe, narrate, who, team, parts,
  unknownEvent: "Something happened that this version of the app cannot put into words yet.",
};
