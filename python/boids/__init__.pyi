from os import PathLike
from typing import Any, Literal, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str

_Number = Union[int, float, np.number]
_Pair = Tuple[_Number, _Number]
_Triple = Tuple[_Number, _Number, _Number]
_Backend = Literal["auto", "reference", "cpu", "cuda"]
_Method = Literal["naive", "hashed"]
_Precision = Literal["float", "double"]
_Obstacles = Union[
    str,
    PathLike,
    Sequence[Tuple[_Number, _Number, _Number]],
    Sequence[Tuple[_Number, _Number, _Number, _Number]],
    npt.ArrayLike,
]
_Path = Union[str, PathLike, Sequence[_Pair], Sequence[_Triple], npt.ArrayLike]

class Flock:
    def __init__(
        self,
        count: Optional[int] = None,
        seed: int = 42,
        backend: _Backend = "auto",
        method: Optional[_Method] = None,
        precision: Optional[_Precision] = None,
        *,
        model: Optional[Literal["boids", "steering", "vicsek"]] = None,
        radius: Optional[_Number] = None,
        separation: Optional[_Number] = None,
        alignment: Optional[_Number] = None,
        cohesion: Optional[_Number] = None,
        max_speed: Optional[_Number] = None,
        speed: Optional[_Number] = None,
        dt: Optional[_Number] = None,
        world: Optional[Union[_Number, _Pair, _Triple]] = None,
        density: Optional[_Number] = None,
        boundary: Optional[Literal["torus", "walls"]] = None,
        wall_distance: Optional[_Number] = None,
        separation_radius: Optional[_Number] = None,
        fov: Optional[_Number] = None,
        nearest: Optional[int] = None,
        predators: Optional[int] = None,
        predator_speed: Optional[_Number] = None,
        flee_radius: Optional[_Number] = None,
        noise: Optional[_Number] = None,
        wander: Optional[_Number] = None,
        obstacles: Optional[_Obstacles] = None,
        goal: Optional[Union[_Pair, _Triple]] = None,
        goal_weight: Optional[_Number] = None,
        arrival_radius: Optional[_Number] = None,
        path: Optional[_Path] = None,
        path_radius: Optional[_Number] = None,
        path_weight: Optional[_Number] = None,
        wind: Optional[Union[_Pair, _Triple]] = None,
        update: Optional[Literal["synchronous", "in-place"]] = None,
        init: Optional[Union[str, PathLike]] = None,
        dimensions: Optional[Literal[2, 3]] = None,
    ) -> None: ...
    @classmethod
    def from_state(
        cls,
        array: npt.ArrayLike,
        seed: int = 42,
        backend: _Backend = "auto",
        method: Optional[_Method] = None,
        precision: Optional[_Precision] = None,
        **params: Any,
    ) -> "Flock": ...
    def step(self, n: int = 1) -> None: ...
    @property
    def state(self) -> npt.NDArray[np.float64]: ...
    @property
    def predators(self) -> npt.NDArray[np.float64]: ...
    @property
    def positions(self) -> npt.NDArray[np.float64]: ...
    @property
    def velocities(self) -> npt.NDArray[np.float64]: ...
    def set_state(self, array: npt.ArrayLike) -> None: ...
    def metrics(self) -> dict[str, Union[float, int]]: ...
    @property
    def params(self) -> dict[str, Any]: ...
    def set_params(self, **changes: Any) -> None: ...
    def device_state(self) -> "DeviceState": ...
    def serve(self, port: int = 8000, bind: str = "127.0.0.1", token: Optional[str] = None) -> str: ...
    def stop_serving(self) -> None: ...
    @property
    def serving(self) -> Optional[str]: ...
    @property
    def count(self) -> int: ...
    @property
    def seed(self) -> int: ...
    @property
    def steps_taken(self) -> int: ...
    @property
    def backend(self) -> str: ...
    @property
    def method(self) -> str: ...
    @property
    def precision(self) -> str: ...
    @property
    def device(self) -> str: ...
    @property
    def bytes_allocated(self) -> int: ...

class DeviceArray:
    pointer: int
    shape: Tuple[int, ...]
    typestr: str
    device: int
    @property
    def __cuda_array_interface__(self) -> dict[str, Any]: ...

class DeviceState:
    boids: DeviceArray
    ids: Optional[DeviceArray]
    precision: str

def info() -> dict[str, Any]: ...
def validate(backend: Literal["auto", "cpu", "cuda"] = "auto") -> dict[str, Any]: ...

class FrameArray:
    @property
    def shape(self) -> Tuple[int, ...]: ...
    @property
    def dtype(self) -> np.dtype[Any]: ...
    def __len__(self) -> int: ...
    def __getitem__(self, key: Any) -> npt.NDArray[np.float64]: ...
    def __array__(self, dtype: Any = None) -> npt.NDArray[Any]: ...

class Trajectory:
    path: str
    count: int
    dimensions: int
    steps: npt.NDArray[np.int64]
    times: npt.NDArray[np.float64]
    positions: FrameArray
    velocities: FrameArray
    metrics: dict[str, npt.NDArray[Any]]
    parameters: dict[str, Any]
    box: Tuple[float, ...]
    boundary: Literal["torus", "walls"]
    def __len__(self) -> int: ...
    def __getitem__(self, k: int) -> dict[str, Any]: ...
    def __iter__(self) -> Any: ...
    def close(self) -> None: ...
    def __enter__(self) -> "Trajectory": ...
    def __exit__(self, *exc: Any) -> None: ...

def read_trajectory(path: Union[str, PathLike[str]]) -> Trajectory: ...
