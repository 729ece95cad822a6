"""The records of one document as arrow tables, one a kind, with the fixed schema of
records.SCHEMAS: built once per document (DocumentBundle.arrow_tables) for parquet/ and sqlite/."""

from __future__ import annotations

import json

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


def tables(records: dict[str, list[dict]]) -> dict:
    """One document's arrow tables (built where the document was processed)."""
    return {kind: table(kind, records.get(kind, [])) for kind in RECORD_KINDS}
