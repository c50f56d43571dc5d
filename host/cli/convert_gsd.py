#!/usr/bin/python3
"""Writes the whole frames of an H5MD trajectory of `boids run` as GSD (HOOMD-blue's format,
which OVITO and HOOMD-blue read), for `boids convert FLIGHT.h5 FLIGHT.gsd`.

    convert_gsd.py FLIGHT.h5 OUT.gsd [APPLICATION]   one GSD frame an H5MD frame; the file's
                                                     application (what made it) is APPLICATION
    convert_gsd.py --check             exit 0 when h5py and gsd can be imported

A frame holds the step (configuration/step), the box (Lx, Ly, Lz; Lz = 0 in two dimensions),
every boid as particle type 'boid' with its position (float32, in HOOMD's box centred on the
origin: x - W/2, y - H/2, z - D/2) and velocity (float32), then the predators of a flight with
--predators (the H5MD file's /particles/predators) as particle type 'predator', and the
metrics as logged quantities (log/boids/polarization, ...).

Open space (the H5MD box's `space` = open) has no box: the flock flies beyond the start's
region, which its edges hold. Every frame then takes one box, the extent of every position of
the whole trajectory (boids and predators) widened by 1 %, and the positions are given about
that extent's centre c (x - c): a fixed frame, in which the flock moves as it flew.
"""
import sys

OBSERVABLES = ("polarization", "order", "flocks", "largest_flock", "mean_nn_distance",
               "mean_neighbors", "milling", "within_reach")


def text_attribute(group, name):
    """The first string of attribute `name` of `group`, '' where there is none."""
    value = group.attrs.get(name)
    if value is None:
        return ""
    first = value[0] if hasattr(value, "__len__") and not isinstance(value, (str, bytes)) else value
    return first.decode() if isinstance(first, bytes) else str(first)


def open_space_frame(groups, whole, dimensions, np):
    """The sides and the centre of the box that holds every position of `groups` over the
    first `whole` frames, widened by 1 % (a flock at one point: a box of side 1)."""
    low = np.full(dimensions, np.inf)
    high = np.full(dimensions, -np.inf)
    for group in groups:
        for k in range(whole):
            positions = group["position/value"][k][:, :dimensions]
            if len(positions):
                low = np.minimum(low, positions.min(axis=0))
                high = np.maximum(high, positions.max(axis=0))
    span = high - low
    sides = np.where(span > 0, span * 1.01, 1.0)
    return sides, (low + high) / 2


def main(argv):
    if argv[1:] == ["--check"]:
        import gsd.hoomd  # noqa: F401
        import h5py  # noqa: F401
        return 0
    if len(argv) not in (3, 4):
        sys.stderr.write(__doc__)
        return 2
    import gsd.fl
    import gsd.hoomd
    import h5py
    import numpy as np

    frame_class = getattr(gsd.hoomd, "Frame", None) or gsd.hoomd.Snapshot  # gsd 3, gsd 2
    with h5py.File(argv[1], "r") as f:
        flock = f["particles/flock"]
        steps = flock["position/step"]
        whole = min(len(steps), flock["position/value"].shape[0])  # a kill's last frame is not
        count, columns = flock["position/value"].shape[1:]
        # A flat flock in a box (the layout readers of 3D files open; its parameters say 2
        # dimensions) is written as the flat flock its run flew: HOOMD's 2D frame, Lz = 0.
        flat = "parameters" in f and f["parameters"].attrs.get("dimensions") == 2
        dimensions = 2 if flat else columns
        hunters = f["particles/predators"] if "predators" in f["particles"] else None
        predators = hunters["position/value"].shape[1] if hunters is not None else 0
        edges = flock["box/edges/value"]
        open_space = text_attribute(flock["box"], "space") == "open"
        if open_space:
            groups = [flock] + ([hunters] if hunters is not None else [])
            open_sides, centre = open_space_frame(groups, whole, dimensions, np)
        application = argv[3] if len(argv) == 4 else "boids"
        try:
            file = gsd.fl.open(name=argv[2], mode="w", application=application, schema="hoomd",
                               schema_version=[1, 4])
        except ValueError:
            file = gsd.fl.open(name=argv[2], mode="wb", application=application, schema="hoomd",
                               schema_version=[1, 4])
        out = gsd.hoomd.HOOMDTrajectory(file)
        with out:
            for k in range(whole):
                sides = np.diag(edges[k]) if edges.ndim == 3 else edges[:]
                origin = sides[:dimensions] / 2  # what the positions are given about
                if open_space:
                    sides, origin = open_sides, centre
                box = [float(sides[0]), float(sides[1]),
                       float(sides[2]) if dimensions == 3 else 0.0, 0.0, 0.0, 0.0]
                frame = frame_class()
                frame.configuration.step = int(steps[k])
                frame.configuration.dimensions = int(dimensions)
                frame.configuration.box = box
                frame.particles.N = int(count + predators)
                frame.particles.types = ["boid", "predator"] if predators else ["boid"]
                frame.particles.typeid = np.zeros(count + predators, dtype=np.uint32)
                frame.particles.typeid[count:] = 1
                position = np.zeros((count + predators, 3))
                velocity = np.zeros((count + predators, 3))
                position[:count, :dimensions] = flock["position/value"][k][:, :dimensions] - origin
                velocity[:count, :dimensions] = flock["velocity/value"][k][:, :dimensions]
                if predators:
                    position[count:, :dimensions] = (hunters["position/value"][k][:, :dimensions]
                                                     - origin)
                    velocity[count:, :dimensions] = hunters["velocity/value"][k][:, :dimensions]
                frame.particles.position = position.astype(np.float32)
                frame.particles.velocity = velocity.astype(np.float32)
                frame.log = {"boids/" + name: np.array([f["observables"][name]["value"][k]])
                             for name in OBSERVABLES if name in f.get("observables", {})}
                out.append(frame)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except KeyboardInterrupt:  # Ctrl-C reached boids too, which says so and keeps OUT as it was
        sys.exit(130)
    except (OSError, KeyError, ValueError, IndexError) as e:
        sys.stderr.write(f"convert_gsd.py: {sys.argv[1]}: {e}\n")
        sys.exit(2)
