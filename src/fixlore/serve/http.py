"""The knowledge base over HTTP: a read-only JSON API and a search page for people.

    GET /api/stats
    GET /api/cases/search?q=SYMPTOM&k=5&repo=OWNER/REPO
    GET /api/cases/{owner}/{repo}/{number}            the case with its evidence chain
    GET /api/cases/{owner}/{repo}/{number}/fix        fix status
    GET /api/cases/{owner}/{repo}/{number}/related?k=5
    GET /api/docs/search?q=QUERY&k=5
    GET /?q=SYMPTOM                                   the search page
    GET /case/{owner}/{repo}/{number}                 one case's evidence chain, for people
    GET /digest/{digest.html|digest.zh.md|digest.en.md|digest.json}   the run's digests (with --out)

Issue text is hostile input: the page renders it through the digest's sanitiser with
autoescape on, links only http(s) URLs and forbids scripts by Content-Security-Policy.
"""

from __future__ import annotations

from html import escape
from typing import Any

import orjson
from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from starlette.middleware.trustedhost import TrustedHostMiddleware
from fastapi.responses import HTMLResponse, JSONResponse, Response

from fixlore.serve.knowledge import MAX_K, Knowledge, NotFound, package_version
from fixlore.wording.htmlsafe import safe_env

DIGESTS = {"digest.html": "text/html; charset=utf-8", "digest.zh.md": "text/markdown; charset=utf-8",
           "digest.en.md": "text/markdown; charset=utf-8", "digest.json": "application/json"}
_CSP = ("default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; script-src 'none'; form-action 'self'; "
        "frame-ancestors 'none'")
# On every response, pages, API and errors alike: no framing (clickjacking), no sniffing, no referrer.
SECURITY_HEADERS = {"Content-Security-Policy": _CSP, "X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer",
                    "X-Content-Type-Options": "nosniff"}


class SecurityHeaders:
    """ASGI middleware adding SECURITY_HEADERS to every response that does not set them itself."""

    def __init__(self, app: Any, headers: dict[str, str] = SECURITY_HEADERS):
        self.app = app
        self.raw = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: dict) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers") or [])
                present = {k.lower() for k, _ in headers}
                message["headers"] = headers + [(k, v) for k, v in self.raw if k not in present]
            await send(message)

        await self.app(scope, receive, send_with_headers)


LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "::1", "[::1]"]


def _json(data: Any) -> Response:
    # Encoded once, as is: the answers are plain data already, and FastAPI's response-model
    # pass over them cost more than the lookup itself (bench/serve.py --http).
    return Response(orjson.dumps(data), media_type="application/json")


def create_app(knowledge: Knowledge, allowed_hosts: list[str] | None = LOOPBACK_HOSTS) -> FastAPI:
    """`allowed_hosts`: Host headers answered (loopback names by default, so a web page that
    rebinds its DNS name to 127.0.0.1 cannot read the API); None answers any."""
    app = FastAPI(title="fixlore", summary="Closed issues traced to their real fixes, with evidence and documents.",
                  version=package_version(), docs_url=None, redoc_url=None, openapi_url="/api/openapi.json")
    if allowed_hosts:
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts)
    app.add_middleware(SecurityHeaders)
    env = safe_env("fixlore.serve")
    page, case_page = env.get_template("search.html.j2"), env.get_template("case.html.j2")
    headers = dict(SECURITY_HEADERS)
    K = Query(5, ge=1, le=MAX_K, description=f"How many results, 1 to {MAX_K}.")

    @app.exception_handler(NotFound)
    async def _unknown(request: Request, exc: NotFound) -> JSONResponse | HTMLResponse:
        if request.url.path.startswith("/case/"):
            return HTMLResponse(f"<!DOCTYPE html><title>not found</title><p>{escape(str(exc))}</p>", status_code=404,
                                headers=headers)
        return JSONResponse({"error": str(exc)}, status_code=404)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        problems = "; ".join(f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg', '')}" for e in exc.errors())
        return JSONResponse({"error": problems or "invalid request"}, status_code=422)

    @app.exception_handler(ValueError)
    async def _bad(_: Request, exc: ValueError) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=400)

    # The API answers on the event loop, lookups (tens of microseconds) and searches (milliseconds
    # of CPU) alike: a search handed to the thread pool cost its hand-over and fought the loop for
    # the GIL. Measured, bench/serve.py --synthetic 100000 --http, first-time calls, three
    # alternating pairs at 8 clients with two processes: thread pool 449 / 351 / 445 requests/s,
    # p95 44.9 / 55.4 / 53.0 ms; on the loop 461 / 407 / 486, p95 36.2 / 40.1 / 34.8 ms (one
    # process: p95 62.6 / 65.6 -> 45.2 / 51.1 ms; a lookup's p50 rises, it may wait for a search).
    # The pages for people (below) stay in the pool.
    @app.get("/api/stats")
    async def stats() -> Response:
        return _json(knowledge.stats())

    @app.get("/api/cases/search")
    async def search_cases(q: str = Query(..., min_length=1, max_length=2000,
                                   description="The symptom: an error message, what was done, the version."), k: int = K,
                     repo: str | None = Query(None, max_length=300, description="Only this repository (OWNER/REPO); "
                                                                            "an unknown repository is a 404.")) -> Response:
        return _json(knowledge.search_cases(q, k=k, repo=repo))

    @app.get("/api/cases/{owner}/{repo}/{number}")
    async def get_case(owner: str, repo: str, number: int) -> Response:
        return _json(knowledge.get_case(f"{owner}/{repo}#{number}"))

    @app.get("/api/cases/{owner}/{repo}/{number}/fix")
    async def fix_status(owner: str, repo: str, number: int) -> Response:
        return _json(knowledge.fix_status(f"{owner}/{repo}#{number}"))

    @app.get("/api/cases/{owner}/{repo}/{number}/related")
    async def related(owner: str, repo: str, number: int, k: int = K) -> Response:
        return _json(knowledge.related_cases(f"{owner}/{repo}#{number}", k=k))

    @app.get("/api/docs/search")
    async def search_docs(q: str = Query(..., min_length=1, max_length=2000,
                                   description="What to look for in the documents and code (Chinese or English)."),
                    k: int = K) -> Response:
        return _json(knowledge.search_docs(q, k=k))

    @app.get("/digest/{name}")
    def digest(name: str) -> Response:
        kind = DIGESTS.get(name)
        path = knowledge.where.out / name if kind and knowledge.where.out else None
        if path is None or not path.is_file():
            return JSONResponse({"error": f"no digest {name!r} here (served: {', '.join(DIGESTS)}; "
                                          "only with --out, after a run that composed them)"}, status_code=404)
        return Response(path.read_bytes(), media_type=kind, headers=headers)

    @app.get("/", response_class=HTMLResponse)
    def search_page(q: str = Query("", max_length=2000), k: int = Query(8, ge=1, le=MAX_K)) -> HTMLResponse:
        cases = knowledge.search_cases(q, k=k) if q.strip() else []
        docs = knowledge.search_docs(q, k=min(k, 5)) if q.strip() else []
        html = page.render(q=q, cases=cases, docs=docs, stats=knowledge.stats(),
                           digest=bool(knowledge.where.out and (knowledge.where.out / "digest.html").is_file()))
        return HTMLResponse(html, headers=headers)

    @app.get("/case/{owner}/{repo}/{number}", response_class=HTMLResponse)
    def case_view(owner: str, repo: str, number: int) -> HTMLResponse:
        key = f"{owner}/{repo}#{number}"
        chain = knowledge.get_case(key)
        html = case_page.render(c=chain, related=knowledge.related_cases(key, k=5))
        return HTMLResponse(html, headers=headers)

    return app
