"""parquet/: one table per record kind (each document's rows built by its worker), written with a fixed arrow schema (see records.SCHEMAS),
no pandas metadata and fixed writer options, so the bytes depend on the data only."""

from __future__ import annotations

import io
import json

from pipeline.export.bundle import Format
from pipeline.export.records import RECORD_KINDS, SCHEMAS


def _arrow_type(pa, name: str):
    return {"string": pa.string(), "int64": pa.int64(), "float64": pa.float64(), "bool": pa.bool_(), "json": pa.string()}[name]


def table(kind: str, records: list[dict]):
    import pyarrow as pa

    cols = SCHEMAS[kind]
    fields = [pa.field(name, _arrow_type(pa, typ)) for name, typ, _ in cols]
    if not any(typ == "json" for _, typ, _ in cols):
        # arrow reads the row dicts itself (2.5x faster than a Python list per column)
        return pa.Table.from_struct_array(pa.array(records, type=pa.struct(fields)))
    data = {}
    for name, typ, _ in cols:
        values = [r.get(name) for r in records]
        if typ == "json":
            values = [None if v is None else json.dumps(v, ensure_ascii=False, sort_keys=True) for v in values]
        data[name] = values
    return pa.Table.from_pydict(data, schema=pa.schema(fields))


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


def tables(records: dict[str, list[dict]]) -> dict:
    """One document's arrow tables (built where the document was processed)."""
    return {kind: table(kind, records.get(kind, [])) for kind in RECORD_KINDS}


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
