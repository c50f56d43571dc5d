// Draws the flock with WebGL2: each boid a small triangle pointing along its heading, coloured
// by it (the hue of its azimuth, as the native viewer) or by the byte the frame carries (its
// speed or neighbours on a viridis scale, its flock a hue of its own, a boid alone grey),
// between its last two frames' positions (a boid that wrapped around the torus jumps), in a
// 2D view (pan, zoom) or a 3D one (orbit, pan, zoom), with the world's outline. Predators are white triangles 2.5 times a
// boid's size, as the native viewer draws them. In open space, where the world is only the
// start's region, there is no outline: the view fits the flock and follows its mean position.

import { COLOURINGS } from "./frames.js";

const BOID_VERTEX = `#version 300 es
in vec2 corner;          // the triangle in the boid's frame: x ahead, y to the side
in float px, py, pz;     // the previous frame's position: bins of 1/65536 of its region
in float cx, cy, cz;     // the current frame's
in float azimuth_byte, elevation_byte;
in float colour_byte;    // the frame's colouring, when not the heading
uniform int colouring;   // 0 heading, 1 speed, 2 neighbours (a scale), 3 flock (a hue each)
uniform float blend;     // 0 at the previous frame, 1 at the current
uniform vec3 previous_origin, previous_side;  // the region the previous frame's bins span
uniform vec3 origin, side;                    // the current frame's
uniform bool bounded;    // a boid that crossed half the world in a frame wrapped: it jumps
uniform float reach;     // how far ahead its heading is taken: a hundredth of the view's span
uniform mat4 transform;  // world to clip space
uniform vec2 pixel;      // one pixel in clip space
uniform float size;      // pixels
uniform bool box;
uniform bool predator;   // white, whatever the heading
out vec3 colour;

vec3 hue(float h) {
  vec3 k = mod(vec3(5.0, 3.0, 1.0) + h * 6.0, 6.0);
  return 1.0 - 0.8 * clamp(min(k, 4.0 - k), 0.0, 1.0);
}

// viridis through five of its colours (the page's scale bar draws the same five).
vec3 scale(float t) {
  vec3 stops[5] = vec3[5](vec3(0.267, 0.004, 0.329), vec3(0.231, 0.322, 0.545),
                          vec3(0.129, 0.569, 0.549), vec3(0.369, 0.788, 0.384),
                          vec3(0.992, 0.906, 0.145));
  float at = clamp(t, 0.0, 1.0) * 4.0;
  int i = min(int(at), 3);
  return mix(stops[i], stops[i + 1], at - float(i));
}

vec3 painted() {
  if (colouring == 1 || colouring == 2) return scale(colour_byte / 255.0);
  if (colouring == 3) return colour_byte > 254.5 ? vec3(0.35) : hue(fract(colour_byte * 0.618034 + 0.02));
  return hue(azimuth_byte / 256.0);
}

void main() {
  vec3 from = previous_origin + (vec3(px, py, pz) + 0.5) / 65536.0 * previous_side;
  vec3 to = origin + (vec3(cx, cy, cz) + 0.5) / 65536.0 * side;
  bool wrapped = bounded && any(greaterThan(abs(to - from), 0.5 * side));
  vec3 at = wrapped ? to : mix(from, to, blend);
  float azimuth = azimuth_byte / 256.0 * 6.2831853;
  float elevation = box ? (elevation_byte / 255.0 - 0.5) * 3.1415927 : 0.0;
  vec3 ahead = vec3(cos(elevation) * cos(azimuth), cos(elevation) * sin(azimuth), sin(elevation));
  vec4 here = transform * vec4(at, 1.0);
  vec4 there = transform * vec4(at + ahead * reach, 1.0);
  vec2 along = there.xy / there.w - here.xy / here.w;
  along = length(along / pixel) > 1e-6 ? normalize(along / pixel) : vec2(1.0, 0.0);
  vec2 side = vec2(-along.y, along.x);
  vec2 offset = (corner.x * along + corner.y * side) * size * pixel;
  gl_Position = vec4(here.xy / here.w + offset, here.z / here.w, 1.0);
  colour = predator ? vec3(1.0) : painted();
}`;

const BOID_FRAGMENT = `#version 300 es
precision mediump float;
in vec3 colour;
out vec4 fragment;
void main() { fragment = vec4(colour, 1.0); }`;

// A picture of the whole flock made by the server (host/serve/flock_image.h), over the canvas.
const PICTURE_VERTEX = `#version 300 es
in vec2 corner;
out vec2 at;
void main() { at = vec2(corner.x, 1.0 - corner.y); gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0); }`;

const PICTURE_FRAGMENT = `#version 300 es
precision mediump float;
in vec2 at;
uniform sampler2D picture;
out vec4 fragment;
void main() { fragment = texture(picture, at); }`;

const LINE_VERTEX = `#version 300 es
in vec3 corner;
uniform vec3 world;
uniform mat4 transform;
void main() { gl_Position = transform * vec4(corner * world, 1.0); }`;

const LINE_FRAGMENT = `#version 300 es
precision mediump float;
out vec4 fragment;
void main() { fragment = vec4(0.35, 0.4, 0.5, 1.0); }`;

function compile(gl, vertex, fragment) {
  const program = gl.createProgram();
  for (const [type, source] of [[gl.VERTEX_SHADER, vertex], [gl.FRAGMENT_SHADER, fragment]]) {
    const shader = gl.createShader(type);
    gl.shaderSource(shader, source);
    gl.compileShader(shader);
    if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(shader));
    gl.attachShader(program, shader);
  }
  gl.linkProgram(program);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(program));
  return program;
}

// 4x4 matrices, column-major as WebGL takes them.
function multiply(a, b) {
  const out = new Float32Array(16);
  for (let c = 0; c < 4; ++c)
    for (let r = 0; r < 4; ++r)
      for (let k = 0; k < 4; ++k) out[c * 4 + r] += a[k * 4 + r] * b[c * 4 + k];
  return out;
}

function perspective(fovy, aspect, near, far) {
  const f = 1 / Math.tan(fovy / 2);
  return new Float32Array([f / aspect, 0, 0, 0, 0, f, 0, 0, 0, 0, (far + near) / (near - far), -1,
                           0, 0, (2 * far * near) / (near - far), 0]);
}

function lookAt(eye, target, up) {
  const sub = (a, b) => a.map((v, i) => v - b[i]);
  const norm = (a) => { const l = Math.hypot(...a) || 1; return a.map((v) => v / l); };
  const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const z = norm(sub(eye, target)), x = norm(cross(up, z)), y = cross(z, x);
  return new Float32Array([x[0], y[0], z[0], 0, x[1], y[1], z[1], 0, x[2], y[2], z[2], 0,
                           -dot(x, eye), -dot(y, eye), -dot(z, eye), 1]);
}

// The buffers of a group of particles (the boids, or the predators): their positions in the
// last two frames, the regions those span, and their headings.
class Group {
  constructor(gl) {
    this.previous = [];
    this.current = [];
    for (let a = 0; a < 3; ++a) {
      this.previous.push(gl.createBuffer());
      this.current.push(gl.createBuffer());
    }
    this.heading = [gl.createBuffer(), gl.createBuffer()];
    this.colour = gl.createBuffer();
    this.colouring = 0;  // what this.colour holds: 0 nothing (the heading)
    this.count = 0;
    this.stride = 0;
    this.dimensions = 0;
    this.region = this.previousRegion = { origin: [0, 0, 0], side: [1, 1, 1] };
  }

  // A new frame: the current positions become the previous ones (unless the particles differ).
  upload(gl, group, stride, dimensions, colouring, region) {
    const same = group.count === this.count && stride === this.stride && dimensions === this.dimensions;
    [this.previous, this.current] = [this.current, this.previous];
    this.previousRegion = same ? this.region : region;
    this.region = region;
    for (let a = 0; a < dimensions; ++a) {
      gl.bindBuffer(gl.ARRAY_BUFFER, this.current[a]);
      gl.bufferData(gl.ARRAY_BUFFER, group.position[a], gl.STREAM_DRAW);
      if (!same) {
        gl.bindBuffer(gl.ARRAY_BUFFER, this.previous[a]);
        gl.bufferData(gl.ARRAY_BUFFER, group.position[a], gl.STREAM_DRAW);
      }
    }
    for (let h = 0; h < group.heading.length; ++h) {
      gl.bindBuffer(gl.ARRAY_BUFFER, this.heading[h]);
      gl.bufferData(gl.ARRAY_BUFFER, group.heading[h], gl.STREAM_DRAW);
    }
    this.colouring = group.colour ? colouring : 0;
    if (group.colour) {
      gl.bindBuffer(gl.ARRAY_BUFFER, this.colour);
      gl.bufferData(gl.ARRAY_BUFFER, group.colour, gl.STREAM_DRAW);
    }
    this.count = group.count;
    this.stride = stride;
    this.dimensions = dimensions;
  }
}

export class FlockView {
  constructor(canvas) {
    this.canvas = canvas;
    const gl = canvas.getContext("webgl2", { antialias: true, preserveDrawingBuffer: true });
    if (!gl) throw new Error("this browser has no WebGL2");
    this.gl = gl;
    this.boids = compile(gl, BOID_VERTEX, BOID_FRAGMENT);
    this.lines = compile(gl, LINE_VERTEX, LINE_FRAGMENT);
    this.pictures = compile(gl, PICTURE_VERTEX, PICTURE_FRAGMENT);
    this.square = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, this.square);
    gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([0, 0, 1, 0, 0, 1, 1, 1]), gl.STATIC_DRAW);
    this.texture = null;  // the server's picture of the flock, when it sends pictures
    this.vao = gl.createVertexArray();
    this.corner = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, this.corner);
    gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([1, 0, -0.6, 0.45, -0.6, -0.45]), gl.STATIC_DRAW);
    this.flock = new Group(gl);
    this.predators = new Group(gl);
    this.outline = gl.createBuffer();
    this.dimensions = 2;
    this.bounds = [100, 100, 0];  // the world's sides
    this.open = false;            // open space: no bounds, the view follows the flock
    this.region = null;           // the last frame's: in open space, the flock's bounds
    this.fitted = false;          // whether the view has fitted an open space's flock
    this.follow = null;           // the flock's mean position at the last two frames
    // The camera: the sides it fits (the world's, or the flock's it last fitted); in 2D, a
    // centre and a zoom, in 3D an orbit about a point.
    this.world = [100, 100, 0];
    this.center = [50, 50, 50];
    this.zoom = 1;
    this.yaw = -0.6;
    this.pitch = 0.5;
    this.distance = 2.2;
  }

  setWorld(world, dimensions, open) {
    const changed = dimensions !== this.dimensions || open !== this.open ||
                    world.some((v, i) => v !== this.bounds[i]);
    this.bounds = world;
    this.dimensions = dimensions;
    this.open = open;
    if (changed) {
      this.fitted = false;  // in open space, at the next frame
      this.follow = null;
      this.home();
    }
    const gl = this.gl;
    const edges = dimensions === 3
      ? [0,0,0, 1,0,0, 1,0,0, 1,1,0, 1,1,0, 0,1,0, 0,1,0, 0,0,0, 0,0,1, 1,0,1, 1,0,1, 1,1,1,
         1,1,1, 0,1,1, 0,1,1, 0,0,1, 0,0,0, 0,0,1, 1,0,0, 1,0,1, 1,1,0, 1,1,1, 0,1,0, 0,1,1]
      : [0,0,0, 1,0,0, 1,0,0, 1,1,0, 1,1,0, 0,1,0, 0,1,0, 0,0,0];
    gl.bindBuffer(gl.ARRAY_BUFFER, this.outline);
    gl.bufferData(gl.ARRAY_BUFFER, new Float32Array(edges), gl.STATIC_DRAW);
    this.outlineVertices = open ? 0 : edges.length / 3;
  }

  // The whole world in view, or in open space the flock as the last frame bounds it.
  home() {
    const fit = this.open && this.region;
    const [w, h, d] = fit ? this.region.side : this.bounds;
    const [x, y, z] = fit ? this.region.origin : [0, 0, 0];
    this.world = [w, h, this.dimensions === 3 ? d || 0 : 0];
    this.center = [x + w / 2, y + h / 2, this.dimensions === 3 ? z + (d || 0) / 2 : 0];
    this.zoom = 1;
    this.distance = 2.2;
    if (fit) this.fitted = true;
  }

  // The picture to draw under the outline and the predators (an ImageBitmap), or none.
  showPicture(bitmap) {
    const gl = this.gl;
    if (!bitmap) {
      if (this.texture) gl.deleteTexture(this.texture);
      this.texture = null;
      return;
    }
    if (!this.texture) this.texture = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, this.texture);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, bitmap);
    bitmap.close();  // its pixels are the texture's now
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
  }

  // What the server needs to draw the picture this view shows (host/serve/flock_image.h), at
  // most 4096 pixels a side.
  pictureView() {
    // A canvas beyond the server's largest picture (4096 a side, 2048 x 2048 pixels in all) is
    // asked for at a scale that keeps its shape, and drawn stretched over it.
    const w = Math.max(16, this.canvas.width), h = Math.max(16, this.canvas.height);
    const scale = Math.min(1, 4096 / Math.max(w, h), Math.sqrt((2048 * 2048) / (w * h)));
    return { width: Math.max(16, Math.floor(w * scale)), height: Math.max(16, Math.floor(h * scale)),
             center: [this.center[0], this.center[1], this.center[2] || 0], zoom: this.zoom,
             yaw: this.yaw, pitch: this.pitch, distance: this.distance,
             span: [this.world[0], this.world[1], this.world[2] || 0] };
  }

  upload(frame) {
    const colouring = Math.max(0, COLOURINGS.indexOf(frame.colouring));
    const region = { origin: frame.origin, side: [frame.side[0], frame.side[1], frame.side[2] || 1] };
    this.flock.upload(this.gl, frame, frame.stride, frame.dimensions, colouring, region);
    this.predators.upload(this.gl, frame.predators, 1, frame.dimensions, 0, region);
    this.region = region;
    if (!this.open) return;
    if (!this.fitted) this.home();
    // The camera moves as the flock's mean does: whatever the user framed stays framed.
    if (this.follow) {
      for (let a = 0; a < 3; ++a) this.center[a] += frame.centre[a] - this.follow[1][a];
    }
    this.follow = [this.follow ? this.follow[1] : frame.centre, frame.centre];
  }

  // The camera's centre between the last two frames, as the boids are drawn (blend 0 at the
  // previous): in open space it trails the centre by what the flock's mean has yet to move.
  centreAt(blend) {
    if (!this.follow) return this.center;
    const [from, to] = this.follow;
    return this.center.map((c, a) => c - (1 - blend) * (to[a] - from[a]));
  }

  transform(blend = 1) {
    const center = this.centreAt(blend);
    const width = this.canvas.width, height = this.canvas.height;
    if (this.dimensions === 3) {
      const size = Math.max(...this.world);
      const eye = [
        center[0] + size * this.distance * Math.cos(this.pitch) * Math.cos(this.yaw),
        center[1] + size * this.distance * Math.cos(this.pitch) * Math.sin(this.yaw),
        center[2] + size * this.distance * Math.sin(this.pitch),
      ];
      const projection = perspective(0.8, width / height, size * 0.01, size * 20);
      return multiply(projection, lookAt(eye, center, [0, 0, 1]));
    }
    // 2D: the world fits the canvas at zoom 1, y up.
    const fit = Math.min(width / this.world[0], height / this.world[1]) * 0.95 * this.zoom;
    const sx = (2 * fit) / width, sy = (2 * fit) / height;
    return new Float32Array([sx, 0, 0, 0, 0, sy, 0, 0, 0, 0, 1, 0,
                             -sx * center[0], -sy * center[1], 0, 1]);
  }

  // The world point under a pixel of the canvas (2D).
  worldAt(px, py) {
    const width = this.canvas.width, height = this.canvas.height;
    const fit = Math.min(width / this.world[0], height / this.world[1]) * 0.95 * this.zoom;
    return [this.center[0] + (px - width / 2) / fit, this.center[1] - (py - height / 2) / fit];
  }

  draw(blend) {
    const gl = this.gl, canvas = this.canvas;
    const ratio = window.devicePixelRatio || 1;
    const w = Math.floor(canvas.clientWidth * ratio), h = Math.floor(canvas.clientHeight * ratio);
    if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
    gl.viewport(0, 0, w, h);
    gl.clearColor(0.043, 0.055, 0.078, 1);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    const transform = this.transform(blend);
    const world = [this.bounds[0], this.bounds[1], this.dimensions === 3 ? this.bounds[2] : 1];
    if (this.texture) {
      gl.useProgram(this.pictures);
      gl.bindVertexArray(null);
      const at = gl.getAttribLocation(this.pictures, "corner");
      gl.bindBuffer(gl.ARRAY_BUFFER, this.square);
      gl.enableVertexAttribArray(at);
      gl.vertexAttribPointer(at, 2, gl.FLOAT, false, 0, 0);
      gl.vertexAttribDivisor(at, 0);
      gl.activeTexture(gl.TEXTURE0);
      gl.bindTexture(gl.TEXTURE_2D, this.texture);
      gl.uniform1i(gl.getUniformLocation(this.pictures, "picture"), 0);
      gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
      gl.disableVertexAttribArray(at);
    }

    gl.useProgram(this.lines);
    gl.bindVertexArray(null);
    gl.uniform3fv(gl.getUniformLocation(this.lines, "world"), world);
    gl.uniformMatrix4fv(gl.getUniformLocation(this.lines, "transform"), false, transform);
    const cornerLine = gl.getAttribLocation(this.lines, "corner");
    gl.bindBuffer(gl.ARRAY_BUFFER, this.outline);
    gl.enableVertexAttribArray(cornerLine);
    gl.vertexAttribPointer(cornerLine, 3, gl.FLOAT, false, 0, 0);
    gl.vertexAttribDivisor(cornerLine, 0);
    gl.drawArrays(gl.LINES, 0, this.outlineVertices || 0);
    gl.disableVertexAttribArray(cornerLine);
    if (this.flock.count === 0 && this.predators.count === 0) return;

    const p = this.boids;
    gl.useProgram(p);
    gl.bindVertexArray(this.vao);
    gl.uniform1f(gl.getUniformLocation(p, "blend"), blend);
    gl.uniform1i(gl.getUniformLocation(p, "bounded"), this.open ? 0 : 1);
    gl.uniform1f(gl.getUniformLocation(p, "reach"), 0.01 * Math.max(this.world[0], this.world[1]));
    gl.uniformMatrix4fv(gl.getUniformLocation(p, "transform"), false, transform);
    gl.uniform2f(gl.getUniformLocation(p, "pixel"), 2 / w, 2 / h);
    gl.uniform1i(gl.getUniformLocation(p, "box"), this.dimensions === 3 ? 1 : 0);
    const bind = (name, buffer, size, type, divisor) => {
      const at = gl.getAttribLocation(p, name);
      if (at < 0) return;
      gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
      gl.enableVertexAttribArray(at);
      gl.vertexAttribPointer(at, size, type, false, 0, 0);
      gl.vertexAttribDivisor(at, divisor);
    };
    const unbind = (name) => {
      const at = gl.getAttribLocation(p, name);
      if (at >= 0) { gl.disableVertexAttribArray(at); gl.vertexAttrib1f(at, 0); }
    };
    bind("corner", this.corner, 2, gl.FLOAT, 0);
    const box = this.dimensions === 3;
    const boidSize = (this.flock.count > 200000 ? 3 : 6) * ratio;
    const drawGroup = (group, size, predator) => {
      if (group.count === 0) return;
      gl.uniform1f(gl.getUniformLocation(p, "size"), size);
      gl.uniform1i(gl.getUniformLocation(p, "predator"), predator ? 1 : 0);
      gl.uniform3fv(gl.getUniformLocation(p, "previous_origin"), group.previousRegion.origin);
      gl.uniform3fv(gl.getUniformLocation(p, "previous_side"), group.previousRegion.side);
      gl.uniform3fv(gl.getUniformLocation(p, "origin"), group.region.origin);
      gl.uniform3fv(gl.getUniformLocation(p, "side"), group.region.side);
      for (let a = 0; a < 3; ++a) {
        for (const [prefix, buffers] of [["p", group.previous], ["c", group.current]]) {
          if (a < 2 || box) bind(prefix + "xyz"[a], buffers[a], 1, gl.UNSIGNED_SHORT, 1);
          else unbind(prefix + "xyz"[a]);
        }
      }
      bind("azimuth_byte", group.heading[0], 1, gl.UNSIGNED_BYTE, 1);
      gl.uniform1i(gl.getUniformLocation(p, "colouring"), group.colouring);
      if (group.colouring > 0) bind("colour_byte", group.colour, 1, gl.UNSIGNED_BYTE, 1);
      else unbind("colour_byte");
      if (box) bind("elevation_byte", group.heading[1], 1, gl.UNSIGNED_BYTE, 1);
      else unbind("elevation_byte");
      gl.drawArraysInstanced(gl.TRIANGLES, 0, 3, group.count);
    };
    drawGroup(this.flock, boidSize, false);
    drawGroup(this.predators, 6 * 2.5 * ratio, true);
  }
}
