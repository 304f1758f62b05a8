"""Hosts the operator trusts with a larger command budget (``[bot] trusted_hosts``).

Several people behind one address (a LAN party, an uncloaked web gateway) share one command
budget, since the bot counts by host (``dispatch.CommandThrottle``). An operator who knows such
an address lists it, as a network (``192.168.0.0/16``, ``10.1.2.3``) or a host mask with ``*``
and ``?`` (``*.lan``, ``gateway.example.net``), and its budget is multiplied.
"""

from __future__ import annotations

import ipaddress
import re
from fnmatch import fnmatchcase

__all__ = ["TrustedHosts"]

IpNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

_MASK = re.compile(r"[a-z0-9*?._-]+")
"""What a host mask may hold: a hostname's characters and the two wildcards."""
_NUMERIC = re.compile(r"[0-9./]+|.*:.*")
"""Looks like an address or a network (digits and dots, or any colon: IPv6)."""


class TrustedHosts:
    """Matches a host (as the server shows it in ``nick!user@host``) against the list.

    Entries are checked once, here (the config loader turns a ``ValueError`` into its one-line
    error); lookups are cached, since the same few hosts ask again and again."""

    def __init__(self, entries: tuple[str, ...] | list[str] = ()) -> None:
        self.networks: list[IpNetwork] = []
        self.masks: list[str] = []
        for raw in entries:
            entry = raw.strip().lower()
            if _NUMERIC.fullmatch(entry):
                try:
                    self.networks.append(ipaddress.ip_network(entry, strict=False))
                except ValueError:
                    raise ValueError(
                        f"{raw[:60]!r} is not an address or network "
                        '(e.g. "192.168.0.0/16", "10.0.0.5", "fd00::/8")'
                    ) from None
            elif not _MASK.fullmatch(entry):
                raise ValueError(
                    f'{raw[:60]!r} is not a network (e.g. "192.168.0.0/16") or host mask '
                    '(e.g. "*.lan")'
                )
            elif not entry.strip("*?."):
                raise ValueError(f"{raw[:60]!r} would trust every host: name the hosts")
            else:
                self.masks.append(entry)
        self._seen: dict[str, bool] = {}

    def __bool__(self) -> bool:
        return bool(self.networks or self.masks)

    def __contains__(self, host: str) -> bool:
        known = self._seen.get(host)
        if known is None:
            if len(self._seen) > 4096:
                self._seen.clear()
            known = self._seen[host] = self._match(host.lower())
        return known

    def _match(self, host: str) -> bool:
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            address = None
        if address is not None and any(address in net for net in self.networks):
            return True
        return any(fnmatchcase(host, mask) for mask in self.masks)
