"""
Watching a flock from a notebook
================================

``Flock.serve()`` serves the flock to a browser page, as ``boids serve`` serves its own, while
the notebook steps and steers it: the page draws the flock and charts its order. In Jupyter,
an ``IFrame`` shows the page in the notebook itself; a page elsewhere opens the address in a
tab. Served on loopback, as here, only this machine can watch; ``bind`` another address needs
a token, which becomes part of the address.
"""
import boids

flock = boids.Flock(count=20_000, density=1.2, seed=1)
address = flock.serve(port=0)  # any free port
print(f"watch it at {address}")

# %%
# In a notebook cell, the page in the notebook:
#
# .. code-block:: python
#
#     from IPython.display import IFrame
#     IFrame(address, width=900, height=600)
#
# The notebook flies and steers the flock while the page watches: a long ``step`` sends the
# page a frame every sixtieth of a second.
flock.step(200)
flock.set_params(noise=1.0)
flock.step(200)
print(f"step {flock.steps_taken}: polarization {flock.metrics()['polarization']:.3f}")

# %%
# Stopping closes the pages; so does the flock's end.
flock.stop_serving()
