"""Reading lists and items whole: paging a list until it provably ends (page numbers or Link headers),
an unpaged list, one item by number. What does not hold what it should (an empty page before the
announced end, an object where a list belongs, no item where one was asked) is asked again and then
raised as `ApiError`, for the harvest to name; never read as an end, an empty list or "no such item"."""

from __future__ import annotations

from typing import Any, Callable, Iterator

from fixlore.sources.responses import ApiError, int_header, item_key, list_in


class PagingMixin:
    """`ApiClient.paginate`, `get_list`, `get_object` (the client supplies `get` and the page sizes
    learned per endpoint)."""

    page_sizes: dict[tuple[str, int], int]
    # What paging met that the run should know: {endpoint, kind, lists, example, detail} per
    # endpoint template and kind ("over-long-page": healed; "repeated-page": ended where it repeated).
    paging_notes: dict[tuple[str, str], dict[str, Any]]

    def note_paging(self, endpoint: str, path: str, kind: str, detail: str) -> None:
        notes = self.__dict__.setdefault("paging_notes", {})
        note = notes.setdefault((endpoint, kind), {"endpoint": endpoint, "kind": kind, "lists": 0,
                                                   "example": path, "detail": detail})
        note["lists"] += 1

    def paging_report(self) -> list[dict[str, Any]]:
        """The paging notes of this client's run so far, one per endpoint template and kind."""
        return [dict(note) for note in self.__dict__.get("paging_notes", {}).values()]

    def get_object(self, path: str, params: dict[str, Any] | None = None, *, endpoint: str | None = None,
                   keys: tuple[str, ...] = ("number",), repeat_budget: int = 4) -> dict[str, Any] | None:
        """One item (an issue, a PR) by its number: the object, or None when the platform answers 404
        (no such item). An answer that is no object carrying one of ``keys`` (an error object answered with
        200, no body) is asked again, then raised (ApiError "not-an-object"), never read as "no such
        item": a fix PR read so was dropped from its issue without a word."""
        endpoint = endpoint or path
        for fetches in range(1, repeat_budget + 1):
            resp = self.get(path, params, endpoint=endpoint, not_found_ok=True, conditional=fetches == 1)
            if resp.status == 404:
                return None
            if isinstance(resp.data, dict) and any(resp.data.get(k) not in (None, "") for k in keys):
                return resp.data
        raise ApiError(endpoint, "not-an-object", f"answered {_shape(resp.data)} instead of an item with "
                                                  f"{' or '.join(keys)} ({repeat_budget} fetches)")

    def get_list(self, path: str, params: dict[str, Any] | None = None, *, endpoint: str | None = None,
                 not_found_ok: bool = False, repeat_budget: int = 4) -> list[Any]:
        """One GET of a list its platform documents no paging for (GitCode's issue operation log, an
        issue's linked PRs, a PR's files), held to the rule `paginate` keeps: an object or no body
        where the list belongs is asked again, then raised (ApiError "truncated"), never read as
        empty; and when the answer's totals say the list goes on past what came (the server pages
        it after all, 20 to a page by default), the list is paged to its end instead."""
        endpoint = endpoint or path
        for fetches in range(1, repeat_budget + 1):
            resp = self.get(path, params, endpoint=endpoint, not_found_ok=not_found_ok, conditional=fetches == 1)
            if resp.status == 404:
                return []
            items = list_in(resp.data)
            if items is not None:
                break
        else:
            raise ApiError(endpoint, "truncated", f"answered {_shape(resp.data)} instead of a list "
                                                  f"({repeat_budget} fetches); the list is unread")
        if _announces_more(resp, 2, len(items), True, "page"):      # would a page 2 hold more?
            self.note_paging(endpoint, path, "paged-after-all",
                             f"{len(items)} items came while the totals announce more: the list was paged")
            return [item for page in self.paginate(path, params, endpoint=endpoint, not_found_ok=not_found_ok)
                    for item in page]
        return items

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
        A first page longer than asked is the whole list (the server ignores paging: GitCode's PR
        commit list answers 150 items to ``per_page=100``), unless ``total_count`` announces more.
        A page that brings nothing new (a repeated page) is fetched again, up to ``repeat_budget``
        fetches; if it still repeats, paging ends there when no total announces more items (the
        server ignores ``page``: what came is all it serves), noted in ``paging_notes``, and
        :class:`ApiError` is raised when a total says items are missing: a list known to be
        truncated is a failure, never an end.
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
        trust_pages = True                 # total_page describes per_page pages (not when per_page is ignored)
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
                    if page == 1:
                        return             # no such list (the caller decides what a 404 means)
                    raise ApiError(endpoint, 404, f"page {page} answered 404 after {len(seen)} items were read; "
                                                  f"the list would be incomplete")
                items = resp.data if isinstance(resp.data, list) else list_in(resp.data)
                if items is None or (not items and _announces_more(resp, page, received, trust_pages, style)):
                    # An object where a list belongs, or an empty page before the end the totals
                    # announce (GitCode's changelog, 2024-11-22: "occasional incomplete pages"): asked
                    # again; never taken as the end of the list.
                    if fetches < repeat_budget:
                        continue
                    if items is not None and style == "link":
                        # GitHub's Link is its paging's own word: a page left empty that still links
                        # a next one is passed over (named), the rest of the list read
                        self.note_paging(endpoint, path, "empty-page",
                                         f"page {page} stayed empty ({fetches} fetches) while linking a next "
                                         f"page; paging went on")
                        keys, fresh = [], []
                        break
                    what = (f"an empty page while {_announces_more(resp, page, received, trust_pages, style)}"
                            if items is not None else f"{_shape(resp.data)} instead of a list")
                    raise ApiError(endpoint, "truncated", f"page {page} answered {what} ({fetches} fetches, "
                                                          f"{len(seen)} items read); the list would be incomplete")
                keys = [key(item) for item in items]
                fresh = [item for item, k in zip(items, keys) if k not in seen]
                if not items or fresh:
                    break
                if fetches >= repeat_budget:
                    if probing and keys == first_keys:
                        return             # page 2 stays page 1: the server ignores `page`; all is here
                    total_count = int_header(resp.headers, "total_count", "x-total")
                    if total_count is not None and total_count > len(seen):
                        raise ApiError(endpoint, "repeated-page",
                                       f"page {page} kept repeating items already seen ({fetches} fetches) while "
                                       f"{total_count} items are announced; the list would be incomplete")
                    self.note_paging(endpoint, path, "repeated-page",
                                     f"page {page} kept repeating items already seen ({fetches} fetches); "
                                     f"paging ended with the {len(seen)} items received")
                    return
            seen.update(keys)
            received += len(items)
            if first_keys is None:
                first_keys = keys
            if fresh:
                yield fresh
            if not items and not (style == "link" and resp.links.get("next")):
                return
            if page == 1 and len(items) > per_page and style == "page":
                total_count = int_header(resp.headers, "total_count", "x-total")
                if total_count is None or total_count <= len(items):
                    # More than asked: the server ignores paging, and this page is the whole list
                    # (a total_page it sends was counted for the per_page it ignored).
                    self.note_paging(endpoint, path, "over-long-page",
                                     f"{len(items)} items on page 1 for per_page={per_page}: the whole list")
                    return
                size = len(items)          # the server's own page size, longer than asked
                trust_pages = False
            if style == "link":
                next_url = resp.links.get("next")
                if not next_url:
                    return
                page += 1
                continue
            total_page = int_header(resp.headers, "total_page", "x-total-pages") if trust_pages else None
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


def _announces_more(resp: Any, page: int, received: int, trust_pages: bool, style: str) -> str:
    """What in the answer says the list goes on past the ``received`` items ("" when nothing does):
    a ``Link: rel="next"`` (GitHub), else the totals (GitCode)."""
    if style == "link" and resp.links.get("next"):
        return "it links a next page"
    headers = resp.headers
    total_page = int_header(headers, "total_page", "x-total-pages") if trust_pages else None
    if total_page is not None:
        return f"total_page={total_page} counts page {page}" if page <= total_page else ""
    total_count = int_header(headers, "total_count", "x-total")
    return (f"total_count={total_count} counts more than the {received} read"
            if total_count is not None and received < total_count else "")


def _shape(data: Any) -> str:
    """A few words on a body that is no list (for the message; never its content: issue text is hostile)."""
    if isinstance(data, dict):
        return f"an object with keys {sorted(str(k)[:40] for k in data)[:6]}"
    return "no body" if data in (None, "") else f"a {type(data).__name__}"
