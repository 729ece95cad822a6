"""parquet/: one table per record kind (each document's rows built by its worker), written with a fixed arrow schema (see records.SCHEMAS),
no pandas metadata and fixed writer options, so the bytes depend on the data only."""

from __future__ import annotations

import io

from pipeline.export.arrow import table
from pipeline.export.bundle import Format
from pipeline.export.records import RECORD_KINDS


def to_bytes(tbl) -> bytes:
    import pyarrow.parquet as pq

    buf = io.BytesIO()
    pq.write_table(
        tbl,
        buf,
        compression="zstd",
        compression_level=3,
        use_dictionary=True,
        write_statistics=True,
        row_group_size=1 << 20,
        store_schema=False,
    )
    return buf.getvalue()


def files(per_doc: list[dict]) -> dict[str, bytes]:
    """parquet/<kind>.parquet from the per-document tables, in the order given."""
    import pyarrow as pa

    out = {}
    for kind in RECORD_KINDS:
        parts = [t[kind] for t in per_doc if kind in t]
        tbl = pa.concat_tables(parts).combine_chunks() if parts else table(kind, [])
        out[f"parquet/{kind}.parquet"] = to_bytes(tbl)
    return out


FORMAT = Format("parquet", lambda b: b.arrow_tables, lambda parts, _info: files([p for _s, p in parts]),
                slow_corpus=True)
