// Decodes a frame of `boids serve` (host/serve/frame.h): a 112-byte header, then the boids and
// the predators, each group x, y[, z] as uint16 (the frame's region, the world or in open space
// the flock's bounds, in 65536 bins) and the heading as
// uint8 (azimuth[, elevation]), the boids then a byte each of what they are coloured by (when
// not their heading), each group padded to an even length. A picture (flag bit 1) holds no
// boids: the predators, then a JPEG of the whole flock at the page's view, to the end.
export const HEADER_BYTES = 112;
export const COLOURINGS = ["heading", "speed", "neighbors", "flock"];

// A group of `count` particles from byte `at`: its arrays, and where the next group starts.
function decodeGroup(buffer, at, count, dimensions, coloured) {
  const group = { count, position: [], heading: [], colour: null };
  for (let a = 0; a < dimensions; ++a) {
    group.position.push(new Uint16Array(buffer, at, count));
    at += 2 * count;
  }
  for (let h = 0; h < dimensions - 1; ++h) {
    group.heading.push(new Uint8Array(buffer, at, count));
    at += count;
  }
  if (coloured) {
    group.colour = new Uint8Array(buffer, at, count);
    at += count;
  }
  return [group, at + (at % 2)];
}

export function decodeFrame(buffer) {
  const view = new DataView(buffer);
  const magic = String.fromCharCode(...new Uint8Array(buffer, 0, 4));
  if (magic !== "BOID" || view.getUint8(4) !== 4) throw new Error("not a frame of this boids serve");
  const dimensions = view.getUint8(5);
  const count = view.getUint32(16, true);
  const colouring = view.getUint8(56);
  const [boids, after] = decodeGroup(buffer, HEADER_BYTES, count, dimensions, colouring !== 0);
  const [predators, end] = decodeGroup(buffer, after, view.getUint32(48, true), dimensions, false);
  const flags = view.getUint16(6, true);
  const picture = (flags & 2) !== 0 ? new Uint8Array(buffer, end) : null;
  if (!picture && end !== buffer.byteLength) throw new Error("a frame of the wrong size");
  return {
    dimensions,
    paused: (flags & 1) === 1,
    picture,
    step: Number(view.getBigUint64(8, true)),
    count,
    total: view.getUint32(20, true),
    stride: view.getUint32(24, true),
    open: (flags & 8) !== 0,  // open space: the region is the flock's, and moves with it
    // The region's sides and origin: a bin q of a side s lies at origin + (q + 0.5) / 65536 s.
    side: [view.getFloat32(28, true), view.getFloat32(32, true), view.getFloat32(36, true)],
    origin: [0, 1, 2].map((a) => view.getFloat64(64 + 8 * a, true)),
    centre: [0, 1, 2].map((a) => view.getFloat64(88 + 8 * a, true)),  // the boids' mean, in open space
    number: Number(view.getBigUint64(40, true)),
    held: view.getUint32(52, true) / 1e6,  // seconds the server held the ask
    colouring: COLOURINGS[colouring] || "heading",
    colourTop: view.getFloat32(60, true),
    colourBounded: (flags & 4) !== 0,  // the top a bound: boids at it have at least as many
    bytes: buffer.byteLength,
    position: boids.position,
    heading: boids.heading,
    colour: boids.colour,
    predators,
  };
}

// A boid's bytes in a frame: position, heading and, coloured, one more.
export function bytesPerBoid(dimensions, coloured) {
  return (dimensions === 3 ? 8 : 5) + (coloured ? 1 : 0);
}
