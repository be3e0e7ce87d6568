"""NewestFirst: a list's order is proven from what came back, never assumed from what was asked."""

from datetime import datetime, timedelta, timezone

from hypothesis import given, strategies as st

from fixlore.sources.base import NewestFirst

T0 = datetime(2026, 9, 1, tzinfo=timezone.utc)
BOUND = T0 + timedelta(days=10)


def d(n: int) -> datetime:
    return T0 + timedelta(days=n)


def test_a_page_in_creation_order_that_looks_sorted_proves_nothing():
    order = NewestFirst()
    updated = [d(12), d(11), d(5)]       # looks newest-first, with one item older than the window
    created = [d(12), d(11), d(5)]       # but it is also exactly creation order
    order.page(updated, created)
    assert not order.past(updated, BOUND)


def test_an_order_that_differs_from_creation_order_is_proven():
    order = NewestFirst()
    updated = [d(15), d(12), d(5)]
    created = [d(1), d(11), d(4)]        # updated later but created earlier than the next one
    order.page(updated, created)
    assert order.past(updated, BOUND)


def test_order_broken_across_a_page_boundary_stays_broken():
    order = NewestFirst()
    order.page([d(15), d(14)], [d(1), d(9)])
    order.page([d(16), d(5)], [d(2), d(0)])       # page 2 starts newer than page 1 ended
    assert not order.past([d(16), d(5)], BOUND)
    order.page([d(4), d(3)], [d(0), d(1)])
    assert not order.proven


@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 30)), min_size=1, max_size=40),
       st.sampled_from(["updated", "created"]), st.integers(1, 7))
def test_never_stops_while_a_window_item_is_still_to_come(days, server_order, page_size):
    """A server that sorted by update, or ignored the sort and sent creation order: a stop never loses."""
    items = [(d(max(u, c)), d(c)) for u, c in days]          # (updated, created); updated >= created
    slot = 0 if server_order == "updated" else 1
    items.sort(key=lambda it: it[slot], reverse=True)
    order = NewestFirst()
    for start in range(0, len(items), page_size):
        page = items[start:start + page_size]
        order.page([u for u, _ in page], [c for _, c in page])
        if order.past([u for u, _ in page], BOUND):
            assert all(u < BOUND for u, _ in items[start + page_size:])
            break
