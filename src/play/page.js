// The browser: the path from the start to the node shown, kept in the
// URL fragment as move names ("#B2,C3,pass").
"use strict";
const D = JSON.parse(document.getElementById("data").textContent);
let path = [0];
let undone = [];

function here() { return D.nodes[path[path.length - 1]]; }

function child(node, name) {
  return node.c.find((i) => D.nodes[i].m === name);
}

function moveButton(i) {
  const n = D.nodes[i];
  const b = document.createElement("button");
  // Bounds are grey: only an exact value has a colour.
  b.className = "move " + (n.n !== null ? n.g : "unknown");
  b.textContent = n.v;
  b.title = n.m + ": " + n.text + " (" + n.l + ")";
  b.dataset.move = n.m;
  b.addEventListener("click", () => go(i));
  return b;
}

function go(i) { path.push(i); undone = []; show(); }
function back() { if (path.length > 1) { undone.push(path.pop()); show(); } }
function forward() { if (undone.length) { path.push(undone.pop()); show(); } }

function drawBoard(node) {
  const t = document.createElement("table");
  const moves = {};
  node.c.forEach((i) => { moves[D.nodes[i].m] = i; });
  for (let r = D.rows - 1; r >= 0; r--) {
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.textContent = D.graph ? "" : String(r + 1);
    tr.appendChild(th);
    for (let c = 0; c < D.cols; c++) {
      const p = r * D.cols + c;
      const td = document.createElement("td");
      td.dataset.point = D.names[p];
      const s = node.p[p];
      if (s === "X" || s === "O") {
        const st = document.createElement("span");
        st.className = "stone " + (s === "X" ? "black" : "white");
        td.appendChild(st);
      } else if (moves[D.names[p]] !== undefined) {
        td.appendChild(moveButton(moves[D.names[p]]));
      }
      tr.appendChild(td);
    }
    t.appendChild(tr);
  }
  const foot = document.createElement("tr");
  foot.appendChild(document.createElement("th"));
  for (let c = 0; c < D.cols; c++) {
    const th = document.createElement("th");
    th.textContent = D.graph ? D.names[c] : D.names[c].replace(/[0-9]+$/, "");
    foot.appendChild(th);
  }
  t.appendChild(foot);
  const box = document.getElementById("board");
  box.replaceChildren(t);
}

function drawChart() {
  const svg = document.getElementById("chart");
  const vals = path.map((i) => D.nodes[i].n);
  const known = vals.filter((v) => v !== null);
  const hi = Math.max(1, ...known.map(Math.abs));
  const w = 360, h = 120, step = vals.length > 1 ? (w - 20) / (vals.length - 1) : 0;
  const y = (v) => h / 2 - (v / hi) * (h / 2 - 10);
  let pts = "";
  let dots = "";
  vals.forEach((v, k) => {
    if (v === null) return;
    pts += (10 + k * step) + "," + y(v) + " ";
    dots += '<circle cx="' + (10 + k * step) + '" cy="' + y(v) + '" r="3" fill="#0072B2"/>';
  });
  svg.innerHTML = '<line x1="0" x2="' + w + '" y1="' + h / 2 + '" y2="' + h / 2 + '" stroke="#999" stroke-dasharray="4"/>' +
    '<polyline fill="none" stroke="#0072B2" stroke-width="2" points="' + pts + '"/>' + dots +
    '<text x="' + (w - 30) + '" y="12" font-size="10">+' + hi + '</text><text x="' + (w - 30) + '" y="' + (h - 3) + '" font-size="10">-' + hi + "</text>";
}

function show() {
  const node = here();
  const names = path.slice(1).map((i) => D.nodes[i].m);
  const frag = "#" + names.join(",");
  if (location.hash !== frag && !(frag === "#" && location.hash === "")) history.replaceState(null, "", frag);
  drawBoard(node);
  const who = node.t === "black" ? "Black" : "White";
  let status = node.o ? "Game over" : who + " to move";
  status += ": value " + node.text + " (" + node.l + ")";
  document.getElementById("status").textContent = status;
  document.getElementById("line").textContent = names.length ? names.join(" ") : "(the start)";
  const pass = document.getElementById("pass");
  const p = child(node, "pass");
  pass.disabled = p === undefined;
  pass.textContent = p === undefined ? "pass" : "pass " + D.nodes[p].v;
  pass.className = p === undefined ? "move" : moveButton(p).className;
  pass.onclick = p === undefined ? null : () => go(p);
  document.getElementById("back").disabled = path.length === 1;
  document.getElementById("forward").disabled = undone.length === 0;
  let note = "";
  if (!node.o && node.c.length === 0) note = "Beyond the exported depth (" + D.depth + " turns): no values here.";
  else if (node.s !== "proof" && node.s !== "over") note = "Outside the proof: this value was " + node.l + ".";
  if (D.graph) note += " The board is a graph, drawn as one row of its points; edges: " + D.edges.map((e) => e.join("-")).join(" ") + ".";
  document.getElementById("note").textContent = note;
  drawChart();
}

// "#B2,C3" opens that line; a part after "|" ("|click=A1,back") clicks
// the page's own controls in turn (how a headless browser test plays).
function load() {
  const [line, script] = decodeURIComponent(location.hash.slice(1)).split("|");
  path = [0];
  undone = [];
  for (const name of (line || "").split(",").filter((s) => s)) {
    const i = child(here(), name);
    if (i === undefined) break;
    path.push(i);
  }
  show();
  if (script && script.startsWith("click=")) {
    for (const step of script.slice(6).split(",")) {
      const el = step === "back" || step === "forward" || step === "pass"
        ? document.getElementById(step)
        : document.querySelector('[data-move="' + step + '"]');
      if (el) el.click();
    }
  }
}

document.getElementById("back").addEventListener("click", back);
document.getElementById("forward").addEventListener("click", forward);
window.addEventListener("hashchange", () => { if (location.hash.indexOf("|") < 0) load(); });
load();
