"""The module's tables: a pandas DataFrame where pandas is installed, else a dict of arrays."""

import numpy as np


def table(rows):
    """Rows of equal keys as columns: a DataFrame (pandas), else a dict of NumPy arrays."""
    columns = {name: np.array([r[name] for r in rows]) for name in rows[0]}
    try:
        import pandas
    except ImportError:
        return columns
    return pandas.DataFrame(columns)
