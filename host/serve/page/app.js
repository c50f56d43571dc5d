// The page of `boids serve`: connects to /ws, asks for a frame whenever it has taken the last
// (so a slow page drops frames and never slows the flock), draws between the last two frames,
// and sends what the panel and the pointer change. Where its link cannot carry every boid at
// the frame rate aimed at, it asks for pictures of the whole flock instead (drawn by the
// server), and for points again once the link carries them all; so too where the browser
// draws the points too slowly (software WebGL at a million boids). The address may say
// `?show=points` or `?show=picture` (else: as the link and the browser allow),
// `?budget=BYTES_PER_SECOND`, the most its frames may use (a metered link), and `?fps=N`, the
// fewest frames a second the page accepts drawing points (default 5; 0: any).
import { decodeFrame, bytesPerBoid, HEADER_BYTES } from "./frames.js";
import { FlockView } from "./draw.js";
import { Panel } from "./panel.js";

const canvas = document.getElementById("flock");
const view = new FlockView(canvas);
let socket = null;
const send = (message) => { if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message)); };
const panel = new Panel(send, (index) => replay.seek(index));

// Frames and their arrival times, for drawing between them.
let flock = null;
let frameTimes = [0, 0];
let asked = 0;           // when the last frame was asked for
let maxBoids = 2 ** 31;  // what the link carries at the frame rate aimed at
let linkRate = 0;        // bytes a second, measured: the best of `rates`
const rates = [];        // the last frames' rates
let lastFrame = null;
const AIM_SECONDS = 1 / 30;
// The fewest boids a frame holds, whatever the link: a frame of them is too small to measure a
// link by, so a flock of as many is always sent as its points, never as pictures.
const FEWEST_BOIDS = 1000;
const asked_for = new URLSearchParams(location.search);
const SHOW = ["points", "picture"].includes(asked_for.get("show")) ? asked_for.get("show") : "auto";
const BUDGET = Number(asked_for.get("budget")) > 0 ? Number(asked_for.get("budget")) : Infinity;
const FPS = asked_for.has("fps") ? Math.min(240, Math.max(0, Number(asked_for.get("fps")) || 0)) : 5;
let picturing = SHOW === "picture";  // asking for pictures of the whole flock
let probing = false;                 // this ask, while picturing, is for points
let probed = 0;                      // when the last probe was asked for
const PROBE_EVERY_MS = 3000;
// For tests and the console; `budget` may be changed there.
window.boids = { frames: 0, pictures: 0, flock: null, lastFrame: null, metrics: null, panel, view, budget: BUDGET,
                 fps: FPS, drawnFps: Infinity, drawRate: Infinity };

// How fast the browser draws the points: its animation frames a second while it draws them,
// the median of the last thirty, once ten are measured or five over two seconds (a browser
// drawing a frame a second says so in five); a hidden page's are left out. Below `fps`, a
// frame may hold the boids it would draw at `fps` (its cost taken to grow with the boids), as
// it may hold what the link carries; at `fps` or above, drawing limits nothing (a browser's
// frames cost something whatever they draw: a picture would not draw them faster).
let drawn = 0;  // boids the view draws as points now (0: a picture)
let lastDraw = 0;
const draws = [];  // [boids a second, milliseconds] of the last frames drawn
function measureDrawing(now) {
  const interval = now - lastDraw;
  lastDraw = now;
  if (drawn <= FEWEST_BOIDS || interval <= 0 || document.visibilityState !== "visible") return;
  draws.push([drawn * 1000 / interval, interval]);
  if (draws.length > 30) draws.shift();
  const spanned = draws.reduce((sum, d) => sum + d[1], 0);
  if (draws.length >= 10 || (draws.length >= 5 && spanned >= 2000)) {
    const middle = (values) => values.sort((a, b) => a - b)[values.length >> 1];
    window.boids.drawRate = middle(draws.map((d) => d[0]));
    window.boids.drawnFps = 1000 / middle(draws.map((d) => d[1]));
  }
}

// The boids a frame may hold for the browser to draw it at `fps`: see measureDrawing.
function drawable() {
  const { fps, drawnFps, drawRate } = window.boids;
  return fps > 0 && drawnFps < fps ? Math.floor(drawRate / fps) : Infinity;
}

// `again`: the same ask with another colouring or view (the server then makes the frame shown
// again, a paused flock making no newer one); the link's clock keeps the first ask's time.
function askForFrame(again = false) {
  if (!again) {
    asked = performance.now();
    probing = picturing && SHOW === "auto" && asked - probed > PROBE_EVERY_MS;
    if (probing) probed = asked;
  }
  const ask = { type: "next", max_boids: maxBoids, colour: panel.colouring() };
  if (probing) {
    // Points, twice what the link was last found to carry (within its budget): enough to
    // measure it by, never the whole of a huge flock over a slow link.
    ask.max_boids = Math.min(2 ** 31, Math.max(4000, 2 * maxBoids));
  } else if (picturing) {
    ask.picture = view.pictureView();
  }
  send(ask);
}

// The view changed (a pan, an orbit, a zoom): a picture is drawn again for it, at most ten
// times a second.
let reasked = 0;
function viewChanged() {
  if (!picturing || performance.now() - reasked < 100) return;
  reasked = performance.now();
  askForFrame(true);
}

// The link's rate from the frame just taken, `arrived` when its message came: the time from
// the ask, less what the server held it (waiting for a newer step, encoding). Delays add to a
// frame's time and never take from it (the page busy drawing, a hiccup), so the link carries
// the best of the last few frames' rates; a frame too small to say (its time mostly the round
// trip) counts only where it is faster. Then the boids a frame may hold to keep the aim,
// besides its header and its predators (never subsampled).
function measureLink(frame, arrived) {
  const seconds = Math.max((arrived - asked) / 1000 - frame.held, 1e-3);
  const rate = frame.bytes / seconds;
  if (frame.bytes >= 65536 || rate > linkRate) rates.push(rate);
  if (rates.length > 8) rates.shift();
  linkRate = Math.min(window.boids.budget, Math.max(...rates));
  const each = bytesPerBoid(frame.dimensions, frame.colour !== null);
  const fixed = HEADER_BYTES + frame.predators.count * bytesPerBoid(frame.dimensions, false);
  const carried = Math.floor(Math.max(0, linkRate * AIM_SECONDS - fixed) / each);
  const drawing = drawable();
  const fits = Math.min(carried, drawing);
  maxBoids = Math.max(FEWEST_BOIDS, Math.min(2 ** 31, fits));
  // Pictures where the points of every boid do not fit, once a few frames have measured the
  // link (the first ones wait for the page to start), or at once where the browser's drawing
  // is what limits them (the link then need not be measured: a frame of the boids the browser
  // draws may be too small to measure it by, and would hold the page on 1 boid in n); points
  // again once a probe (a frame of points asked for now and then) says they fit with a
  // quarter to spare.
  const many = frame.total > FEWEST_BOIDS;
  const known = rates.length >= 4 || drawing < carried;
  if (SHOW === "auto" && !picturing) picturing = many && known && fits < frame.total;
  else if (SHOW === "auto" && probing && !frame.picture) picturing = many && fits < 1.25 * frame.total;
  probing = false;
  const carries = drawing < carried
    ? `the browser draws their points at ${window.boids.drawnFps.toFixed(1)} frames a second, below ${window.boids.fps}`
    : `the link carries ${(linkRate / 1e6).toFixed(1)} MB/s`;
  if (frame.picture) {
    const every = Math.max(1, Math.ceil(frame.total / Math.max(fits, 1)));
    panel.showing(`showing the whole flock as a picture (${(frame.bytes / 1e3).toFixed(0)} kB): ` +
                  `${carries}; ` + (every > 1 ? `its points would be 1 boid in ${every}` : "its points would fit"));
  } else if (frame.stride > 1) {
    panel.showing(`showing 1 in ${frame.stride} boids (${frame.count} of ${frame.total}): ${carries}`);
  } else {
    panel.showing("");
  }
}

// The frame's boids, or its picture, into the view.
function showFrame(frame) {
  view.upload(frame);
  drawn = frame.picture ? 0 : frame.count;
  if (!frame.picture) {
    view.showPicture(null);
    return;
  }
  const number = frame.number;
  createImageBitmap(new Blob([frame.picture], { type: "image/jpeg" })).then((bitmap) => {
    if (lastFrame && lastFrame.number === number) view.showPicture(bitmap);  // not a later one's
    else bitmap.close();
    window.boids.pictures += 1;
  }).catch(() => panel.refused("a picture of the flock could not be decoded"));
}

function takeFrame(buffer, arrived) {
  const frame = decodeFrame(buffer);
  const probe = probing;
  measureLink(frame, arrived);
  if (!lastFrame || lastFrame.colouring !== frame.colouring || lastFrame.colourTop !== frame.colourTop ||
      lastFrame.colourBounded !== frame.colourBounded ||
      (lastFrame.picture === null) !== (frame.picture === null)) {
    panel.scaleShown(frame);
  }
  frameTimes = [frameTimes[1], performance.now()];
  lastFrame = frame;
  // A probe whose points the link cannot carry yet is measured, not drawn: the picture stays.
  if (!(probe && picturing)) showFrame(frame);
  window.boids.frames += 1;
  window.boids.lastFrame = { step: frame.step, count: frame.count, total: frame.total, stride: frame.stride,
                            predators: frame.predators.count, number: frame.number,
                            colouring: frame.colouring, colourTop: frame.colourTop, held: frame.held,
                            picture: frame.picture !== null, bytes: frame.bytes, open: frame.open,
                            centre: frame.centre };
  window.boids.linkRate = linkRate;
  // A replay's frame says which it is (its snapshot number is the frame's, from 1): the status
  // names the frame shown, which the scrubber, asking for the next, may already have passed.
  panel.status(`${flock.mode === "replay" ? "frame " + frame.number + " of " + flock.frames + ", " : ""}` +
               `step ${frame.step}, ${frame.total} boids${frame.paused ? ", paused" : ""}` +
               (flock.mode === "script" ? ", stepped by its script" : "") +
               (flock.device ? ` on ${flock.device}` : ""));
  if (flock.mode === "replay") replay.arrived(frame.number);
  else askForFrame();
}

function takeText(text) {
  const message = JSON.parse(text);
  if (message.type === "flock") {
    flock = message;
    window.boids.flock = message;
    view.setWorld([message.world.width, message.world.height, message.world.depth || 0], message.dimensions,
                  message.world.boundary === "open");
    panel.describe(message);
    if (message.mode === "replay") {
      panel.recorded(message);
      replay.start(message);
    }
  } else if (message.type === "metrics") {
    window.boids.metrics = message;
    panel.measure(message);
  } else if (message.type === "refused") {
    panel.refused(message.message);
    setTimeout(() => panel.refused(""), 4000);
  } else if (message.type === "role") {
    panel.refused(message.steer ? "" : "another page steers this flock; this one watches");
  }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${scheme}//${location.host}/ws`);
  socket.binaryType = "arraybuffer";
  socket.onopen = () => { panel.status("connected"); askForFrame(); };
  socket.onmessage = (event) => {
    if (typeof event.data === "string") takeText(event.data);
    else takeFrame(event.data, event.timeStamp);
  };
  socket.onclose = (event) => {
    panel.status(`disconnected${event.reason ? ": " + event.reason : ""}; reconnecting...`);
    setTimeout(connect, 1000);
  };
}

// A replay's player: the page asks for the frames it plays, at the speed chosen.
const replay = {
  frame: 0, playing: true, waiting: false, due: 0,
  start(description) {
    const scrubber = document.getElementById("scrubber");
    scrubber.max = Math.max(description.frames - 1, 0);
    scrubber.oninput = () => this.seek(Number(scrubber.value));
    document.getElementById("play").onclick = () => {
      this.playing = !this.playing;
      document.getElementById("play").textContent = this.playing ? "Pause" : "Play";
    };
    document.getElementById("play").textContent = this.playing ? "Pause" : "Play";
    this.seek(0);
  },
  // Asks for `frame`; the scrubber and its label move when it arrives (arrived), so that they
  // name the frame shown, as the status does.
  seek(frame) {
    this.frame = frame;
    this.waiting = true;
    send({ type: "seek", frame });
    askForFrame();
  },
  // The frame shown: the scrubber and its label follow it, not the one asked for next.
  arrived(number) {
    this.waiting = false;
    panel.replayAt(number - 1);
    document.getElementById("scrubber").value = number - 1;
    document.getElementById("frame-label").textContent = `${number} / ${flock.frames}`;
  },
  tick(now) {
    if (!flock || flock.mode !== "replay" || !this.playing || this.waiting || flock.frames < 2) return;
    const speed = Number(document.getElementById("speed").value);
    if (now < this.due) return;
    this.due = now + 1000 / (30 * speed);
    this.seek((this.frame + 1) % flock.frames);
  },
};

// Pointer, as the native viewer: in 2D the left button held is a predator (as in the steering model's lab), and a
// right or shift drag pans; in 3D a drag orbits and a right or shift drag pans; the wheel zooms.
let dragging = null;
canvas.addEventListener("contextmenu", (e) => e.preventDefault());
canvas.addEventListener("pointerdown", (e) => {
  canvas.setPointerCapture(e.pointerId);
  const pan = e.button === 2 || e.shiftKey;
  const scare = !pan && view.dimensions === 2;
  dragging = { x: e.clientX, y: e.clientY, pan, scare };
  if (scare) predator(e, true);
});
canvas.addEventListener("pointerup", (e) => {
  if (dragging && dragging.scare) predator(e, false);
  dragging = null;
});
canvas.addEventListener("pointermove", (e) => {
  if (!dragging) return;
  const ratio = window.devicePixelRatio || 1;
  const dx = (e.clientX - dragging.x) * ratio, dy = (e.clientY - dragging.y) * ratio;
  dragging.x = e.clientX;
  dragging.y = e.clientY;
  if (dragging.scare) return predator(e, true);
  if (view.dimensions === 3 && !dragging.pan) {
    view.yaw -= dx * 0.005;
    view.pitch = Math.max(-1.5, Math.min(1.5, view.pitch + dy * 0.005));
  } else if (view.dimensions === 3) {
    const size = Math.max(...view.world) * view.distance * 0.002;
    view.center[0] -= (Math.cos(view.yaw - Math.PI / 2) * dx) * size;
    view.center[1] -= (Math.sin(view.yaw - Math.PI / 2) * dx) * size;
    view.center[2] += dy * size;
  } else {
    const [x0, y0] = view.worldAt(0, 0), [x1, y1] = view.worldAt(dx, dy);
    view.center[0] -= x1 - x0;
    view.center[1] -= y1 - y0;
  }
  viewChanged();
});
canvas.addEventListener("wheel", (e) => {
  e.preventDefault();
  const factor = Math.exp(-e.deltaY * 0.001);
  if (view.dimensions === 3) view.distance = Math.max(0.05, Math.min(20, view.distance / factor));
  else view.zoom = Math.max(0.2, Math.min(1000, view.zoom * factor));
  viewChanged();
}, { passive: false });
window.addEventListener("keydown", (e) => {
  if (e.key === "h" || e.key === "Home") {
    view.home();
    viewChanged();
  }
});
// Another colouring: the frame shown is made again in it (a paused flock makes no newer one).
document.getElementById("colour").addEventListener("change", () => askForFrame(true));

function predator(e, on) {
  if (!flock || flock.mode !== "live" || flock.dimensions !== 2) return;
  const ratio = window.devicePixelRatio || 1;
  const [x, y] = view.worldAt(e.offsetX * ratio, e.offsetY * ratio);
  send({ type: "predator", on, x, y, radius: 2 * (flock.radius || 10) });
}

function frame(now) {
  measureDrawing(now);
  replay.tick(now);
  const span = frameTimes[1] - frameTimes[0];
  const blend = span > 0 ? Math.min(1, (now - frameTimes[1]) / span) : 1;
  view.draw(blend);
  requestAnimationFrame(frame);
}

connect();
requestAnimationFrame(frame);
