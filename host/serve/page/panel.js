// The panel: the flock's controls as the server describes them (host/core/controls.h), each a
// slider sending its value; the buttons; the readouts and the chart of the flock's order over
// its steps (charts.js); what the boids are coloured by, and its scale; the fold.
import { Chart } from "./charts.js";

function format(value) {
  if (value === 0) return "0";
  const magnitude = Math.abs(value);
  return magnitude >= 1000 || magnitude < 0.01 ? value.toExponential(2) : value.toPrecision(3);
}

// A slider's position in [0, 1000] and back, linear or logarithmic over [low, high].
function toSlider(c, value) {
  if (c.log && c.low > 0) return (1000 * Math.log(value / c.low)) / Math.log(c.high / c.low);
  return c.high > c.low ? (1000 * (value - c.low)) / (c.high - c.low) : 0;
}
function fromSlider(c, position) {
  if (c.log && c.low > 0) return c.low * Math.pow(c.high / c.low, position / 1000);
  const value = c.low + ((c.high - c.low) * position) / 1000;
  return c.whole ? Math.round(value) : value;  // a count (--nearest) steps by one
}

export class Panel {
  // `seek(index)`: a replay's seek, which a click on its chart asks for.
  constructor(send, seek) {
    this.send = send;
    this.element = (id) => document.getElementById(id);
    this.chart = new Chart(this.element("chart"), (index) => {
      if (this.flock && this.flock.mode === "replay") seek(index);
    });
    const fold = () => {
      const folded = document.body.classList.toggle("folded");
      this.element("fold").innerHTML = folded ? "&laquo;" : "&raquo;";
      this.element("fold").title = folded ? "Unfold the panel (F)" : "Fold the panel away (F)";
    };
    this.element("fold").onclick = fold;
    window.addEventListener("keydown", (e) => {
      if ((e.key === "f" || e.key === "F") && e.target.tagName !== "INPUT") fold();
    });
    this.element("colour").onchange = () => this.scaleShown(null);
    this.element("pause").onclick = () => send({ type: "pause", on: !this.paused });
    this.element("step").onclick = () => send({ type: "step" });
    this.element("reset").onclick = () => send({ type: "reset" });
    this.element("model").onchange = (e) => send({ type: "model", model: e.target.value });
    this.element("rate").oninput = (e) => {
      const position = Number(e.target.value);  // 10^0 .. 10^4, the top as fast as it steps
      const rate = position >= 4 ? 0 : Math.round(Math.pow(10, position));
      this.element("rate-value").textContent = rate === 0 ? "max" : String(rate);
      send({ type: "rate", steps_per_second: rate });
    };
    this.element("goal").onchange = (e) => {
      const [w, h, d] = this.world;
      send({ type: "goal", on: e.target.checked, x: w / 2, y: h / 2, z: (d || 0) / 2 });
    };
  }

  // The flock's description (a "flock" message): every control made again.
  describe(flock) {
    this.flock = flock;
    this.paused = flock.paused;
    this.world = [flock.world.width, flock.world.height, flock.world.depth || 0];
    const live = flock.mode === "live";
    for (const id of ["buttons", "model-row", "rate-row", "goal-row", "controls"]) this.element(id).hidden = !live;
    this.element("replay").hidden = flock.mode !== "replay";
    // Neighbours and flocks are counted within the flock's radius, which an old recording
    // may not say.
    for (const option of this.element("colour").options) {
      option.disabled = (option.value === "neighbors" || option.value === "flock") && !(flock.radius > 0);
    }
    // The help says what the mouse does to this flock: the pointer scares a live flock in 2D
    // (the server's predator), a drag orbits a box.
    const box3d = flock.dimensions === 3;
    this.element("help").textContent =
      (box3d ? "Drag to orbit. " : live ? "Hold the left button to scare the flock. " : "") +
      "Right or shift drag: pan; wheel: zoom; " +
      (flock.world.boundary === "open" ? "H: fit the flock, which the view follows" : "H: the whole world") +
      "; F: fold the panel";
    this.element("pause").textContent = flock.paused ? "Resume" : "Pause";
    if (!live) return;
    const models = this.element("model");
    if (models.options.length !== flock.models.length) {  // the registry's, as the server says
      models.replaceChildren(...flock.models.map((name) => new Option(name, name)));
    }
    models.value = flock.model;
    this.element("goal").checked = flock.goal !== null;
    const rate = flock.steps_per_second;
    this.element("rate").value = rate === 0 ? 4 : Math.log10(rate);
    this.element("rate-value").textContent = rate === 0 ? "max" : String(Math.round(rate));
    const box = this.element("controls");
    box.replaceChildren();
    for (const c of flock.controls) {
      const label = document.createElement("label");
      const name = document.createElement("span");
      name.textContent = c.name;
      name.style.width = "110px";
      const slider = document.createElement("input");
      slider.type = "range";
      slider.min = 0;
      slider.max = 1000;
      slider.dataset.control = c.name;
      slider.value = toSlider(c, c.value);
      const value = document.createElement("span");
      value.className = "value";
      value.textContent = format(c.value);
      slider.oninput = () => {
        const v = fromSlider(c, Number(slider.value));
        value.textContent = format(v);
        this.send({ type: "set", name: c.name, value: v });
      };
      label.append(name, slider, value);
      box.append(label);
    }
  }

  status(text) { this.element("status").textContent = text; }
  showing(text) { this.element("showing").textContent = text; }
  refused(text) { this.element("refused").textContent = text; }

  // What the page asks its frames to be coloured by.
  colouring() { return this.element("colour").value; }

  // The scale of the colours a frame shows (null before one comes): a bar from 0 to its top
  // for a speed or a neighbour count, words for a heading or flocks; and why a frame is not
  // coloured as asked.
  scaleShown(frame) {
    const asked = this.colouring();
    const bar = this.element("colour-bar"), low = this.element("colour-low"), high = this.element("colour-high");
    const shown = frame ? frame.colouring : asked;
    bar.className = (shown === "speed" || shown === "neighbors") && !(frame && frame.picture) ? "sequential" : "";
    low.textContent = high.textContent = "";
    if (frame && frame.picture) {
      low.textContent = "a picture: each pixel the mean heading's hue, brighter where denser";
    } else if (frame && shown !== asked) {
      low.textContent = "this flock cannot be coloured by " + asked + " (its radius is not known)";
    } else if (shown === "heading") {
      low.textContent = "the hue of each boid's heading";
    } else if (shown === "flock") {
      low.textContent = frame ? `${frame.colourTop} flocks, each a colour; a boid alone grey` : "";
    } else if (frame) {
      low.textContent = "0";
      high.textContent = shown === "speed" ? format(frame.colourTop) : `${frame.colourTop}${frame.colourBounded ? " or more" : ""} neighbours`;
    }
  }

  // The readouts: a "metrics" message's values (or a replay's at its frame).
  readout(m) {
    const count = this.flock ? this.flock.count : 0;
    const number = (v) => (v === undefined || v === null ? "–" : v.toFixed(3));
    this.element("read-step").textContent = m.step === undefined ? "–" : String(m.step);
    this.element("read-polarization").textContent = number(m.polarization);
    this.element("read-milling").textContent = number(m.milling);
    this.element("read-order").textContent = number(m.order);
    this.element("read-largest").textContent = m.largest_share === undefined || m.largest_share === null
      ? "–" : `${(100 * m.largest_share).toFixed(1)} % (${Math.round(m.largest_share * count)} boids)`;
    this.element("read-flocks").textContent = m.flocks === undefined || m.flocks === null ? "–" : String(m.flocks);
  }

  // A live flock's "metrics" message: a point on the chart, and the readouts.
  measure(m) {
    this.chart.add(m);
    this.readout(m);
  }

  // A replay's recording of its metrics, charted whole; the flock's largest flock as a share.
  recorded(flock) {
    const o = flock.observables || {};
    const share = o.largest_flock ? o.largest_flock.map((v) => v / flock.count) : undefined;
    this.series = { polarization: o.polarization, milling: o.milling, order: o.order, largest_share: share,
                    flocks: o.flocks };
    this.chart.whole(flock.steps, this.series);
    if (!o.polarization) this.element("read-step").title = "this recording holds no metrics";
  }

  // A replay's frame `index` shown: the chart's line and the readouts there.
  replayAt(index) {
    const at = (key) => (this.series && this.series[key] ? this.series[key][index] : undefined);
    this.chart.show(this.flock.steps[index]);
    this.readout({ step: this.flock.steps[index], polarization: at("polarization"), milling: at("milling"),
                   order: at("order"),
                   largest_share: at("largest_share"), flocks: at("flocks") });
  }
}
