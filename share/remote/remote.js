// The phone remote: every button is one request of the kiosk's HTTP API (the same
// requests as `rig ctl`); the live state comes from the event stream /api/events.
// The phone's own credential (a cookie set when it paired at /pair) goes with every request by itself.
"use strict";

const $ = (id) => document.getElementById(id);
let live = {};

async function send(cmd, fields = {}) {
  try {
    const reply = await fetch("/api/" + cmd, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(fields),
      credentials: "same-origin",
    });
    const body = await reply.json();
    $("message").textContent = body.ok ? "" : (body.error || "refused");
    return body;
  } catch (error) {
    $("message").textContent = "no answer from the rig";
    return null;
  }
}

function show(state) {
  live = state;
  $("title").textContent = state.title || state.script || "No script";
  const badge = $("state");
  badge.textContent = state.state || "–";
  badge.className = "badge " + (state.state || "");
  $("speed").textContent = state.speed ?? "–";
  const max = state.max_offset || 0;
  $("progress").style.width = max > 0 ? Math.min(100, (100 * (state.offset || 0)) / max) + "%" : "0";
  $("offset").textContent = max > 0 ? Math.round((100 * (state.offset || 0)) / max) + " %" : "";
  $("blank").classList.toggle("on", !!state.blanked);
  $("outer").classList.toggle("on", state.outer !== false);
  document.body.dataset.state = state.state || "";
  showMarkers(state.markers);
  const game = state.game || {};
  $("game").hidden = !game.open;
  $("prompter").hidden = !!game.open;
  $("phase").textContent = game.phase ? "· " + game.phase : "";
  $("player").textContent = game.player ? "Player: " + game.player : "";
  const allowed = new Set(game.allowed || []);
  for (const button of document.querySelectorAll("[data-game]")) {
    const action = button.dataset.game === "verdict" ? "judge" : button.dataset.game;
    button.disabled = allowed.size > 0 && !allowed.has(action) && !allowed.has(button.dataset.game);
  }
  for (const item of document.querySelectorAll("#scripts li")) {
    item.classList.toggle("current", item.dataset.id === state.script);
  }
}

// Markers appear when the open script has them: previous / next (as a clicker's
// buttons), then one button per marker, jumping by its number (status' "number").
function markerButton(label, to) {
  const button = document.createElement("button");
  button.textContent = label;
  button.onclick = () => send("marker", { to });
  return button;
}

function showMarkers(markers) {
  const box = $("markers-box");
  if (!Array.isArray(markers) || markers.length === 0) { box.hidden = true; return; }
  box.hidden = false;
  const list = $("markers");
  list.replaceChildren(markerButton("◀ Previous", "prev"), markerButton("Next ▶", "next"),
    ...markers.map((marker, index) => {
      const number = marker.number || index + 1;
      return markerButton(marker.name || "Marker " + number, String(number));
    }));
}

async function loadScripts() {
  const search = $("search").value.trim();
  const body = await send("scripts", search ? { search } : {});
  if (!body || !body.ok) return;
  $("scripts").replaceChildren(...body.scripts.map((script) => {
    const item = document.createElement("li");
    item.dataset.id = script.id;
    item.textContent = script.title || script.id;
    const small = document.createElement("small");
    small.textContent = script.reading_time || "";
    item.append(small);
    item.onclick = () => send("open", { path: script.id });
    return item;
  }));
  show(live);
}

function connect() {
  const link = $("link");
  const events = new EventSource("/api/events");
  events.addEventListener("state", (event) => {
    link.textContent = "live";
    link.className = "link live";
    show(JSON.parse(event.data));
  });
  events.onerror = () => {
    link.textContent = "reconnecting";
    link.className = "link lost";
  };
}

for (const button of document.querySelectorAll("[data-cmd]")) {
  button.onclick = () => send(button.dataset.cmd);
}
for (const button of document.querySelectorAll("[data-game]")) {
  button.onclick = () => {
    const fields = { action: button.dataset.game };
    if (button.dataset.verdict) fields.verdict = button.dataset.verdict;
    send("game", fields);
  };
}
$("blank").onclick = () => send("blank", { on: !live.blanked });
$("outer").onclick = () => send("outer", { on: live.outer === false });
let searchTimer = 0;
$("search").oninput = () => { clearTimeout(searchTimer); searchTimer = setTimeout(loadScripts, 250); };

connect();
loadScripts();
