// The game page: renders the live game from `state` + events and sends the player's decisions
// (game/controller.js). Its configuration is the JSON in #game-config.
import { startGame } from "../game/controller.js";

startGame(JSON.parse(document.getElementById("game-config").textContent));
