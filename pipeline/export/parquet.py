"""parquet/: one table per record kind (each document's rows built by its worker), written with a fixed arrow schema (see records.SCHEMAS),
no pandas metadata and fixed writer options, so the bytes depend on the data only."""

from __future__ import annotations


from pipeline.export.arrow import table
from pipeline.export.bundle import CorpusInfo, Format, Parts, Sink
from pipeline.export.records import RECORD_KINDS


# rows a row group: the writer holds at most this many rows of a table before writing them out
# (one group of 1 << 20 rows held a whole book's tokens in memory)
ROW_GROUP = 1 << 17
WRITER_OPTIONS = dict(compression="zstd", compression_level=3, use_dictionary=True, write_statistics=True,
                      store_schema=False)


class _TableWriter:
    """One parquet file written a row group at a time: rows are buffered until a group is full,
    so the groups (and the bytes) are those of writing the whole table at once."""

    def __init__(self, path, schema):
        import pyarrow.parquet as pq

        self.writer = pq.ParquetWriter(path, schema, **WRITER_OPTIONS)
        self.pending: list = []
        self.rows = 0

    def add(self, tbl) -> None:
        if tbl.num_rows == 0:
            return
        self.pending.append(tbl)
        self.rows += tbl.num_rows
        if self.rows >= ROW_GROUP:
            self._flush(final=False)

    def _flush(self, final: bool) -> None:
        import pyarrow as pa

        if not self.pending:
            return
        tbl = pa.concat_tables(self.pending).combine_chunks()
        full = (tbl.num_rows // ROW_GROUP) * ROW_GROUP if not final else tbl.num_rows
        for at in range(0, full, ROW_GROUP):
            self.writer.write_table(tbl.slice(at, min(ROW_GROUP, full - at)), row_group_size=ROW_GROUP)
        rest = tbl.slice(full)
        self.pending, self.rows = ([rest], rest.num_rows) if rest.num_rows else ([], 0)

    def close(self) -> None:
        self._flush(final=True)
        self.writer.close()


def stream(parts: Parts, _info: CorpusInfo, sink: Sink) -> None:
    """parquet/<kind>.parquet from the per-document tables, a document at a time, in the order given."""
    writers = {kind: _TableWriter(sink.path(f"parquet/{kind}.parquet"), table(kind, []).schema) for kind in RECORD_KINDS}
    try:
        for _split, tables_of_doc in parts:
            for kind, tbl in tables_of_doc.items():
                writers[kind].add(tbl)
    finally:
        for w in writers.values():
            w.close()


FORMAT = Format("parquet", lambda b: b.arrow_tables, stream=stream, slow_corpus=True)
