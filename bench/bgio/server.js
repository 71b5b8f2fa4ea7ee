// The boardgame.io 0.50.2 anchor of `bench/server.py --vs-bgio`: its own Server (Koa +
// socket.io, in-memory storage, its lobby API for creating and joining matches) playing
// a trivial two-player game.  Prints "ready PORT" on stdout once listening; stops when
// stdin closes.  Usage: node server.js PORT
'use strict';
const { Server } = require('boardgame.io/server');
const { INVALID_MOVE } = require('boardgame.io/core');

// The trivial game: players alternate; a move adds 1, 2 or 3 to a shared total (anything
// else is refused).  Validated move, the new state sent to both players, nothing hidden,
// nothing persisted (boardgame.io's default in-memory storage), never over.
const Toy = {
  name: 'toy',
  setup: () => ({ total: 0, moves: [0, 0] }),
  turn: { minMoves: 1, maxMoves: 1 },
  moves: {
    add: ({ G, playerID }, n) => {
      if (!Number.isInteger(n) || n < 1 || n > 3) return INVALID_MOVE;
      G.total += n;
      G.moves[Number(playerID)] += 1;
      return undefined;
    },
  },
};

const port = Number(process.argv[2]);
const server = Server({ games: [Toy], origins: ['http://127.0.0.1'] });
server.run(port, () => process.stdout.write(`ready ${port}\n`)).then((servers) => {
  servers.appServer.on('connection', (s) => s.setNoDelay(true));
  process.stdin.resume();
  process.stdin.on('end', () => {
    server.kill(servers);
    process.exit(0);
  });
});
