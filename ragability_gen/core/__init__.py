"""Shared core: typed records, file I/O, schemas, specs, shipped data folders, validation."""
