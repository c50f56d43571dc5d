// serve's pictures drawn by the renderer every screen shares (host/render): the snapshot's
// boids decoded into the renderer's vertex buffer and drawn as a picture of their density, in
// an OpenGL context of its own with no display (the GPU's through its EGL device on a GPU
// server, Mesa's elsewhere). Built where the renderer is (with the viewer).
#pragma once

#include <memory>

#include "host/serve/flock_image.h"

namespace boids::serve {

// A drawer whose context is current on the calling thread, which draws all its pictures and
// destroys it. Throws RuntimeError where no context opens.
std::unique_ptr<PictureDrawer> open_rendered_pictures();

}  // namespace boids::serve
