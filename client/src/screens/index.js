// Every screen of the client.  Importing a screen module registers it with the router
// (addScreen); a new screen is one module in this folder and one line here.
import "./transfer.js";
import "./profile.js";
import "./leaderboard.js";
import "./challenge.js";
import "../presence.js"; // not a screen: the opponent's presence on the match screen
import "./name.js";
import "./home.js";
import "./join.js";
import "./match.js";
import "./rules.js";
import "./settings.js";
import "./tutorial.js";
import "./local.js";
import "./events.js";
import "./event.js";
import "./event-big.js";
import "./event-join.js";
