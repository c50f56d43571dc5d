// The order of the flock over its steps, charted with uPlot (vendor/, scripts/page-libraries):
// polarization, milling, the order parameter and the largest flock's share, each in [0, 1], against the
// step, with axes and a legend that reads the values under the cursor. A live flock adds a
// point at each "metrics" message; a replay charts its whole recording with a line at the
// frame shown, and a click on the chart seeks there.
/* global uPlot */

const SERIES = [
  { key: "polarization", label: "polarization φ", stroke: "#88c0d0" },
  { key: "milling", label: "milling m", stroke: "#b48ead" },
  { key: "order", label: "order", stroke: "#ebcb8b" },
  { key: "largest_share", label: "largest flock", stroke: "#a3be8c" },
];
const LIVE_POINTS = 600;  // a live chart's last points
const AXIS = { stroke: "#c0c8d8", grid: { stroke: "#262c38", width: 1 },
               ticks: { stroke: "#3b4252", width: 1 }, font: "11px system-ui, sans-serif",
               labelFont: "11px system-ui, sans-serif" };

function decimals(u, value) {
  return value == null ? "–" : value.toFixed(3);
}

export class Chart {
  // `element`: the chart's box; `pick(index)`: what a click on point `index` does (a replay's seek).
  constructor(element, pick) {
    this.element = element;
    this.mark = null;  // the step of the frame shown, in a replay
    this.data = [[], ...SERIES.map(() => [])];
    const marker = (u) => {
      if (this.mark === null || u.data[0].length === 0) return;
      const x = Math.round(u.valToPos(this.mark, "x", true));
      const g = u.ctx;
      g.save();
      g.strokeStyle = "#eceff4";
      g.lineWidth = 1.5 * devicePixelRatio;
      g.setLineDash([4 * devicePixelRatio, 3 * devicePixelRatio]);
      g.beginPath();
      g.moveTo(x, u.bbox.top);
      g.lineTo(x, u.bbox.top + u.bbox.height);
      g.stroke();
      g.restore();
    };
    this.plot = new uPlot({
      width: Math.max(element.clientWidth, 200),
      height: 170,
      scales: { x: { time: false }, y: { range: [0, 1] } },
      series: [{ label: "step", value: (u, v) => (v == null ? "–" : String(v)) },
               ...SERIES.map((s) => ({ label: s.label, stroke: s.stroke, width: 1.5, value: decimals }))],
      axes: [{ ...AXIS, label: "step", labelSize: 14, size: 34 },
             { ...AXIS, label: "value (0 to 1)", labelSize: 14, size: 40, values: (u, ticks) => ticks.map((t) => t.toFixed(1)) }],
      legend: { live: true },
      cursor: { drag: { x: false, y: false }, points: { size: 5 } },
      hooks: { draw: [marker] },
    }, this.data, element);
    this.plot.over.addEventListener("click", () => {
      const index = this.plot.cursor.idx;
      if (pick && index !== null && index !== undefined) pick(index);
    });
    new ResizeObserver(() => {
      const width = element.clientWidth;
      if (width > 0 && width !== this.plot.width) this.plot.setSize({ width, height: 170 });
    }).observe(element);
  }

  // A live point (a "metrics" message): the chart keeps the last LIVE_POINTS, and starts again
  // when the steps go back (a new flock).
  add(m) {
    const steps = this.data[0];
    if (steps.length > 0 && m.step <= steps[steps.length - 1]) this.clear();
    steps.push(m.step);
    SERIES.forEach((s, i) => this.data[i + 1].push(m[s.key]));
    if (steps.length > LIVE_POINTS) this.data.forEach((column) => column.shift());
    this.plot.setData(this.data);
  }

  // A replay's whole series: its steps and, for each series, a value a frame (null if none).
  whole(steps, values) {
    this.data = [steps.slice(), ...SERIES.map((s) => values[s.key] || steps.map(() => null))];
    this.plot.setData(this.data);
  }

  clear() {
    this.data = [[], ...SERIES.map(() => [])];
    this.plot.setData(this.data);
  }

  // The line at the frame shown (a step), or none.
  show(step) {
    this.mark = step;
    this.plot.redraw(false, false);
  }
}
