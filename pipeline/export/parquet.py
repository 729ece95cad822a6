"""parquet/: one table per record kind, written with a fixed arrow schema (see records.SCHEMAS),
no pandas metadata and fixed writer options, so the bytes depend on the data only."""

from __future__ import annotations

import io
import json

from pipeline.export.records import RECORD_KINDS, SCHEMAS


def _arrow_type(pa, name: str):
    return {"string": pa.string(), "int64": pa.int64(), "float64": pa.float64(), "json": pa.string()}[name]


def table(kind: str, records: list[dict]):
    import pyarrow as pa

    cols = SCHEMAS[kind]
    schema = pa.schema([pa.field(name, _arrow_type(pa, typ)) for name, typ, _ in cols])
    data = {}
    for name, typ, _ in cols:
        values = [r.get(name) for r in records]
        if typ == "json":
            values = [None if v is None else json.dumps(v, ensure_ascii=False, sort_keys=True) for v in values]
        data[name] = values
    return pa.Table.from_pydict(data, schema=schema)


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


def files(records: dict[str, list[dict]]) -> dict[str, bytes]:
    """parquet/<kind>.parquet for the records of the whole run (documents in id order)."""
    return {f"parquet/{kind}.parquet": to_bytes(table(kind, records.get(kind, []))) for kind in RECORD_KINDS}
