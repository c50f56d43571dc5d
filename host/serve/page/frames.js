// Decodes a frame of `boids serve` (host/serve/frame.h): a 48-byte header, then x, y[, z] as
// uint16 (the world in 65536 bins) and the heading as uint8 (azimuth[, elevation]).
export const HEADER_BYTES = 48;

export function decodeFrame(buffer) {
  const view = new DataView(buffer);
  const magic = String.fromCharCode(...new Uint8Array(buffer, 0, 4));
  if (magic !== "BOID" || view.getUint8(4) !== 1) throw new Error("not a frame of boids serve");
  const dimensions = view.getUint8(5);
  const count = view.getUint32(16, true);
  const frame = {
    dimensions,
    paused: (view.getUint16(6, true) & 1) === 1,
    step: Number(view.getBigUint64(8, true)),
    count,
    total: view.getUint32(20, true),
    stride: view.getUint32(24, true),
    world: [view.getFloat32(28, true), view.getFloat32(32, true), view.getFloat32(36, true)],
    number: Number(view.getBigUint64(40, true)),
    bytes: buffer.byteLength,
    position: [],
    heading: [],
  };
  let at = HEADER_BYTES;
  for (let a = 0; a < dimensions; ++a) {
    frame.position.push(new Uint16Array(buffer, at, count));
    at += 2 * count;
  }
  for (let h = 0; h < dimensions - 1; ++h) {
    frame.heading.push(new Uint8Array(buffer, at, count));
    at += count;
  }
  if (at !== buffer.byteLength) throw new Error("a frame of the wrong size");
  return frame;
}

export function bytesPerBoid(dimensions) {
  return dimensions === 3 ? 8 : 5;
}
