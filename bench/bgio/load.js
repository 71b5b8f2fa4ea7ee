// Load for the boardgame.io anchor of `bench/server.py --vs-bgio`: N matches created and
// joined through boardgame.io's lobby API, 2N socket.io clients (websocket transport), each
// player moving as soon as it is its turn (or after 0.5-1.5 x THINK seconds).
//
// Usage: node load.js PORT MATCHES THINK_S SEED
// Speaks JSON lines: prints {"connected": n} when every client has synced, then obeys
// "go" (start moving), "reset" (the warm-up is over: count from now) and "stop" (print
// the figures and exit) read from stdin.
'use strict';
const { io } = require('socket.io-client');
const readline = require('readline');

const [port, matches, think, seed] = process.argv.slice(2).map(Number);
const base = `http://127.0.0.1:${port}`;
let rng = seed || 1;
const random = () => {  // a small LCG: the load is reproducible and costs nothing
  rng = (rng * 1103515245 + 12345) % 2147483648;
  return rng / 2147483648;
};

const stats = { moves: 0, rtts: [], bytesIn: 0, framesIn: 0, measuring: false, going: false };

async function post(path, body) {
  const res = await fetch(base + path, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
  return res.json();
}

function player(matchID, playerID, credentials) {
  const socket = io(`${base}/toy`, { transports: ['websocket'], reconnection: false });
  let sent = null;  // [stateID, t0] of the move in flight
  let last = null;  // the latest state seen
  const act = () => {
    const s = last;
    if (!stats.going || !s || s.ctx.gameover !== undefined || s.ctx.currentPlayer !== playerID) return;
    if (sent && sent[0] === s._stateID) return;
    const move = () => {
      sent = [s._stateID, process.hrtime.bigint()];
      socket.emit('update', { type: 'MAKE_MOVE', payload: {
        type: 'add', args: [1 + Math.floor(random() * 3)], playerID, credentials } },
      s._stateID, matchID, playerID);
    };
    if (think > 0) setTimeout(move, (0.5 + random()) * think * 1000); else move();
  };
  socket.on('sync', (_id, info) => { last = info.state; act(); });
  socket.on('update', (_id, state) => {
    if (sent && state._stateID > sent[0]) {
      if (stats.measuring && state.ctx.currentPlayer !== playerID) {
        stats.rtts.push(Number(process.hrtime.bigint() - sent[1]) / 1e9);
        stats.moves += 1;
      }
      sent = null;
    }
    last = state;
    act();
  });
  socket.io.engine.on('data', (d) => {
    if (stats.measuring) { stats.framesIn += 1; stats.bytesIn += d.length ?? d.byteLength; }
  });
  return new Promise((resolve) => {
    socket.on('connect', () => socket.emit('sync', matchID, playerID, credentials, 2));
    socket.once('sync', () => resolve({ socket, act }));
  });
}

async function main() {
  const players = [];
  for (let i = 0; i < matches; i += 1) {
    const { matchID } = await post('/games/toy/create', { numPlayers: 2, unlisted: true });
    for (const playerID of ['0', '1']) {
      const { playerCredentials } = await post(`/games/toy/${matchID}/join`,
        { playerID, playerName: `p${i}-${playerID}` });
      players.push([matchID, playerID, playerCredentials]);
    }
  }
  const clients = [];
  for (let i = 0; i < players.length; i += 64) {  // dial in small groups
    clients.push(...await Promise.all(players.slice(i, i + 64).map((p) => player(...p))));
  }
  process.stdout.write(JSON.stringify({ connected: clients.length }) + '\n');
  let cpu0 = process.cpuUsage();
  for await (const line of readline.createInterface({ input: process.stdin })) {
    if (line === 'go') {
      stats.going = true;
      clients.forEach((c) => c.act());
    } else if (line === 'reset') {
      stats.measuring = true;
      stats.moves = stats.bytesIn = stats.framesIn = 0;
      stats.rtts = [];
      cpu0 = process.cpuUsage();
    } else if (line === 'stop') {
      const cpu = process.cpuUsage(cpu0);
      clients.forEach((c) => c.socket.close());
      // Exit once the line is flushed: a pipe takes 64 KiB at once, and on a quiet
      // machine the round trips listed make the line longer than that.
      process.stdout.write(JSON.stringify({
        moves: stats.moves, rtts: stats.rtts, bytes_in: stats.bytesIn,
        frames_in: stats.framesIn, cpu_s: (cpu.user + cpu.system) / 1e6 }) + '\n',
      () => process.exit(0));
    }
  }
}

main().catch((err) => { console.error(err); process.exit(1); });
