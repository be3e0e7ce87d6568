"""Paging through a list endpoint until the list provably ends (page numbers or Link headers)."""

from __future__ import annotations

from typing import Any, Callable, Iterator

from fixlore.sources.responses import ApiError, int_header, item_key, list_in, parse_link_header


class PagingMixin:
    """`ApiClient.paginate` (the client supplies `get` and the page sizes learned per endpoint)."""

    page_sizes: dict[tuple[str, int], int]

    def paginate(self, path: str, params: dict[str, Any] | None = None, *, endpoint: str | None = None,
                 per_page: int = 100, style: str = "page", id_key: Callable[[Any], Any] | None = None,
                 max_pages: int = 10_000, not_found_ok: bool = False,
                 repeat_budget: int = 4) -> Iterator[list[dict]]:
        """Yield pages of new items until the list provably ends; never stop silently short of it.

        ``style="page"``: page numbers, ended by ``total_page`` (or ``total_count``) when the server
        sends them, else by a page shorter than the server's real page size. A first page shorter
        than asked while more pages are announced sets that size (GitCode caps ``per_page``). With
        no totals a short first page is followed by one probe of page 2, since a silent cap and a
        short list look the same.
        ``style="link"``: GitHub ``Link: rel="next"``.
        A page that brings nothing new (a repeated page) is fetched again, up to ``repeat_budget``
        fetches, and then :class:`ApiError` is raised: a truncated list is a failure, never an end.
        The caller may stop early by breaking out of the loop (e.g. at the window start).
        """
        endpoint = endpoint or path
        params = dict(params or {})
        params["per_page"] = per_page
        seen: set[Any] = set()
        key = id_key or item_key
        # What this endpoint was seen to do (caps may differ between endpoints: never borrowed).
        learned = self.page_sizes.get((endpoint, per_page))
        size = learned or per_page         # the page size the server really uses
        received = 0                       # items received, repeats included (compared with total_count)
        first_keys: list[Any] | None = None
        probing = False                    # asking page 2 after a short first page without totals
        next_url: str | None = None
        page = 1
        while True:
            if page > max_pages:
                raise ApiError(endpoint, "page-cap", f"more than {max_pages} pages without an end; stopped "
                                                     f"rather than loop")
            fetches = 0
            while True:
                fetches += 1
                conditional = fetches == 1
                if style == "link" and next_url:
                    resp = self.get(next_url, endpoint=endpoint, not_found_ok=not_found_ok, conditional=conditional)
                else:
                    resp = self.get(path, {**params, "page": page}, endpoint=endpoint,
                                    not_found_ok=not_found_ok, conditional=conditional)
                if resp.status == 404:
                    return
                items = resp.data if isinstance(resp.data, list) else list_in(resp.data)
                keys = [key(item) for item in items]
                fresh = [item for item, k in zip(items, keys) if k not in seen]
                if not items or fresh:
                    break
                if fetches >= repeat_budget:
                    if probing and keys == first_keys:
                        return             # page 2 stays page 1: the server ignores `page`; all is here
                    raise ApiError(endpoint, "repeated-page",
                                   f"page {page} kept repeating items already seen ({fetches} fetches); "
                                   f"the list would be incomplete")
            seen.update(keys)
            received += len(items)
            if first_keys is None:
                first_keys = keys
            if fresh:
                yield fresh
            if not items:
                return
            if style == "link":
                next_url = parse_link_header(resp.headers.get("link")).get("next")
                if not next_url:
                    return
                page += 1
                continue
            total_page = int_header(resp.headers, "total_page", "x-total-pages")
            total_count = int_header(resp.headers, "total_count", "x-total")
            if page == 1 and len(items) < per_page and (
                    (total_page is not None and total_page > 1)
                    or (total_page is None and total_count is not None and total_count > len(items))):
                size = len(items)          # the server caps per_page: its pages are this long
            if len(items) == per_page:
                self.page_sizes[(endpoint, per_page)] = per_page      # per_page honoured here
            if total_page is not None:
                if page >= total_page:
                    return
            elif total_count is not None:
                if received >= total_count:
                    return
            elif probing:
                probing = False
                size = len(first_keys)     # page 2 brought new items: page 1 was a capped page
                self.page_sizes[(endpoint, per_page)] = size
                if len(items) < size:
                    return
            elif len(items) < size:
                if page != 1 or learned:
                    return                 # shorter than the size this endpoint is known to use: the end
                probing = True             # short first page, no totals: a cap or the end? ask page 2
            page += 1
