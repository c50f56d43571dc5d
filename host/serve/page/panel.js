// The panel: the flock's controls as the server describes them (host/core/controls.h), each a
// slider sending its value; the buttons; and the charts of the order over the steps.

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
  constructor(send) {
    this.send = send;
    this.series = { polarization: [], largest_share: [], order: [] };
    this.element = (id) => document.getElementById(id);
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
    // The help says what the mouse does to this flock: the pointer scares a live flock in 2D
    // (the server's predator), a drag orbits a box.
    const box3d = flock.dimensions === 3;
    this.element("help").textContent =
      (box3d ? "Drag to orbit. " : live ? "Hold the left button to scare the flock. " : "") +
      "Right or shift drag: pan; wheel: zoom; H: the whole world";
    this.element("pause").textContent = flock.paused ? "Resume" : "Pause";
    if (!live) return;
    this.element("model").value = flock.model;
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

  // A "metrics" message: one more point on each chart (the last 300).
  measure(m) {
    for (const key of Object.keys(this.series)) {
      this.series[key].push(m[key]);
      if (this.series[key].length > 300) this.series[key].shift();
    }
    const canvas = this.element("chart"), g = canvas.getContext("2d");
    g.clearRect(0, 0, canvas.width, canvas.height);
    const colours = { polarization: "#88c0d0", largest_share: "#a3be8c", order: "#ebcb8b" };
    for (const [key, values] of Object.entries(this.series)) {
      g.strokeStyle = colours[key];
      g.beginPath();
      values.forEach((v, i) => {
        const x = (i / 299) * canvas.width, y = (1 - v) * (canvas.height - 4) + 2;
        if (i === 0) g.moveTo(x, y); else g.lineTo(x, y);
      });
      g.stroke();
    }
    this.element("legend").title = `step ${m.step}`;
  }
}
