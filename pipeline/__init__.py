"""zhushu (注疏): classical Chinese commentary texts from Kanripo into annotated datasets."""

__version__ = "0.1.0"
