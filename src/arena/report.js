// The replay of wuzi-arena's report page: the game list, and a board drawn for the run's
// game and size on which any game is stepped through. Captures (pente, ninuki) are played
// out here as the rules take them: a stone that flanks exactly two opponent stones in a
// line removes them.
"use strict";
const GAMES = JSON.parse(document.getElementById("game-data").textContent);
const byId = new Map(GAMES.map(g => [g.id, g]));
const NS = "http://www.w3.org/2000/svg";
const W = SETUP.width, H = SETUP.height;
const CELL = Math.max(14, Math.min(36, Math.floor(560 / Math.max(W, H))));
const PAD = SETUP.kind === "mnk" || SETUP.kind === "connect4" ? 4 : CELL / 2 + 10;
const board = document.getElementById("board");
let game = null, ply = 0, frames = [];

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

function label(x, y) {
  return x + "," + y;
}

// Every position of a game: frames[i] is the board after i stones (opening included),
// with the stones captured by the i-th stone.
function positions(g) {
  const cells = new Array(W * H).fill(0);
  const caps = [0, 0];
  const out = [{cells: cells.slice(), caps: caps.slice(), taken: []}];
  const stones = g.opening.concat(g.moves);
  for (let i = 0; i < stones.length / 2; i++) {
    const x = stones[2 * i], y = stones[2 * i + 1], c = i % 2 === 0 ? 1 : 2;
    cells[y * W + x] = c;
    const taken = [];
    if (SETUP.kind === "capture") {
      for (const [dx, dy] of [[1, 0], [0, 1], [1, 1], [1, -1], [-1, 0], [0, -1], [-1, -1], [-1, 1]]) {
        const at = k => {
          const px = x + k * dx, py = y + k * dy;
          return px >= 0 && py >= 0 && px < W && py < H ? cells[py * W + px] : -1;
        };
        if (at(1) === 3 - c && at(2) === 3 - c && at(3) === c) {
          for (const k of [1, 2]) {
            cells[(y + k * dy) * W + x + k * dx] = 0;
            taken.push([x + k * dx, y + k * dy]);
          }
          caps[c - 1] += 1;
        }
      }
    }
    out.push({cells: cells.slice(), caps: caps.slice(), taken});
  }
  return out;
}

function drawGrid() {
  board.innerHTML = "";
  const w = 2 * PAD + (W - (SETUP.kind === "gomoku" || SETUP.kind === "capture" ? 1 : 0)) * CELL;
  const h = 2 * PAD + (H - (SETUP.kind === "gomoku" || SETUP.kind === "capture" ? 1 : 0)) * CELL;
  board.setAttribute("width", w);
  board.setAttribute("height", h);
  board.setAttribute("viewBox", "0 0 " + w + " " + h);
  if (SETUP.kind === "connect4") {
    el("rect", {x: 0, y: 0, width: w, height: h, fill: "#1f4fb4"}, board);
    for (let x = 0; x < W; x++) {
      const t = el("text", {x: PAD + (x + 0.5) * CELL, y: h - 1, "font-size": 9, fill: "#fff", "text-anchor": "middle"}, board);
      t.textContent = x + 1;
    }
  } else if (SETUP.kind === "mnk") {
    el("rect", {x: 0, y: 0, width: w, height: h, fill: "#fff"}, board);
    for (let i = 1; i < W; i++) el("line", {x1: PAD + i * CELL, y1: PAD, x2: PAD + i * CELL, y2: PAD + H * CELL, stroke: "#333", "stroke-width": 2}, board);
    for (let i = 1; i < H; i++) el("line", {x1: PAD, y1: PAD + i * CELL, x2: PAD + W * CELL, y2: PAD + i * CELL, stroke: "#333", "stroke-width": 2}, board);
  } else {
    el("rect", {x: 0, y: 0, width: w, height: h, fill: "#e3b86b"}, board);
    for (let i = 0; i < W; i++) {
      el("line", {x1: PAD + i * CELL, y1: PAD, x2: PAD + i * CELL, y2: PAD + (H - 1) * CELL, stroke: "#5a4020"}, board);
      const t = el("text", {x: PAD + i * CELL, y: 9, "font-size": 9, "text-anchor": "middle"}, board);
      t.textContent = i;
    }
    for (let i = 0; i < H; i++) {
      el("line", {x1: PAD, y1: PAD + i * CELL, x2: PAD + (W - 1) * CELL, y2: PAD + i * CELL, stroke: "#5a4020"}, board);
      const t = el("text", {x: 2, y: PAD + i * CELL + 3, "font-size": 9}, board);
      t.textContent = i;
    }
  }
}

function centre(x, y) {
  if (SETUP.kind === "gomoku" || SETUP.kind === "capture") return [PAD + x * CELL, PAD + y * CELL];
  return [PAD + (x + 0.5) * CELL, PAD + (y + 0.5) * CELL];
}

function drawStones() {
  drawGrid();
  const f = frames[ply];
  if (SETUP.kind === "connect4") {
    // the empty holes, under the stones
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
      const [cx, cy] = centre(x, y);
      el("circle", {cx, cy, r: CELL * 0.4, fill: "#fff"}, board);
    }
  }
  const layer = el("g", {id: "stones"}, board);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
    const c = f.cells[y * W + x];
    if (!c) continue;
    const [cx, cy] = centre(x, y);
    const data = {"data-x": x, "data-y": y, "data-c": c === 1 ? "black" : "white", class: "stone"};
    if (SETUP.kind === "mnk") {
      const t = el("text", Object.assign({x: cx, y: cy + CELL * 0.25, "font-size": CELL * 0.7, "text-anchor": "middle", fill: c === 1 ? "#222" : "#c33"}, data), layer);
      t.textContent = c === 1 ? "X" : "O";
    } else if (SETUP.kind === "connect4") {
      el("circle", Object.assign({cx, cy, r: CELL * 0.4, fill: c === 1 ? "#d22" : "#f5d311"}, data), layer);
    } else {
      el("circle", Object.assign({cx, cy, r: CELL * 0.45, fill: c === 1 ? "#111" : "#fafafa", stroke: "#333"}, data), layer);
    }
  }
  for (const [x, y] of f.taken) {
    const [cx, cy] = centre(x, y);
    const r = CELL * 0.25;
    el("path", {d: `M${cx - r},${cy - r}L${cx + r},${cy + r}M${cx - r},${cy + r}L${cx + r},${cy - r}`, stroke: "#c00", "stroke-width": 2, class: "taken"}, board);
  }
  if (ply > 0) {
    const all = game.opening.concat(game.moves);
    const [cx, cy] = centre(all[2 * ply - 2], all[2 * ply - 1]);
    el("circle", {cx, cy, r: CELL * 0.16, fill: SETUP.kind === "connect4" ? "#000" : "#e22", id: "last-move"}, board);
  }
}

function text(s) {
  return document.createTextNode(s);
}

function showMove() {
  drawStones();
  const nOpen = game.opening.length / 2;
  const total = frames.length - 1;
  document.getElementById("counter").textContent = "stone " + ply + " of " + total;
  document.getElementById("jump").value = ply;
  const info = document.getElementById("moveinfo");
  info.innerHTML = "";
  const f = frames[ply];
  const p = document.createElement("p");
  if (ply === 0) {
    p.appendChild(text("empty board"));
  } else if (ply <= nOpen) {
    p.appendChild(text("opening stone " + ply));
  } else {
    const i = ply - nOpen - 1;
    const all = game.opening.concat(game.moves);
    const who = (ply - 1) % 2 === 0 ? game.black + " (black)" : game.white + " (white)";
    p.appendChild(text("move " + ply + ": " + who + " plays " + label(all[2 * ply - 2], all[2 * ply - 1]) + " in " + game.ms[i] + " ms"));
    const t = game.thinking && game.thinking[i];
    if (t && (t[0] || t[1] || t[2])) {
      p.appendChild(document.createElement("br"));
      p.appendChild(text("depth " + (t[0] || "-") + ", score " + (t[1] || "-") + ", pv " + (t[2] || "-")));
    } else {
      p.appendChild(document.createElement("br"));
      p.appendChild(text("(the engine reported nothing for this move)"));
    }
  }
  if (SETUP.kind === "capture") {
    p.appendChild(document.createElement("br"));
    p.appendChild(text("captured pairs: black " + f.caps[0] + ", white " + f.caps[1] + (f.taken.length ? " (this stone took " + f.taken.length + ")" : "")));
  }
  info.appendChild(p);
  for (const s of document.querySelectorAll("#moves span")) s.classList.toggle("cur", +s.dataset.ply === ply);
}

function go(n) {
  if (!game) return;
  ply = Math.max(0, Math.min(frames.length - 1, n));
  showMove();
}

function select(id, at) {
  game = byId.get(id);
  if (!game) return;
  frames = positions(game);
  const info = document.getElementById("info");
  info.innerHTML = "";
  const h = document.createElement("h3");
  h.textContent = "game " + game.id + ": " + game.black + " (black) vs " + game.white + " (white), " + game.result + ", " + game.termination;
  info.appendChild(h);
  if (game.detail) {
    const d = document.createElement("p");
    d.textContent = game.detail;
    info.appendChild(d);
  }
  const list = document.getElementById("moves");
  list.innerHTML = "";
  const all = game.opening.concat(game.moves);
  for (let i = 1; i <= all.length / 2; i++) {
    const s = document.createElement("span");
    s.dataset.ply = i;
    s.textContent = i + "." + label(all[2 * i - 2], all[2 * i - 1]);
    s.onclick = () => go(i);
    list.appendChild(s);
    list.appendChild(text(" "));
  }
  for (const tr of document.querySelectorAll("#gamelist tr")) tr.classList.toggle("sel", +tr.dataset.id === id);
  go(at === undefined ? frames.length - 1 : at);
}

function fillList() {
  const q = document.getElementById("filter").value.toLowerCase();
  const box = document.getElementById("gamelist");
  const t = document.createElement("table");
  t.innerHTML = "<tr><th>game</th><th class=l>black</th><th class=l>white</th><th>result</th><th class=l>termination</th><th>stones</th></tr>";
  let shown = 0;
  const LIMIT = 500;
  for (const g of GAMES) {
    const hay = (g.black + " " + g.white + " " + g.result + " " + g.termination + " " + g.id).toLowerCase();
    if (q && !hay.includes(q)) continue;
    if (++shown > LIMIT) continue;
    const tr = document.createElement("tr");
    tr.dataset.id = g.id;
    tr.id = "game-row-" + g.id;
    for (const [v, cls] of [[g.id, ""], [g.black, "l"], [g.white, "l"], [g.result, ""], [g.termination, "l"], [(g.opening.length + g.moves.length) / 2, ""]]) {
      const td = document.createElement("td");
      td.textContent = v;
      if (cls) td.className = cls;
      tr.appendChild(td);
    }
    tr.onclick = () => select(g.id);
    t.appendChild(tr);
  }
  box.innerHTML = "";
  box.appendChild(t);
  if (shown > LIMIT) {
    const p = document.createElement("p");
    p.className = "muted";
    p.textContent = (shown - LIMIT) + " more games match: narrow the filter, or follow a link above";
    box.appendChild(p);
  }
}

function fromHash() {
  const m = /^#game-(\d+)$/.exec(location.hash);
  if (m) select(+m[1]);
}

document.getElementById("first").onclick = () => go(0);
document.getElementById("prev").onclick = () => go(ply - 1);
document.getElementById("next").onclick = () => go(ply + 1);
document.getElementById("last").onclick = () => go(frames.length - 1);
document.getElementById("jump").onchange = e => go(+e.target.value);
document.getElementById("filter").oninput = fillList;
document.addEventListener("keydown", e => {
  if (e.target.tagName === "INPUT") return;
  if (e.key === "ArrowLeft") go(ply - 1);
  if (e.key === "ArrowRight") go(ply + 1);
});
for (const a of document.querySelectorAll("a[data-game]")) {
  a.addEventListener("click", e => {
    e.preventDefault();
    select(+a.dataset.game, a.dataset.move ? +a.dataset.move : undefined);
    history.replaceState(null, "", "#game-" + a.dataset.game);
    document.getElementById("games").scrollIntoView();
  });
}
window.addEventListener("hashchange", fromHash);
fillList();
if (GAMES.length) {
  if (/^#game-\d+$/.test(location.hash)) fromHash(); else select(GAMES[0].id);
}
