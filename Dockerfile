# fixlore in a container: `docker run` with no arguments runs the demo (what `./dev demo` does):
# the whole pipeline, offline, on the bundled demo world, writing to /app/out/demo.
#   docker build -t fixlore .
#   docker run --rm -v "$PWD/out:/app/out" fixlore
#   docker run --rm -p 127.0.0.1:8765:8765 -v "$PWD/out:/app/out" fixlore serve http --out out/demo --host 0.0.0.0
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# the pinned versions (requirements.lock) constrain every package pip installs
COPY pyproject.toml requirements.lock README.md LICENSE ./
COPY src ./src
RUN pip install --no-compile -c requirements.lock . \
 && useradd --create-home --uid 10001 fixlore \
 && mkdir -p /app/out \
 && chown fixlore /app/out

COPY worlds/demo ./worlds/demo

USER 10001
EXPOSE 8765
ENTRYPOINT ["fixlore"]
CMD ["run", "--world", "worlds/demo", "--out", "out/demo"]
