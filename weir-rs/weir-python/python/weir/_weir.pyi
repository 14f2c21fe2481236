from os import PathLike
from typing import Any, Dict, List, Optional, Tuple

class WeirError(Exception): ...
class CorruptFileError(WeirError): ...
class SnapshotNotFoundError(WeirError): ...

class Table:
    def __init__(
        self,
        path: str,
        storage_options: Optional[Dict[str, str]] = None,
        leases: bool = True,
        consumer_id: Optional[str] = None,
        lease_ttl_seconds: float = 3600.0,
    ) -> None: ...
    @property
    def location(self) -> str: ...
    def latest_commit_id(self) -> int: ...
    def snapshots(self) -> List[Tuple[int, int, str, int]]: ...
    def schema(
        self,
    ) -> Tuple[Any, List[str], List[str], List[Tuple[str, str]], List[Tuple[str, str]]]: ...
    def scan(
        self,
        columns: Optional[List[str]] = None,
        filter: Optional[str] = None,
        snapshot_id: Optional[int] = None,
        as_of_millis: Optional[int] = None,
    ) -> BatchStream: ...
    def changes(
        self,
        from_commit: int,
        to_commit: int,
        columns: Optional[List[str]] = None,
        filter: Optional[str] = None,
    ) -> BatchStream: ...

class BatchStream:
    def schema(self) -> Any: ...
    def next_batch(self) -> Optional[Tuple[Any, Any]]: ...
