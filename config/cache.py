"""Django's Redis cache backend, with one Redis client per connection pool instead of one per call.

Django's ``RedisCacheClient.get_client`` builds a new ``redis.Redis`` on every cache call; its
constructor fills a table of some 170 response callbacks each time, which was a third of a
projector 304's time (profiled: 1.2 of 3.2 ms). A ``redis.Redis`` is safe to share between
threads (every command takes a connection from the pool), so one per pool is kept. Everything
else (pools, serializer, timeouts, key prefix) is Django's.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient


class ReusedClientRedisCacheClient(RedisCacheClient):
    """``RedisCacheClient`` that keeps the ``redis.Redis`` it made for each pool."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            # The pool of this index (Django's own choice of server: writes to the first).
            if index not in self._pools:
                self._pools[index] = self._pool_class.from_url(self._servers[index], **self._pool_options)
            client = self._clients[index] = self._client(connection_pool=self._pools[index])
        return client


class ReusedClientRedisCache(RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` with ``ReusedClientRedisCacheClient``."""

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ReusedClientRedisCacheClient
