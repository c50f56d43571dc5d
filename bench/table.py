"""What the benchmark scripts of bench/ share: their rows written as a CSV table."""
import csv


def write_csv(path, rows):
    """`rows` (dicts with the same keys, in order) as a CSV file with a header, at `path`."""
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
