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
  strongest: "Looks further ahead; takes up to a second over each move.",
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

// ---- screens ---------------------------------------------------------------------

const UI = {
  appName: "Kickline",
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
    opponent: "Your opponent",
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
    oppAway: (state) => `Your opponent is ${state}…`,
    decision: "Your decision", report: "Match report", whatHappened: "What happened",
    resign: "Resign", resignAsk: "Resign this match?",
    timedOut: (what) => `Your time ran out, so the server played ${what ? `"${what}"` : "the default"} for you.`,
    offline: "You are offline; the move was not sent. It can be sent once reconnected.",
    dropped: "The connection dropped before the server answered; your move will be re-sent once reconnected.",
    clockYou: "You", clockOpp: "Opponent",
  },
  chooser: {
    choose: "Choose", whatNext: "What next?", coaching: "Coaching Choice", confirm: "Confirm", back: "Back",
    soFar: (words) => `So far: ${words}`,
    tapMeeple: "Tap a highlighted meeple, or a name below.",
    tapSpace: "Tap a highlighted space, or a button below.",
    number: "Choose a number", less: "less", more: "more",
    range: (a, b) => `From ${a} to ${b}`, pickNumber: (n) => `Choose ${n}`,
    shootoutStep: (i, n) => `Shootout order: shooter ${i} of ${n}`,
    speedBecomes: (n) => `The ball's speed becomes ${n}.`,
    preview: (lines) => `Preview: ${lines}`,
  },
  preview: {
    failed: "Rules preview unavailable (server list used)", loading: "Rules preview loading…",
    checked: "Rules preview: checked ✓", ready: "Rules preview: ready",
    disagreements: (n) => ` · disagreements: ${n}`,
  },
  over: {
    draw: "A draw", noResult: (why) => `No result (${why})`, seatWins: (n) => `Seat ${n} wins`,
    youWin: "You win!", youLose: "You lose",
    score: (a, b) => `${a} : ${b} (seat 1 : seat 2)`,
    reasons: { played: "played to the end", resigned: "by resignation", gone: "the opponent left", timeouts: "too many timeouts", expired: "expired", abandoned: "abandoned", cancelled: "called off" },
    afterShootout: " · after a shootout",
    fairTitle: "Provably fair dice",
    fairText: (commit, seed) => `Before the match the server committed to its dice seed: sha256 = ${commit}. Now it reveals the seed: ${seed}.`,
    commitSame: "✓ This is the commitment you were shown during the match.",
    commitDiffers: "✗ This is NOT the commitment you were shown during the match!",
    check: "Check the dice and replay", checking: "Checking…",
    noHash: "The seed's hash could not be computed here (needs a secure page).",
    hashOk: "✓ The revealed seed matches the commitment.",
    hashBad: "✗ The revealed seed does NOT match the commitment.",
    noPreview: "The rules preview is not loaded, so the dice could not be replayed.",
    diceOk: (n) => `✓ Every die in the match follows from the seed (${n} log entries replayed).`,
    mixText: "The dice did not come from the server's seed alone: it was mixed with a random number from each player's device, each sealed before anyone's was shown. So neither the server nor your opponent could choose the dice.",
    mineUsed: "✓ Your device's random number is the one mixed into the dice.",
    mineMissing: "✗ The random number the server mixed in for you is NOT the one your device drew!",
    mineNone: "This device sent no random number for this match (another device, or an older page), so the dice came from the server's seed and your opponent's number.",
    sealsOk: "✓ Each player's random number matches the seal they sent before the match.",
    sealsBad: "✗ A player's random number does NOT match the seal they sent before the match.",
    diceBad: (why) => `✗ ${why}`,
    newMatch: "New match", replay: "Replay", replayPos: "Replay position", prev: "◀ Back", next: "Next ▶",
    move: (i, n, seat, what, a, b) => `Move ${i} of ${n}: seat ${seat} — ${what} · ${a} : ${b}`,
  },
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
    space: (s, zone) => `Space ${s}, ${zone}`,
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
    withdraw: "Withdraw from the event", withdrawAsk: "Withdraw? You will not be paired again.",
    pause: "Sit out the next rounds", resume: "Play again", askBye: (r) => `Ask for a half-point bye in round ${r}`,
    cancelBye: (r) => `Cancel my bye in round ${r}`, checkIn: "Check in", checkedIn: "Checked in",
    // your match
    ready: "Your match is ready", readyLine: (m) => `Round ${m.tournament.round}, board ${m.tournament.board}: against ${m.opponent}`,
    play: "Play it now", yourBoard: "Your board",
    notifyOn: "Tell me when my match is ready", notifyBody: (m) => `Round ${m.tournament.round} against ${m.opponent}`,
    // players
    number: "No.", name: "Player", rating: "Rating", unrated: "unrated", points: "Pts",
    statuses: { active: "playing", paused: "sitting out", withdrawn: "withdrawn" },
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
    boardsLive: (open, total) => `${open} of ${total} boards still playing`, overdue: "past the round's deadline",
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
    selfWithdraw: "Players may withdraw themselves", noShow: "Forfeit a player who has not come after (minutes)",
    roundMinutes: "Round deadline (minutes, empty: none)", create: "Create the event", save: "Save",
    // score card
    card: "Score card", total: "Total", rank: (r) => `Rank ${r}`, against: (n) => `against ${n}`, pending: "being played",
    outcome: { win: "won", loss: "lost", draw: "drew" }, forfeitWin: "won (opponent did not come)", forfeitLoss: "lost (did not come)",
  },
};

// ---- players and decisions in words ----------------------------------------------

function playerLabel(view, id) {
  if (!id) return "nobody";
  const p = view && view.players ? view.players.find((q) => q.id === id) : null;
  if (!p) return id;
  const side = p.side === "home" ? "Home" : "Visitors";
  const name = p.name ? ` ${p.name}` : "";
  return `${side}' ${ROLES[p.role] || p.role}${name} (${id})`;
}

const sideName = (s) => (typeof s === "number" ? ["Home", "Visitors"][s] : s === "home" ? "Home" : s === "visitors" ? "Visitors" : String(s));
const cardName = (c) => (CARDS[c] ? CARDS[c][0] : c);
const isPlayer = (a) => /^[hv][0-8]$/.test(a);

function describe(text, view) {
  const [kind, ...args] = text.split(" ");
  const words = args.map((a) => (isPlayer(a) ? playerLabel(view, a) : CARDS[a] ? CARDS[a][0] : ENUMS[a] || a));
  switch (kind) {
    case "card": return `Play ${words[0]}`;
    case "pass": return `Pass to ${words[0]}`;
    case "speed": return `Set the ball's speed to ${args[0]}`;
    case "dribble": return `Dribble ${args[0]} space${args[0] === "1" ? "" : "s"}`;
    case "throw": return `Throw ${args[0]} space${args[0] === "1" ? "" : "s"}`;
    case "sub": return `${words[1]} comes on for ${words[0]}`;
    case "move": return `Move ${words[0]} to ${args[1]}`;
    case "swap": return `Swap ${words[0]} and ${words[1]}`;
    case "run": return `${words[0]} runs back to ${args[1]}`;
    case "send": return args[0] === "none" ? "Send no one" : `Send ${words[0]}`;
    case "order": return `Shootout order: ${args.join(", ")}`;
    case "finish": return "Finish coaching";
    case "skip": return "Skip coaching";
    case "formation": return `Line up ${args[0]}`;
    case "declare": return args[0] === "none" ? "No Overdrive on this roll" : `${ENUMS[args[0]]} on this roll`;
    case "pull": return args[0] === "none" ? "No Mind Pull" : `${words[0]} tries a Mind Pull`;
    case "smooth": return args[0] === "none" ? "No Smooth" : `${words[0]} takes the ball over`;
    case "fly": return args[0] === "none" ? "Zenith stays" : `Zenith flies to ${args[0]}`;
    case "quantor": return `Throw ${args[0]} with Quantor running onto it`;
    case "aim": return `Pick the Setup Pass out ${args[0]} ahead`;
    case "drive": return `Drive it ${args[0]} further back`;
    case "join": return args[0] === "yes" ? "Glompex joins the ball" : "Glompex stays";
    case "scorch": return args[0] === "force" ? "Force the skill test (Scorchit tires 2)" : "Accept the loss";
    default: return `${KINDS[kind] || kind}: ${words.join(", ")}`;
  }
}

// ---- what happened ---------------------------------------------------------------

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
function narrate(e, view) {
  const P = (id) => playerLabel(view, id);
  switch (e.t) {
    case "toss": return `Coin toss: ${e.coin}. Seat ${e.winner_seat + 1} wins the toss.`;
    case "toss-choice": return `Seat ${e.seat + 1} chooses to play ${e.choice}.`;
    case "home-by-pairing": return `The pairing names seat ${e.home_seat + 1} home: no toss.`;
    case "deal": return "The players take the field.";
    case "kickoff": return `Kick-off: ${sideName(e.side)} at ${e.space}.`;
    case "turn": return `${sideName(e.side)}' turn, ball at ${e.space}, speed ${e.speed}.`;
    case "decision": case "forced": return null;
    case "handler": return `${P(e.player)} handles the ball.`;
    case "action": return `${sideName(e.side)} choose: ${ENUMS[e.action] || e.action}.`;
    case "challenger": return `${P(e.player)} challenges.`;
    case "chosen": return `${sideName(e.side)} have chosen${e.decision ? ` (${e.decision})` : ""}.`;
    case "reveal": {
      const w = e.winner === "O" ? "the offense wins on the cards" : e.winner === "D" ? "the defense wins on the cards" : "a skill test decides";
      return `Cards revealed: ${cardName(e.offense)} against ${cardName(e.defense)}; ${w}.`;
    }
    case "roll": return `Die: ${e.die}${e.player ? ` for ${P(e.player)}` : ""}.`;
    case "skill-test": {
      const win = e.winner === "O" ? e.offense.player : e.defense.player;
      return `Skill test: ${P(e.offense.player)} ${total(e.offense)} against ${P(e.defense.player)} ${total(e.defense)}. ${P(win)} wins it.`;
    }
    case "contest": return `Contest: ${P(e.last.player)} ${total(e.last)} against ${P(e.other.player)} ${total(e.other)}; ${P(e.winner)} gets it.`;
    case "exhaust": return `${P(e.player)} tires (${e.tokens} token${e.tokens === 1 ? "" : "s"}).`;
    case "resolves": return `${cardName(e.card)} goes ahead.`;
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
    case "beaten": return `${cardName(e.card)} is beaten and pays for it.`;
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

export default {
  lang: "en",
  ROLES, CARDS, KINDS, ENUMS, STEPS, ERRORS, MODES, MODE_HINTS, TEAMS, UI, BOT_LEVELS,
  BOT_LEVEL_HINTS,
  ROLE_INFO, SPECIES_INFO, ABILITIES, KIND_HELP, CARD_LONG, LAWS,
  playerLabel, sideName, cardName, describe, narrate,
};
